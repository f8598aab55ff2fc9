import { MARKET_IDS } from '../../schemas/index.js';
import type { BookSelection, MarketId, SelectionFamily, TierName } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import { csvParam } from './common.js';

/*
 * The shared filters as clients see them: the parameters' schemas, the market categories and the
 * refusal of a book selection. Parsing them into the board's filters: api/queries/parse-filters.ts.
 */

/** What a market filter sees of an odds row or an opportunity. */
export interface MarketFacts {
  market: MarketId;
  family: SelectionFamily;
  statCategory: string | null;
}

/**
 * `market` category aliases (the reference service's): `main` the three game lines, `spread`
 * every handicap (period spreads included), `total` every over/under but player props (team and
 * period totals included), `props` player props. The same on every endpoint that takes `market`.
 */
export const MARKET_CATEGORIES: ReadonlyMap<string, { markets: readonly MarketId[]; test: (m: MarketFacts) => boolean }> = new Map([
  [
    'main',
    {
      markets: ['moneyline', 'point_spread', 'total_points'],
      test: (m: MarketFacts) => m.market === 'moneyline' || m.market === 'point_spread' || m.market === 'total_points',
    },
  ],
  [
    'spread',
    {
      markets: ['point_spread', '1st_half', '1st_quarter'],
      test: (m: MarketFacts) => m.family === 'side' && m.market !== 'moneyline' && m.market !== 'team_total',
    },
  ],
  [
    'total',
    {
      markets: ['total_points', 'team_total', '1st_half', '1st_quarter'],
      test: (m: MarketFacts) => m.family === 'total' && m.market !== 'player_prop',
    },
  ],
  ['props', { markets: ['player_prop'], test: (m: MarketFacts) => m.market === 'player_prop' }],
] as const);

export const MARKET_HELP = `Market ids (${MARKET_IDS.join(', ')}), categories (${[...MARKET_CATEGORIES.keys()].join(', ')}) or player_<stat> (e.g. player_points), comma-separated.`;

/** Query-string schemas of the shared filters, one definition for every route. */
export const sharedFilterParams = {
  sport: csvParam('Sport ids, comma-separated.'),
  league: csvParam('League ids, comma-separated.'),
  sportsbook: csvParam('Sportsbook ids, comma-separated (or the parameter repeated).'),
  market: csvParam(MARKET_HELP),
  event: csvParam('Event ids, comma-separated.'),
  event_id: csvParam("Alias of `event` (the name the reference service's SDKs send)."),
  live: { type: 'boolean', description: 'true: live events only; false: pre-match only; omitted: both.' },
  team: { type: 'string', maxLength: 200, description: 'Team id, or whole words of a team name or alias.' },
  date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Start date (YYYY-MM-DD) in US Eastern time.' },
  q: { type: 'string', maxLength: 200, description: 'Free text over team names and aliases, league names and event ids.' },
  min_odds: { type: 'number', minimum: -100000, maximum: 100000, description: 'Lowest American price.' },
  max_odds: { type: 'number', minimum: -100000, maximum: 100000, description: 'Highest American price.' },
} as const;

/** 403 feature_required for a book above the tier or too many books, with the tier that would serve it. */
export function bookSelectionError(tier: TierName, selection: Exclude<BookSelection, { ok: true }>): ApiError {
  if (selection.reason === 'tier') {
    return new ApiError(
      'feature_required',
      `Sportsbook '${selection.book}' needs the ${selection.needs} tier or higher; this key is ${tier}`,
      {},
      {
        tier,
        required_tier: selection.needs,
      },
    );
  }
  return new ApiError(
    'feature_required',
    `The ${tier} tier serves at most ${selection.max} sportsbooks per request (asked for ${selection.asked}); the ${selection.needs} tier serves more`,
    {},
    { tier, required_tier: selection.needs, max_books: selection.max, requested_books: selection.asked },
  );
}

/** An account's own exchange commission rate, for the answers that price exchange legs again (api/queries/account-rate.ts). */
export const commissionParam = {
  type: 'number',
  minimum: 0,
  exclusiveMaximum: 100,
  description:
    "Your exchange account's commission on net winnings, percent (0 to under 100, like an exchange row's `commission`). Exchange prices are shown net of this rate instead of the board's: rows' odds_*, +EV prices on an exchange with their EV and Kelly, and arbitrage, middle and low-hold legs on an exchange with their profit, stakes and max_stake (an arbitrage or +EV price your rate leaves without an edge is left out). Sportsbook prices are unchanged.",
} as const;

export const addSportsbookParam = csvParam(
  'Sportsbook ids to serve on top of the selection (the tier default, or `sportsbook`); the union must stay within the tier.',
);

/** What an odds endpoint serves from: the place filters and the tier's book selection (/odds, /odds/best, /odds/delta). */
export const oddsScopeParams = {
  sport: sharedFilterParams.sport,
  league: sharedFilterParams.league,
  sportsbook: sharedFilterParams.sportsbook,
  add_sportsbook: addSportsbookParam,
  market: sharedFilterParams.market,
  event: sharedFilterParams.event,
  event_id: sharedFilterParams.event_id,
  live: sharedFilterParams.live,
} as const;

/** Finding events by team, day or free text (/odds, /odds/best, /events). */
export const eventSearchParams = {
  team: sharedFilterParams.team,
  date: sharedFilterParams.date,
  q: sharedFilterParams.q,
} as const;
