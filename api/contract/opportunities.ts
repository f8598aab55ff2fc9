import { KEY_NUMBERS, LEG_SIDES, MARKET_IDS, SELECTION_TYPES, playerId } from '../../schemas/index.js';
import type {
  ArbitrageOpportunity,
  DevigMethodName,
  EvOpportunity,
  LowHoldOpportunity,
  MiddleOpportunity,
  Opportunity,
  OpportunityLeg,
  SelectionType,
} from '../../schemas/index.js';
import { confidenceScore, freshnessShare, phantomWarnings, staleClockOfRecord, staleness } from '../../pipeline/opportunities/index.js';
import type { PhantomPolicy, StaleDerivativeFlag } from '../../pipeline/opportunities/index.js';
import { DEVIG_CHOICES, americanToDecimal, roundedStakes, wholeNumbersProbability } from '../../pipeline/odds-math/index.js';
import { evRecipeProps } from './fair.js';
import type { RoundedStake } from '../../pipeline/odds-math/index.js';
import { isMainLine } from '../views/index.js';
import type { MainLines } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import type { LiveGameState } from '../views/index.js';
import { isoTime, labelRefSchema, nullableInteger, nullableNumber, nullableString, sportRefSchema, teamRefSchema } from './common.js';
import { bookRef, leagueRef, marketRef, marketType, selectionLabel, sportRef, teamName, teamRef } from './refs.js';
import { deepLinkUrl, legDeepLink } from '../deeplinks/index.js';
import type { ListRowOf, RowOf } from './route-types.js';

/** Opportunity rows of the public contract: JSON schemas and the one mapping to snake_case. */

export type EvRow = RowOf<'/api/v1/opportunities/ev'>;
export type ArbitrageRow = ListRowOf<'/api/v1/opportunities/arbitrage'>;
export type MiddleRow = RowOf<'/api/v1/opportunities/middles'>;
export type LowHoldRow = RowOf<'/api/v1/opportunities/low_hold'>;
type RefKey = keyof typeof refs;
/**
 * The event and market fields every row's schema declares alike (`eventProps`): always there,
 * but the reference blocks, which are missing when the catalog does not know the id.
 */
type EventFields = Required<Pick<EvRow, Exclude<keyof typeof eventProps, RefKey>>> & Pick<EvRow, RefKey>;
type LegRow = NonNullable<ArbitrageRow['legs']>[number];
type Lifecycle = Required<Pick<EvRow, 'detected_at' | 'last_seen_at'>>;

const r2 = (x: number): number => Math.round(x * 100) / 100;
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The event's main lines, to tell main from alternate lines (LiveBoard.mainLines). */
export type LinesOf = (eventId: string) => MainLines;

/** What arbitrage and low-hold rows show from beside their record (the read side builds it). */
export interface RowContext {
  /** The best +EV % on the same market and line as a leg; null when none. */
  evOf?: (o: Opportunity) => number | null;
  /** The live game's state; undefined before (or without) one. */
  gameOf?: (eventId: string) => LiveGameState | undefined;
}

type RowGameState = ArbitrageRow['game_state'];

/** The opportunity game-state object: score, period and clock while live, every field null before. */
function gameStateOf(o: Opportunity, context: RowContext): RowGameState {
  const g = context.gameOf?.(o.eventId);
  return g
    ? { period: g.period, clock: g.clock, score_home: g.homeScore, score_away: g.awayScore }
    : { period: null, clock: null, score_home: null, score_away: null };
}

/** Whether the opportunity's line is not its family's main line (false for markets without a line). */
export function isAlternate(o: Opportunity, lines: LinesOf | undefined): boolean {
  const leg = o.legs[0];
  if (!leg || leg.line === null || !lines) return false;
  return !isMainLine(lines(o.eventId), {
    market: o.market,
    participant: o.participant,
    statCategory: o.statCategory,
    selection: leg.selection,
    line: leg.line,
  });
}

export function selectionName(catalog: Catalog, o: Opportunity, selection: SelectionType): string {
  return selectionLabel(catalog, o.event, o.market, o.participant, selection);
}

/** The player of a player prop (null on other markets), as rows show it in `player_name`. */
export const playerNameOf = (o: Opportunity): string | null => (o.market === 'player_prop' ? o.participant : null);

/** The confidence score a +EV row shows, with the method's EV (freshness is its own signal, not a part). */
export function evConfidence(o: EvOpportunity, method: DevigMethodName): number {
  return confidenceScore(o.confidence, o.methods[method].evPercent);
}

/** Event and market fields every opportunity row carries, with the reference blocks. */
function eventFields(catalog: Catalog, o: Opportunity): EventFields {
  const e = o.event;
  const home = teamName(catalog, e.homeTeamId);
  const away = teamName(catalog, e.awayTeamId);
  return {
    event_id: o.eventId,
    event_name: `${away} @ ${home}`,
    game_id: o.eventId,
    game: `${away} @ ${home}`,
    sport: e.sport,
    league: e.league,
    home_team: home,
    away_team: away,
    start_time: isoTime(e.startTime),
    is_live: e.isLive,
    market: o.market,
    market_type: marketType(o.market, o.statCategory),
    is_player_prop: o.market === 'player_prop',
    player_name: playerNameOf(o),
    stat_category: o.statCategory,
    home: teamRef(catalog, e.homeTeamId),
    away: teamRef(catalog, e.awayTeamId),
    sport_ref: sportRef(catalog, e.sport),
    league_ref: leagueRef(catalog, e.league),
    market_ref: marketRef(catalog, o.market),
  };
}

/**
 * Staleness at the time of the request (against the record's own clock), its reference warnings
 * kept, and the phantom flags of that moment last.
 */
function freshness(
  o: Opportunity,
  now: number,
  phantom: PhantomPolicy,
): { possibly_stale: boolean; oldest_odds_age_seconds: number; warnings: string[]; stale_after_sharp_move?: SharpMoveOut } {
  const s = staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord(o));
  const kept = o.warnings.filter((w) => w !== 'POTENTIALLY_STALE_ODDS' && w !== 'LIVE_STALE_ODDS');
  const warnings: string[] = [...(s.warning ? [s.warning] : []), ...kept, ...phantomWarnings(o, now, phantom)];
  const derivative = phantom.staleDerivatives?.staleDerivativeOf(o, now) ?? null;
  if (derivative === null) return { possibly_stale: s.possiblyStale, oldest_odds_age_seconds: s.ageSeconds, warnings };
  warnings.push(derivative.warning);
  return {
    possibly_stale: s.possiblyStale,
    oldest_odds_age_seconds: s.ageSeconds,
    warnings,
    stale_after_sharp_move: sharpMoveOut(derivative),
  };
}

type SharpMoveOut = NonNullable<EvRow['stale_after_sharp_move']>;

function sharpMoveOut(f: StaleDerivativeFlag): SharpMoveOut {
  return {
    sportsbook: f.book,
    selection_type: f.selection,
    line: f.line,
    expected: f.expected,
    sharp_book: f.move.book,
    sharp_market: f.move.market,
    from_line: f.move.fromLine,
    to_line: f.move.toLine,
    moved_at: isoTime(f.move.at),
  };
}

/** Stakes for a bankroll, in cents that add up to it exactly, with what each leg returns if it wins. */
export function stakesFor(legs: readonly OpportunityLeg[], bankroll: number): RoundedStake[] {
  return roundedStakes(
    legs.map((l) => americanToDecimal(l.priceAmerican)),
    bankroll,
  );
}

function legOut(catalog: Catalog, o: Opportunity, l: OpportunityLeg, money?: { stake: number; payout: number }): LegRow {
  const label = selectionName(catalog, o, l.selection);
  return {
    sportsbook: l.book,
    selection: label,
    selection_type: l.selection,
    selection_name: label,
    line: l.line,
    odds_american: l.priceAmerican,
    odds_decimal: l.priceDecimal,
    implied_probability: r6(1 / l.priceDecimal),
    stake_percent: r2(l.stakeShare * 100),
    stake_percentage: r2(l.stakeShare * 100),
    ...(money ? { stake: money.stake, payout: money.payout } : {}),
    timestamp: isoTime(l.ts),
    external_event_id: l.bookEventId,
    selection_id: l.selectionId,
    deep_link: legDeepLink(catalog, o.id, l.book),
    sportsbook_ref: bookRef(catalog, l.book),
    ...layFields(l, money),
  };
}

/**
 * Where a combination lays on an exchange, each leg's side; a lay leg adds its price as quoted
 * and, for a bankroll, the backers' stake to lay (its `stake` is the liability: stake / (L - 1)).
 * Nothing on the legs of a combination that only backs.
 */
function layFields(l: OpportunityLeg, money?: { stake: number }): Pick<LegRow, 'side' | 'lay_odds' | 'lay_stake'> {
  if (l.side === undefined) return {};
  if (l.side === 'back' || l.layPrice === undefined) return { side: l.side };
  return { side: l.side, lay_odds: l.layPrice, ...(money ? { lay_stake: r2(money.stake / (l.layPrice - 1)) } : {}) };
}

function lifecycle(o: Opportunity): Lifecycle {
  return { detected_at: isoTime(o.detectedAt), last_seen_at: isoTime(o.lastSeenAt) };
}

export function presentEv(
  catalog: Catalog,
  o: EvOpportunity,
  method: DevigMethodName,
  now: number,
  phantom: PhantomPolicy,
  includeMethods: boolean,
): EvRow {
  const m = o.methods[method];
  const fresh = freshness(o, now, phantom);
  return {
    id: o.id,
    ...eventFields(catalog, o),
    external_event_id: o.bookEventId,
    selection_id: o.selectionId,
    player_id: o.market === 'player_prop' && o.participant !== null ? playerId(o.participant) : null,
    deep_link: deepLinkUrl(catalog, o.book, o.id),
    ev_percentage: m.evPercent,
    ev_percent: m.evPercent,
    odds_american: o.priceAmerican,
    odds_decimal: o.priceDecimal,
    no_vig_odds: m.noVigOdds,
    fair_probability: m.fairProbability,
    market_width: o.marketWidth,
    devig_method: method,
    sharp_book: o.sharpBook,
    devig_book: o.sharpBook,
    sharp_books: o.sharpBooks,
    selection: o.selection,
    selection_type: o.selection,
    selection_name: selectionName(catalog, o, o.selection),
    line: o.line,
    sportsbook: o.book,
    confidence_score: evConfidence(o, method),
    kelly_percent: m.kellyPercent,
    book_count: o.bookCount,
    arb_available: o.arbAvailable,
    arb_profit: o.arbProfitPercent,
    ...fresh,
    ...lifecycle(o),
    sportsbook_ref: bookRef(catalog, o.book),
    ...(includeMethods
      ? {
          methods: Object.fromEntries(
            (Object.keys(o.methods) as DevigMethodName[]).map((k) => [
              k,
              {
                fair_probability: o.methods[k].fairProbability,
                no_vig_odds: o.methods[k].noVigOdds,
                ev_percentage: o.methods[k].evPercent,
                kelly_percent: o.methods[k].kellyPercent,
              },
            ]),
          ),
        }
      : {}),
  };
}

/** `max_stake`: what an exchange leg's size lets the whole combination carry. */
const maxStakeSchema = {
  type: 'number',
  description:
    "The most the whole stake can be, in the exchange market's currency, when a leg is on an exchange: each exchange leg is matched only up to the money waiting at its price (max_bet), and takes its share of the stake. Absent when every leg is a sportsbook's.",
} as const;

/** The capacity field of a combination, when one of its legs is on an exchange. */
function maxStakeOf(o: { maxStake?: number | null }): { max_stake?: number } {
  return o.maxStake == null ? {} : { max_stake: o.maxStake };
}

export function presentArbitrage(
  catalog: Catalog,
  o: ArbitrageOpportunity,
  bankroll: number,
  now: number,
  phantom: PhantomPolicy,
  lines?: LinesOf,
  context: RowContext = {},
): ArbitrageRow {
  const money = stakesFor(o.legs, bankroll);
  const guaranteed = Math.min(...money.map((m) => m.payout));
  const ev = context.evOf?.(o) ?? null;
  return {
    id: o.id,
    ...eventFields(catalog, o),
    line: o.line,
    is_alternate_line: isAlternate(o, lines),
    profit_percent: o.profitPercent,
    profit_percentage: o.profitPercent,
    implied_total: r4(o.impliedSum * 100),
    implied_probability_sum: o.impliedSum,
    bankroll,
    guaranteed_payout: guaranteed,
    guaranteed_profit: r2(guaranteed - bankroll),
    ...maxStakeOf(o),
    book_count: new Set(o.legs.map((l) => l.book)).size,
    legs: o.legs.map((l, i) => legOut(catalog, o, l, money[i])),
    ev_available: ev !== null,
    ev_percentage: ev,
    game_state: gameStateOf(o, context),
    ...freshness(o, now, phantom),
    ...lifecycle(o),
  };
}

/** The window's results that are key numbers of the league, primary or secondary (`KEY_NUMBERS`). */
export function keyNumbersOf(o: MiddleOpportunity): number[] {
  const keys = KEY_NUMBERS.get(o.event.league);
  if (!keys) return [];
  const set = o.family === 'side' ? keys.spread : o.market === 'total_points' ? keys.totals : null;
  const list = set ? [...set.primary, ...set.secondary] : [];
  return o.windowOutcomes.filter((x) => list.includes(Math.abs(x)));
}

/**
 * quality_score (0-100) of a middle, the reference's default order: model EV 40 points (-5 %
 * or worse 0, +5 % or better 40, linear), hit probability 30 (0 to 20 % and above, linear),
 * worst-case cost 20 (10 % or more 0, none 20), freshness 10 (fresh 10, 0 at 60 s, 10 s live).
 */
export function middleQuality(o: MiddleOpportunity, ageSeconds: number): number {
  const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
  const ev = 40 * clamp01((o.evPercent + 5) / 10);
  const hit = 30 * clamp01(o.hitProbability / 0.2);
  const cost = 20 * clamp01(1 - Math.max(0, -o.worstCaseProfitPercent) / 10);
  const fresh = 10 * clamp01(1 - ageSeconds / (o.event.isLive ? 10 : 60));
  return Math.round(ev + hit + cost + fresh);
}

function middleWarnings(o: MiddleOpportunity, ageSeconds: number, kept: readonly string[]): string[] {
  const w = [...kept];
  if (o.hitProbability > 0.15) w.push('HIGH_PROBABILITY');
  if (o.windowSize > 3) w.push('LARGE_GAP');
  if (ageSeconds > 30) w.push('STALE_ODDS');
  if (o.event.isLive) w.push('LIVE_GAME');
  if (o.worstCaseProfitPercent >= 0) w.push('GUARANTEED_PROFIT');
  return w;
}

/**
 * The legs of a middle or a low-hold market, which the opportunity processor builds with two or
 * more; a record from the topic is not checked on the way in, and one with fewer would miss the
 * `side1`/`side2` its row schema requires, which the serializer refuses: say so here instead.
 */
function twoLegs(o: Opportunity): [OpportunityLeg, OpportunityLeg, ...OpportunityLeg[]] {
  const [leg1, leg2, ...rest] = o.legs;
  if (!leg1 || !leg2) throw new Error(`${o.kind} opportunity ${o.id} has ${o.legs.length} legs, not 2 or more`);
  return [leg1, leg2, ...rest];
}

/** A middle's leg as the reference's `side1`/`side2`: book, label, line, odds block, stake. */
function middleSide(
  catalog: Catalog,
  o: MiddleOpportunity,
  l: OpportunityLeg,
  impliedSum: number,
  now: number,
): NonNullable<MiddleRow['side1']> {
  const implied = 1 / l.priceDecimal;
  return {
    book: l.book,
    selection: selectionName(catalog, o, l.selection),
    selection_type: l.selection,
    line: l.line ?? 0,
    odds: { american: l.priceAmerican, decimal: l.priceDecimal, probability: r6(implied), fair_probability: r6(implied / impliedSum) },
    stake_percent: r2(l.stakeShare * 100),
    odds_age_seconds: Math.max(0, Math.round((now - l.ts) / 100) / 10),
    deep_link: legDeepLink(catalog, o.id, l.book),
    sportsbook_ref: bookRef(catalog, l.book),
  };
}

export function presentMiddle(catalog: Catalog, o: MiddleOpportunity, bankroll: number, now: number, phantom: PhantomPolicy): MiddleRow {
  const money = stakesFor(o.legs, bankroll);
  const fresh = freshness(o, now, phantom);
  const impliedSum = o.legs.reduce((a, l) => a + 1 / l.priceDecimal, 0);
  const keys = keyNumbersOf(o);
  const [leg1, leg2] = twoLegs(o);
  const miss = o.missProfitPercent;
  const guaranteed = o.worstCaseProfitPercent >= 0;
  return {
    id: o.id,
    ...eventFields(catalog, o),
    side1: middleSide(catalog, o, leg1, impliedSum, now),
    side2: middleSide(catalog, o, leg2, impliedSum, now),
    middle_size: o.windowSize,
    middle_numbers: o.windowOutcomes,
    middle_probability: o.hitProbability,
    key_numbers: keys,
    key_number_probability: r6(wholeNumbersProbability(keys, o.model.mean, o.model.sigma)),
    market_overround: r4((impliedSum - 1) * 100),
    expected_value: o.evPercent,
    roi_percentage: o.evPercent,
    worst_case_loss: o.worstCaseProfitPercent,
    best_case_profit: o.maxProfitPercent,
    break_even_percent: miss >= 0 ? 0 : r2((-miss / (o.maxProfitPercent - miss)) * 100),
    is_guaranteed_profit: guaranteed,
    ...maxStakeOf(o),
    guaranteed_roi: guaranteed ? o.worstCaseProfitPercent : null,
    quality_score: middleQuality(o, fresh.oldest_odds_age_seconds),
    odds_age_seconds: fresh.oldest_odds_age_seconds,
    is_team_total: o.market === 'team_total',
    team_name:
      o.market === 'team_total' && (o.participant === 'home' || o.participant === 'away')
        ? teamName(catalog, o.participant === 'home' ? o.event.homeTeamId : o.event.awayTeamId)
        : null,
    lower_bound: o.lowerBound,
    upper_bound: o.upperBound,
    window_size: o.windowSize,
    window_outcomes: o.windowOutcomes,
    hit_probability: o.hitProbability,
    ev_percentage: o.evPercent,
    miss_profit_percentage: o.missProfitPercent,
    max_profit_percentage: o.maxProfitPercent,
    worst_case_cost_percentage: Math.max(0, -o.worstCaseProfitPercent),
    model: { distribution: 'normal', mean: o.model.mean, sigma: o.model.sigma },
    bankroll,
    legs: o.legs.map((l, i) => legOut(catalog, o, l, money[i])),
    ...fresh,
    warnings: middleWarnings(o, fresh.oldest_odds_age_seconds, fresh.warnings),
    ...lifecycle(o),
  };
}

/** A low-hold outcome as the reference's `side1`..`side3`: the best price, its book, fair probability. */
function lowHoldSide(catalog: Catalog, o: LowHoldOpportunity, l: OpportunityLeg): LowHoldRow['side1'] {
  const implied = 1 / l.priceDecimal;
  return {
    selection: selectionName(catalog, o, l.selection),
    selection_type: l.selection,
    books: [l.book],
    line: l.line,
    odds: {
      american: l.priceAmerican,
      decimal: l.priceDecimal,
      implied_probability: r6(implied),
      probability: r6(implied),
      fair_probability: r6(implied / o.impliedSum),
    },
    deep_links: deepLinksOf(catalog, o.id, [l.book]),
  };
}

/**
 * Book -> deep link of the books that have one (a null-prototype object: a book id is data,
 * never a property of Object.prototype). A book without templates has no entry, not a null.
 */
function deepLinksOf(catalog: Catalog, opportunityId: string, books: readonly string[]): Record<string, string> {
  const links = Object.create(null) as Record<string, string>;
  for (const book of books) {
    const link = legDeepLink(catalog, opportunityId, book);
    if (link !== null) links[book] = link;
  }
  return links;
}

/**
 * Confidence of a low-hold row (0-100): how fresh its prices are, by the same clock as its
 * `possibly_stale` (the price that goes stale first against its book's threshold): 100 just
 * confirmed, 50 at the threshold, 0 at twice it. Not the +EV score: a low-hold market has no
 * reference to have moved before or after its books.
 */
function lowHoldConfidence(o: LowHoldOpportunity, now: number): number {
  return Math.round(100 * freshnessShare(now, staleClockOfRecord(o)));
}

export function presentLowHold(
  catalog: Catalog,
  o: LowHoldOpportunity,
  now: number,
  phantom: PhantomPolicy,
  lines?: LinesOf,
  context: RowContext = {},
): LowHoldRow {
  const fresh = freshness(o, now, phantom);
  const [leg1, leg2, leg3] = twoLegs(o);
  return {
    id: o.id,
    ...eventFields(catalog, o),
    line: o.line,
    is_alternate_line: isAlternate(o, lines),
    hold_percentage: o.holdPercent,
    ...maxStakeOf(o),
    implied_probability_sum: o.impliedSum,
    side1: lowHoldSide(catalog, o, leg1),
    side2: lowHoldSide(catalog, o, leg2),
    side3: leg3 ? lowHoldSide(catalog, o, leg3) : null,
    all_books: [...new Set(o.legs.map((l) => l.book))].sort(),
    book_count: new Set(o.legs.map((l) => l.book)).size,
    confidence: lowHoldConfidence(o, now),
    odds_age_seconds: fresh.oldest_odds_age_seconds,
    legs: o.legs.map((l) => legOut(catalog, o, l)),
    game_state: gameStateOf(o, context),
    ...fresh,
    ...lifecycle(o),
  };
}

/** CSV text (RFC 4180): every field quoted when it holds a comma, quote or line break. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

const MAX_LEGS = 3;

/**
 * One line per arbitrage. The reference's columns come first, in its order (event, sport,
 * market, line, profit %, implied total, book/selection/odds/stake % of legs 1 and 2, is_live,
 * is_alternate_line, possibly_stale, warnings, detected_at); ours follow (a third leg for
 * three-way markets, ids, the bankroll's stakes and payouts).
 */
export function arbitrageCsv(rows: readonly ArbitrageRow[]): string {
  const legCols = (i: number): string[] => ['book', 'selection', 'odds', 'stake_percent'].map((f) => `leg${i}_${f}`);
  const legVals = (l: LegRow | undefined): unknown[] => [l?.sportsbook, l?.selection, l?.odds_american, l?.stake_percent];
  const header = [
    'event',
    'sport',
    'market',
    'line',
    'profit_percent',
    'implied_total',
    ...legCols(1),
    ...legCols(2),
    'is_live',
    'is_alternate_line',
    'possibly_stale',
    'warnings',
    'detected_at',
    ...legCols(3),
    'id',
    'event_id',
    'league',
    'start_time',
    'player_name',
    'stat_category',
    'bankroll',
    'guaranteed_payout',
    'guaranteed_profit',
    'oldest_odds_age_seconds',
    ...Array.from({ length: MAX_LEGS }, (_, i) => [`leg${i + 1}_stake`, `leg${i + 1}_payout`]).flat(),
  ];
  const body = rows.map((r) => {
    const legs = r.legs ?? [];
    return [
      r.event_name,
      r.sport,
      r.market_type,
      r.line,
      r.profit_percent,
      r.implied_total,
      ...legVals(legs[0]),
      ...legVals(legs[1]),
      r.is_live,
      r.is_alternate_line,
      r.possibly_stale,
      (r.warnings ?? []).join(';'),
      r.detected_at,
      ...legVals(legs[2]),
      r.id,
      r.event_id,
      r.league,
      r.start_time,
      r.player_name,
      r.stat_category,
      r.bankroll,
      r.guaranteed_payout,
      r.guaranteed_profit,
      r.oldest_odds_age_seconds,
      ...Array.from({ length: MAX_LEGS }, (_, i) => [legs[i]?.stake, legs[i]?.payout]).flat(),
    ];
  });
  return toCsv(header, body);
}

/* JSON schemas (fast serialization and the OpenAPI document). */

const refs = {
  home: teamRefSchema,
  away: teamRefSchema,
  sport_ref: sportRefSchema,
  league_ref: labelRefSchema,
  market_ref: labelRefSchema,
};

const eventProps = {
  event_id: { type: 'string', description: 'Event id.' },
  event_name: { type: 'string', description: 'Human-readable: Away @ Home.' },
  game_id: { type: 'string', description: 'Same as event_id.' },
  game: { type: 'string', description: 'Same as event_name.' },
  sport: { type: 'string' },
  league: { type: 'string' },
  home_team: nullableString,
  away_team: nullableString,
  start_time: { ...nullableString, description: 'ISO 8601.' },
  is_live: { type: 'boolean' },
  market: { type: 'string', enum: [...MARKET_IDS] },
  market_type: { type: 'string', description: 'The market id, or player_<stat> for player props.' },
  is_player_prop: { type: 'boolean' },
  player_name: nullableString,
  stat_category: nullableString,
  ...refs,
} as const;

const freshnessProps = {
  possibly_stale: { type: 'boolean', description: 'The oldest price used is older than 60 s (10 s in play) now.' },
  oldest_odds_age_seconds: { ...nullableNumber, description: 'Age of the oldest price used, at the time of the request.' },
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description:
      'POTENTIALLY_STALE_ODDS, LIVE_STALE_ODDS, SINGLE_SHARP_REF, FALLBACK_SHARP_REF, STALE_AFTER_SHARP_MOVE (see stale_after_sharp_move); and the phantom flags LIVE_HIGH_PROFIT_SUSPICIOUS and VERY_STALE_ODDS (rows carrying them show only with include=suspicious).',
  },
  stale_after_sharp_move: {
    type: 'object',
    description:
      'Only on rows warned STALE_AFTER_SHARP_MOVE: a sharp book moved the main spread or total of the event by a point or more, and this soft-book price (an alternate line, a half or quarter, a team total or a player prop) has not changed since, although its book would normally have confirmed it by now.',
    required: ['sportsbook', 'selection_type', 'line', 'expected', 'sharp_book', 'sharp_market', 'from_line', 'to_line', 'moved_at'],
    additionalProperties: false,
    properties: {
      sportsbook: { type: 'string', description: 'The book of the price that did not follow.' },
      selection_type: { type: 'string', enum: [...SELECTION_TYPES] },
      line: nullableNumber,
      expected: { type: 'string', enum: ['shorten', 'lengthen'], description: 'Which way the price should go to follow the move.' },
      sharp_book: { type: 'string' },
      sharp_market: { type: 'string', enum: ['point_spread', 'total_points'] },
      from_line: { type: 'number', description: "The sharp book's main line before: the home handicap for spreads, the total for totals." },
      to_line: { type: 'number' },
      moved_at: { type: 'string', description: 'ISO 8601, when the sharp book changed to the new line.' },
    },
  },
  detected_at: { type: 'string', description: 'ISO 8601, first detection.' },
  last_seen_at: { type: 'string', description: 'ISO 8601, when the current values were computed.' },
} as const;

const selectionType = {
  type: 'string',
  enum: [...SELECTION_TYPES],
  description: 'The canonical side: home, away, draw, over, under, yes, no.',
} as const;

const legSchema = {
  type: 'object',
  required: ['sportsbook', 'selection', 'selection_type', 'odds_american', 'odds_decimal', 'stake_percent', 'selection_id'],
  properties: {
    sportsbook: { type: 'string' },
    selection: { type: 'string', description: 'Display label (team name, Over/Under, player and side).' },
    selection_type: selectionType,
    selection_name: { type: 'string', description: 'Same as selection.' },
    line: nullableNumber,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    implied_probability: { type: 'number', description: '1 / odds_decimal.' },
    stake_percent: { type: 'number', description: 'Share of the total stake, %, proportional to 1/decimal.' },
    stake_percentage: { type: 'number', description: 'Same as stake_percent.' },
    stake: { type: 'number', description: 'Stake for the requested bankroll, in cents; the legs add up to the bankroll.' },
    payout: { type: 'number', description: 'What the leg returns, stake included, if it wins.' },
    timestamp: { type: 'string', description: 'When the sportsbook last set or confirmed the price.' },
    external_event_id: nullableString,
    selection_id: { ...nullableString, description: "The sportsbook's own selection id, for deep links to a bet slip; null when unknown." },
    deep_link: {
      ...nullableString,
      description:
        "Resolver URL on this service (absolute) that redirects to this leg's sportsbook; null when the book has no link templates.",
    },
    sportsbook_ref: labelRefSchema,
    side: {
      type: 'string',
      enum: [...LEG_SIDES],
      description:
        "Present on every leg of a combination that lays on an exchange: back, or lay. A lay leg's selection is the runner laid; its odds are that lay as a bet on the runner losing, net of commission, and its stake is the lay's liability.",
    },
    lay_odds: { type: 'number', description: "A lay leg's price as the exchange quotes it (decimal)." },
    lay_stake: {
      type: 'number',
      description: "A lay leg's backer's stake to enter on the exchange for the requested bankroll: stake / (lay_odds - 1).",
    },
  },
} as const;

const methodValues = {
  type: 'object',
  properties: {
    fair_probability: { type: 'number' },
    no_vig_odds: { type: 'integer' },
    ev_percentage: { type: 'number' },
    kelly_percent: { type: 'number' },
  },
} as const;

const methodsSchema = {
  type: 'object',
  description: 'With include=methods: the values under every de-vig choice.',
  properties: Object.fromEntries(DEVIG_CHOICES.map((m) => [m, methodValues])),
};

export const evRowSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_name',
    'market_type',
    'ev_percentage',
    'odds_american',
    'odds_decimal',
    'devig_method',
    'sharp_book',
    'selection',
    'market',
    'sportsbook',
    'confidence_score',
    'warnings',
    'detected_at',
    'selection_id',
    'player_id',
  ],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    external_event_id: nullableString,
    selection_id: { ...nullableString, description: "The sportsbook's own selection id; null when unknown." },
    player_id: {
      ...nullableString,
      description: "Player props: the player's id across books (folded name, luka-doncic, as on futures outcomes); null otherwise.",
    },
    deep_link: {
      ...nullableString,
      description: 'Resolver URL on this service (absolute) that redirects to the sportsbook; null when the book has no link templates.',
    },
    ev_percentage: { type: 'number', description: '(fair_probability x decimal odds - 1) x 100.' },
    ev_percent: { type: 'number', description: 'Deprecated alias of ev_percentage.' },
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    no_vig_odds: { ...nullableInteger, description: 'Fair American odds from the de-vigged sharp line.' },
    fair_probability: nullableNumber,
    market_width: { ...nullableNumber, description: "Width in cents of the reference's two-way market; null for other markets." },
    devig_method: { type: 'string', enum: [...DEVIG_CHOICES] },
    sharp_book: { type: 'string' },
    devig_book: { type: 'string', description: 'Deprecated alias of sharp_book.' },
    sharp_books: { type: 'array', items: { type: 'string' }, description: 'Every reference book averaged, best first.' },
    selection: { type: 'string', description: 'The canonical side (home, away, draw, over, under, yes, no); the label is selection_name.' },
    selection_type: selectionType,
    selection_name: { type: 'string' },
    line: nullableNumber,
    sportsbook: { type: 'string' },
    confidence_score: { type: 'number', description: '0 to 100; see docs/opportunities.md.' },
    kelly_percent: { ...nullableNumber, description: 'Full Kelly, % of bankroll.' },
    book_count: { type: 'number' },
    arb_available: { type: 'boolean' },
    arb_profit: nullableNumber,
    ...freshnessProps,
    sportsbook_ref: labelRefSchema,
    methods: methodsSchema,
    ...evRecipeProps,
  },
} as const;

const gameStateSchema = {
  type: 'object',
  required: ['period', 'clock', 'score_home', 'score_away'],
  description: 'The game while live (every field null before it starts): the full state is on /gamestate and its stream.',
  properties: {
    period: { ...nullableString, description: 'Q3, 2H, P2, S2, T5 (top of the 5th), ...' },
    clock: { ...nullableString, description: 'mm:ss; null where the sport has no clock.' },
    score_home: nullableInteger,
    score_away: nullableInteger,
  },
} as const;

const isAlternateLine = { type: 'boolean', description: "The line is not its market's main line (the one most books quote)." } as const;

export const arbitrageRowSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_name',
    'sport',
    'market_type',
    'profit_percent',
    'implied_total',
    'legs',
    'detected_at',
    'ev_available',
    'ev_percentage',
    'game_state',
  ],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    line: { ...nullableNumber, description: "The market's line from the home (sides) or Over (totals) perspective." },
    is_alternate_line: isAlternateLine,
    profit_percent: { type: 'number', description: 'Guaranteed profit, % of the total stake: (1 / sum(1/d) - 1) x 100 (1.83 = 1.83 %).' },
    profit_percentage: { type: 'number', description: 'Same as profit_percent.' },
    implied_total: { type: 'number', description: "Sum of the legs' implied probabilities, in percent (98.2); below 100 is an arbitrage." },
    implied_probability_sum: { type: 'number', description: 'The same sum as a fraction (0.982).' },
    bankroll: { type: 'number' },
    guaranteed_payout: { type: 'number', description: 'The smallest leg payout after rounding stakes to cents.' },
    guaranteed_profit: { type: 'number' },
    max_stake: maxStakeSchema,
    book_count: { type: 'integer' },
    legs: { type: 'array', items: legSchema },
    ev_available: { type: 'boolean', description: 'A +EV bet exists on a leg of this market at this line.' },
    ev_percentage: {
      ...nullableNumber,
      description: 'The best of those +EV bets, % (power de-vig, as /opportunities/ev by default); null when none.',
    },
    game_state: gameStateSchema,
    ...freshnessProps,
  },
} as const;

const middleSideSchema = {
  type: 'object',
  required: ['book', 'selection', 'line', 'odds'],
  properties: {
    book: { type: 'string' },
    selection: { type: 'string', description: 'Display label.' },
    selection_type: selectionType,
    line: { type: 'number' },
    odds: {
      type: 'object',
      required: ['american', 'decimal', 'probability'],
      properties: {
        american: { type: 'integer' },
        decimal: { type: 'number' },
        probability: { type: 'number', description: 'Implied, 1 / decimal.' },
        fair_probability: { type: 'number', description: 'Implied, normalised over the two sides.' },
      },
    },
    stake_percent: { type: 'number' },
    odds_age_seconds: nullableNumber,
    deep_link: {
      ...nullableString,
      description:
        "Resolver URL on this service (absolute) that redirects to this side's sportsbook; null when the book has no link templates.",
    },
    sportsbook_ref: labelRefSchema,
  },
} as const;

export const middleRowSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_name',
    'sport',
    'league',
    'market_type',
    'home_team',
    'away_team',
    'start_time',
    'side1',
    'side2',
    'middle_size',
    'middle_numbers',
    'middle_probability',
    'key_number_probability',
    'market_overround',
    'expected_value',
    'roi_percentage',
    'worst_case_loss',
    'best_case_profit',
    'break_even_percent',
    'is_guaranteed_profit',
    'guaranteed_roi',
    'key_numbers',
    'quality_score',
    'odds_age_seconds',
    'is_live',
    'is_player_prop',
    'is_team_total',
    'player_name',
    'stat_category',
    'team_name',
    'warnings',
    'detected_at',
    'lower_bound',
    'upper_bound',
    'window_size',
    'hit_probability',
    'legs',
  ],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    side1: middleSideSchema,
    side2: middleSideSchema,
    middle_size: { type: 'number', description: 'Same as window_size: the gap between the lines, points.' },
    middle_numbers: { type: 'array', items: { type: 'integer' }, description: 'Same as window_outcomes.' },
    middle_probability: { type: 'number', description: 'Same as hit_probability.' },
    key_numbers: {
      type: 'array',
      items: { type: 'integer' },
      description: 'Middle numbers that are key numbers (NFL and college football margins and NFL totals).',
    },
    key_number_probability: { type: 'number', description: 'Model probability of landing on one of key_numbers.' },
    market_overround: { type: 'number', description: '(sum of the two implied probabilities - 1) x 100.' },
    expected_value: { type: 'number', description: 'Model EV in $ per $100 staked (= ev_percentage).' },
    roi_percentage: { type: 'number', description: 'Model EV, % of the stake (= ev_percentage).' },
    worst_case_loss: { type: 'number', description: 'Worst outcome, $ per $100 staked; negative is a loss.' },
    best_case_profit: { type: 'number', description: 'Both legs win, $ per $100 staked.' },
    break_even_percent: { type: 'number', description: 'Hit probability (%) at which the middle breaks even, pushes left out.' },
    is_guaranteed_profit: { type: 'boolean', description: 'worst_case_loss >= 0.' },
    max_stake: maxStakeSchema,
    guaranteed_roi: { ...nullableNumber, description: 'worst_case_loss when it is not a loss, else null.' },
    quality_score: {
      type: 'number',
      description: '0-100: EV 40, hit probability 30, worst-case cost 20, freshness 10 (docs/opportunities.md).',
    },
    odds_age_seconds: { ...nullableNumber, description: 'Same as oldest_odds_age_seconds.' },
    is_team_total: { type: 'boolean' },
    team_name: { ...nullableString, description: 'Team totals: the team.' },
    lower_bound: {
      type: 'number',
      description: 'Both legs win when lower_bound < X < upper_bound; X is the total, or the home margin for spreads.',
    },
    upper_bound: { type: 'number' },
    window_size: { type: 'number', description: 'upper_bound - lower_bound, in points.' },
    window_outcomes: { type: 'array', items: { type: 'number' }, description: 'Whole-number results that win both legs.' },
    hit_probability: { type: 'number', description: 'Model probability that both legs win.' },
    ev_percentage: { type: 'number', description: 'Model expected profit, % of the total stake, pushes included.' },
    miss_profit_percentage: { type: 'number', description: 'Profit when only one leg wins (negative: the cost).' },
    max_profit_percentage: { type: 'number' },
    worst_case_cost_percentage: { type: 'number', description: 'Largest possible loss, % of the total stake (0 when none).' },
    model: { type: 'object', properties: { distribution: { type: 'string' }, mean: { type: 'number' }, sigma: { type: 'number' } } },
    bankroll: { type: 'number' },
    legs: { type: 'array', items: legSchema },
    ...freshnessProps,
  },
} as const;

const lowHoldSideSchema = {
  type: 'object',
  required: ['selection', 'books', 'line', 'odds', 'deep_links'],
  properties: {
    selection: { type: 'string', description: 'Display label.' },
    selection_type: selectionType,
    books: { type: 'array', items: { type: 'string' }, description: 'The book(s) at the best price.' },
    line: nullableNumber,
    odds: {
      type: 'object',
      required: ['american', 'decimal', 'implied_probability', 'probability', 'fair_probability'],
      properties: {
        american: { type: 'integer' },
        decimal: { type: 'number' },
        implied_probability: { type: 'number' },
        probability: { type: 'number', description: 'Same as implied_probability.' },
        fair_probability: { type: 'number', description: 'Implied, normalised over the sides.' },
      },
    },
    deep_links: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Book -> resolver URL that redirects to it; a book without link templates has no entry.',
    },
  },
} as const;

export const lowHoldRowSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_name',
    'sport',
    'league',
    'market_type',
    'home_team',
    'away_team',
    'line',
    'start_time',
    'hold_percentage',
    'side1',
    'side2',
    'side3',
    'is_live',
    'is_alternate_line',
    'is_player_prop',
    'possibly_stale',
    'all_books',
    'player_name',
    'stat_category',
    'confidence',
    'odds_age_seconds',
    'detected_at',
    'legs',
    'game_state',
  ],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    line: nullableNumber,
    is_alternate_line: isAlternateLine,
    hold_percentage: { type: 'number', description: 'Best-price hold: (1 - 1/sum(1/d)) x 100; negative is an arbitrage.' },
    max_stake: maxStakeSchema,
    implied_probability_sum: { type: 'number' },
    side1: lowHoldSideSchema,
    side2: lowHoldSideSchema,
    side3: { anyOf: [lowHoldSideSchema, { type: 'null' }], description: 'Three-way markets only.' },
    all_books: { type: 'array', items: { type: 'string' } },
    confidence: { type: 'number', description: '0-100: freshness of the prices (100 fresh, 0 at twice the stale threshold).' },
    odds_age_seconds: { ...nullableNumber, description: 'Same as oldest_odds_age_seconds.' },
    book_count: { type: 'integer' },
    legs: { type: 'array', items: legSchema },
    game_state: gameStateSchema,
    ...freshnessProps,
  },
} as const;
