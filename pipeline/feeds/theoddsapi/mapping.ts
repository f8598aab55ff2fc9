import { LEAGUES, SPORTSBOOKS } from '../../../schemas/index.js';
import type { MarketId } from '../../../schemas/index.js';
import { decimalToAmericanUnsnapped } from '../../odds-math/index.js';
import type { WireOutcome } from './wire.js';

/**
 * The Odds API vocabulary to ours: sport keys to leagues, bookmaker keys to sportsbook ids,
 * market keys to market ids, prices to American odds. Pure lookups; a null answer means
 * "not ours", which the caller counts by key.
 */

export interface LeagueRef {
  league: string;
  sport: string;
}

/** Feed keys are looked up in Maps: a key like `constructor` must map to nothing. */
const SPORT_KEYS: ReadonlyMap<string, string> = new Map<string, string>([
  ['americanfootball_nfl', 'nfl'],
  ['americanfootball_ncaaf', 'ncaaf'],
  ['basketball_nba', 'nba'],
  ['basketball_ncaab', 'ncaab'],
  ['basketball_wnba', 'wnba'],
  ['icehockey_nhl', 'nhl'],
  ['baseball_mlb', 'mlb'],
  ['soccer_epl', 'epl'],
  ['soccer_spain_la_liga', 'la_liga'],
  ['soccer_italy_serie_a', 'serie_a'],
  ['soccer_germany_bundesliga', 'bundesliga'],
  ['soccer_usa_mls', 'mls'],
  ['soccer_fifa_world_cup', 'fifa_world_cup'],
  ['mma_mixed_martial_arts', 'ufc'],
  ['boxing_boxing', 'boxing'],
  ['cricket_test_match', 'test_cricket'],
  ['rugbyunion_premiership', 'premiership_rugby'],
  ['rugbyleague_nrl', 'nrl'],
  ['lacrosse_pll', 'pll'],
]);

/** Tournament-scoped keys come and go each season; their prefix names the tour. */
const SPORT_KEY_PREFIXES: readonly (readonly [prefix: string, league: string])[] = [
  ['tennis_atp_', 'atp'],
  ['tennis_wta_', 'wta'],
  ['golf_', 'pga'],
];

const LEAGUE_SPORT = new Map(LEAGUES.map((l) => [l.id, l.sport] as const));

export function mapSportKey(sportKey: string): LeagueRef | null {
  const league = SPORT_KEYS.get(sportKey) ?? SPORT_KEY_PREFIXES.find(([prefix]) => sportKey.startsWith(prefix))?.[1];
  if (league === undefined) return null;
  const sport = LEAGUE_SPORT.get(league);
  return sport === undefined ? null : { league, sport };
}

/**
 * Bookmaker keys to sportsbook ids. Several keys can name one book (regional copies of an
 * exchange or of Unibet); the order of this list is the preference when an event carries more
 * than one of them, so that one book never gets two competing prices for one row.
 */
const BOOKMAKER_KEYS: readonly (readonly [key: string, book: string])[] = [
  ['pinnacle', 'pinnacle'],
  ['betfair_ex_eu', 'betfair_ex_eu'],
  ['betfair_ex_uk', 'betfair_ex_eu'],
  ['betfair_ex_au', 'betfair_ex_eu'],
  ['lowvig', 'lowvig'],
  ['betonlineag', 'betonlineag'],
  ['draftkings', 'draftkings'],
  ['fanduel', 'fanduel'],
  ['betmgm', 'betmgm'],
  ['williamhill_us', 'caesars'],
  ['espnbet', 'espnbet'],
  ['betrivers', 'betrivers'],
  ['fanatics', 'fanatics'],
  ['hardrockbet', 'hardrockbet'],
  ['bovada', 'bovada'],
  ['mybookieag', 'mybookieag'],
  ['betus', 'betus'],
  ['bet365', 'bet365'],
  ['williamhill', 'williamhill'],
  ['unibet_eu', 'unibet'],
  ['unibet_uk', 'unibet'],
  ['unibet', 'unibet'],
  ['sportsbet', 'sportsbet'],
];

const KNOWN_BOOKS = new Set(SPORTSBOOKS.map((b) => b.id));
const BOOKMAKER_BY_KEY = new Map(
  BOOKMAKER_KEYS.filter(([, book]) => KNOWN_BOOKS.has(book)).map(([key, book], i) => [key, { book, rank: i }] as const),
);

export interface BookRef {
  book: string;
  /** Lower is preferred when two keys of one event map to the same book. */
  rank: number;
}

export function mapBookmakerKey(key: string): BookRef | null {
  return BOOKMAKER_BY_KEY.get(key) ?? null;
}

/** Every key the mapping knows, for documentation and tests. */
export const KNOWN_BOOKMAKER_KEYS: readonly string[] = [...BOOKMAKER_BY_KEY.keys()];

/**
 * How a market's outcomes read:
 * - `side`: team name (or `Draw`), no point (h2h);
 * - `spread`: team name with a point from that team's perspective;
 * - `total`: `Over`/`Under` with a point;
 * - `team_total`: `Over`/`Under` with a point, `description` the team;
 * - `prop`: `Over`/`Under` with a point, `description` the player.
 */
export type OutcomeShape = 'side' | 'spread' | 'total' | 'team_total' | 'prop';

export interface MarketSpec {
  market: MarketId;
  statCategory: string | null;
  shape: OutcomeShape;
}

const MARKET_KEYS: ReadonlyMap<string, MarketSpec> = new Map<string, MarketSpec>([
  ['h2h', { market: 'moneyline', statCategory: null, shape: 'side' }],
  ['spreads', { market: 'point_spread', statCategory: null, shape: 'spread' }],
  ['totals', { market: 'total_points', statCategory: null, shape: 'total' }],
  ['team_totals', { market: 'team_total', statCategory: null, shape: 'team_total' }],
  ['spreads_h1', { market: '1st_half', statCategory: null, shape: 'spread' }],
  ['totals_h1', { market: '1st_half', statCategory: null, shape: 'total' }],
  ['spreads_q1', { market: '1st_quarter', statCategory: null, shape: 'spread' }],
  ['totals_q1', { market: '1st_quarter', statCategory: null, shape: 'total' }],
]);

/** Over/under player props: The Odds API key to our stat category. */
const PROP_STATS: ReadonlyMap<string, string> = new Map<string, string>([
  ['player_points', 'points'],
  ['player_rebounds', 'rebounds'],
  ['player_assists', 'assists'],
  ['player_threes', 'threes'],
  ['player_pass_yds', 'passing_yards'],
  ['player_rush_yds', 'rushing_yards'],
  ['player_reception_yds', 'receiving_yards'],
  ['player_receptions', 'receptions'],
  ['player_shots_on_goal', 'shots_on_goal'],
  ['pitcher_strikeouts', 'strikeouts'],
  ['batter_hits', 'hits'],
  ['batter_total_bases', 'total_bases'],
]);

/** Null for keys we do not carry (h2h_lay, outrights, alternates, yes/no props, ...). */
export function mapMarketKey(key: string): MarketSpec | null {
  const spec = MARKET_KEYS.get(key);
  if (spec !== undefined) return spec;
  const stat = PROP_STATS.get(key);
  return stat === undefined ? null : { market: 'player_prop', statCategory: stat, shape: 'prop' };
}

export interface MappedOutcome {
  outcome: string;
  line: number | null;
  participant: string | null;
}

function overUnder(name: string): 'Over' | 'Under' | null {
  const folded = name.trim().toLowerCase();
  if (folded === 'over') return 'Over';
  if (folded === 'under') return 'Under';
  return null;
}

/** The outcome in RawTick terms, or null when it lacks what its market's shape needs. */
export function mapOutcome(shape: OutcomeShape, o: WireOutcome): MappedOutcome | null {
  switch (shape) {
    case 'side':
      return { outcome: o.name, line: null, participant: null };
    case 'spread':
      return o.point === null ? null : { outcome: o.name, line: o.point, participant: null };
    case 'total': {
      const side = overUnder(o.name);
      return side === null || o.point === null ? null : { outcome: side, line: o.point, participant: null };
    }
    case 'team_total':
    case 'prop': {
      const side = overUnder(o.name);
      if (side === null || o.point === null || o.description === null) return null;
      return { outcome: side, line: o.point, participant: o.description };
    }
  }
}

export type PriceFormat = 'american' | 'decimal' | 'auto';

/**
 * A price in American odds. With `auto` (the default), an integer of magnitude >= 100 is
 * American; anything else above 1 (a fraction, or an integer below 100, which no American price
 * can be) is read as decimal and converted. Null for a price that is neither.
 */
export function toAmerican(price: number, format: PriceFormat = 'auto'): number | null {
  if (!Number.isFinite(price)) return null;
  if (format === 'decimal') return decimalToAmericanUnsnapped(price);
  const american = Number.isInteger(price) && Math.abs(price) >= 100;
  if (american) return price;
  if (format === 'american') return null;
  return decimalToAmericanUnsnapped(price);
}
