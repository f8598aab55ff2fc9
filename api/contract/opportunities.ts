import { MARKET_IDS, SELECTION_TYPES } from '../../schemas/index.js';
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
import { confidenceScore, staleness } from '../../pipeline/opportunities/index.js';
import { americanToDecimal } from '../../pipeline/odds-math/index.js';
import type { Catalog } from '../views/catalog.js';
import { isoTime, labelRefSchema, nullableInteger, nullableNumber, nullableString, sportRefSchema, teamRefSchema } from './common.js';
import { bookRef, leagueRef, marketRef, sportRef, teamName, teamRef } from './refs.js';
import { deepLinkPath, legDeepLink } from '../deeplinks/index.js';

/** Opportunity rows of the public contract: JSON schemas and the one mapping to snake_case. */

type Row = Record<string, unknown>;

const r2 = (x: number): number => Math.round(x * 100) / 100;

export function selectionName(catalog: Catalog, o: Opportunity, selection: SelectionType): string {
  const team = (side: string | null): string | null =>
    side === 'home' ? teamName(catalog, o.event.homeTeamId) : side === 'away' ? teamName(catalog, o.event.awayTeamId) : null;
  const word = { home: team('home'), away: team('away'), draw: 'Draw', over: 'Over', under: 'Under', yes: 'Yes', no: 'No' }[selection] ?? selection;
  if (o.market === 'team_total') return `${team(o.participant) ?? ''} ${word}`.trim();
  if (o.market === 'player_prop' && o.participant) return `${o.participant} ${word}`;
  return word;
}

/** Event and market fields every opportunity row carries, with the reference blocks. */
function eventFields(catalog: Catalog, o: Opportunity): Row {
  const e = o.event;
  const home = teamName(catalog, e.homeTeamId);
  const away = teamName(catalog, e.awayTeamId);
  return {
    game_id: o.eventId,
    game: `${away} @ ${home}`,
    sport: e.sport,
    league: e.league,
    home_team: home,
    away_team: away,
    start_time: isoTime(e.startTime),
    is_live: e.isLive,
    market: o.market,
    is_player_prop: o.market === 'player_prop',
    player_name: o.market === 'player_prop' ? o.participant : null,
    stat_category: o.statCategory,
    home: teamRef(catalog, e.homeTeamId),
    away: teamRef(catalog, e.awayTeamId),
    sport_ref: sportRef(catalog, e.sport),
    league_ref: leagueRef(catalog, e.league),
    market_ref: marketRef(catalog, o.market),
  };
}

/** Staleness at the time of the request; the reference warnings of the record are kept. */
function freshness(o: Opportunity, now: number): { possibly_stale: boolean; oldest_odds_age_seconds: number; warnings: string[] } {
  const s = staleness(o.oldestOddsTs, now, o.event.isLive);
  const kept = o.warnings.filter((w) => w !== 'POTENTIALLY_STALE_ODDS' && w !== 'LIVE_STALE_ODDS');
  return { possibly_stale: s.possiblyStale, oldest_odds_age_seconds: s.ageSeconds, warnings: s.warning ? [s.warning, ...kept] : kept };
}

/**
 * Stakes for a bankroll, in cents: proportional to the leg shares, rounded so that they add up
 * to the bankroll exactly (largest remainder), with what each leg returns if it wins.
 */
export function stakesFor(legs: readonly OpportunityLeg[], bankroll: number): { stake: number; payout: number }[] {
  const cents = Math.round(bankroll * 100);
  const implied = legs.map((l) => 1 / americanToDecimal(l.priceAmerican));
  const sum = implied.reduce((a, b) => a + b, 0);
  const exact = implied.map((r) => (cents * r) / sum);
  const floors = exact.map(Math.floor);
  let left = cents - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left--;
  }
  return legs.map((l, i) => {
    const stake = (floors[i] ?? 0) / 100;
    return { stake, payout: r2(stake * americanToDecimal(l.priceAmerican)) };
  });
}

function legOut(catalog: Catalog, o: Opportunity, l: OpportunityLeg, money?: { stake: number; payout: number }): Row {
  return {
    sportsbook: l.book,
    selection: l.selection,
    selection_name: selectionName(catalog, o, l.selection),
    line: l.line,
    odds_american: l.priceAmerican,
    odds_decimal: l.priceDecimal,
    stake_percentage: r2(l.stakeShare * 100),
    ...(money ? { stake: money.stake, payout: money.payout } : {}),
    timestamp: isoTime(l.ts),
    external_event_id: l.bookEventId,
    selection_id: l.selectionId,
    deep_link: legDeepLink(catalog, o.id, l.book),
    sportsbook_ref: bookRef(catalog, l.book),
  };
}

function lifecycle(o: Opportunity): Row {
  return { detected_at: isoTime(o.detectedAt), last_seen_at: isoTime(o.lastSeenAt) };
}

export function presentEv(catalog: Catalog, o: EvOpportunity, method: DevigMethodName, now: number, includeMethods: boolean): Row {
  const m = o.methods[method];
  const fresh = freshness(o, now);
  return {
    id: o.id,
    ...eventFields(catalog, o),
    external_event_id: o.bookEventId,
    selection_id: o.selectionId,
    deep_link: deepLinkPath(catalog, o.book, o.id),
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
    selection_name: selectionName(catalog, o, o.selection),
    line: o.line,
    sportsbook: o.book,
    confidence_score: confidenceScore(o.confidence, m.evPercent, fresh.oldest_odds_age_seconds, o.event.isLive),
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
              { fair_probability: o.methods[k].fairProbability, no_vig_odds: o.methods[k].noVigOdds, ev_percentage: o.methods[k].evPercent, kelly_percent: o.methods[k].kellyPercent },
            ]),
          ),
        }
      : {}),
  };
}

export function presentArbitrage(catalog: Catalog, o: ArbitrageOpportunity, bankroll: number, now: number): Row {
  const money = stakesFor(o.legs, bankroll);
  const guaranteed = Math.min(...money.map((m) => m.payout));
  return {
    id: o.id,
    ...eventFields(catalog, o),
    line: o.line,
    profit_percentage: o.profitPercent,
    implied_probability_sum: o.impliedSum,
    bankroll,
    guaranteed_payout: guaranteed,
    guaranteed_profit: r2(guaranteed - bankroll),
    book_count: new Set(o.legs.map((l) => l.book)).size,
    legs: o.legs.map((l, i) => legOut(catalog, o, l, money[i])),
    ...freshness(o, now),
    ...lifecycle(o),
  };
}

export function presentMiddle(catalog: Catalog, o: MiddleOpportunity, bankroll: number, now: number): Row {
  const money = stakesFor(o.legs, bankroll);
  return {
    id: o.id,
    ...eventFields(catalog, o),
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
    ...freshness(o, now),
    ...lifecycle(o),
  };
}

export function presentLowHold(catalog: Catalog, o: LowHoldOpportunity, now: number): Row {
  return {
    id: o.id,
    ...eventFields(catalog, o),
    line: o.line,
    hold_percentage: o.holdPercent,
    implied_probability_sum: o.impliedSum,
    book_count: new Set(o.legs.map((l) => l.book)).size,
    legs: o.legs.map((l) => legOut(catalog, o, l)),
    ...freshness(o, now),
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

/** One line per arbitrage, legs side by side (up to three: three-way markets). */
export function arbitrageCsv(rows: readonly Row[]): string {
  const legFields = ['sportsbook', 'selection', 'selection_name', 'line', 'odds_american', 'odds_decimal', 'stake', 'payout'];
  const header = [
    'id', 'game_id', 'game', 'sport', 'league', 'start_time', 'is_live', 'market', 'line', 'player_name', 'stat_category',
    'profit_percentage', 'bankroll', 'guaranteed_payout', 'guaranteed_profit', 'oldest_odds_age_seconds', 'detected_at',
    ...Array.from({ length: MAX_LEGS }, (_, i) => legFields.map((f) => `leg${i + 1}_${f}`)).flat(),
  ];
  const body = rows.map((r) => {
    const legs = (r['legs'] as Row[] | undefined) ?? [];
    return [
      ...header.slice(0, 17).map((h) => r[h]),
      ...Array.from({ length: MAX_LEGS }, (_, i) => legFields.map((f) => legs[i]?.[f])).flat(),
    ];
  });
  return toCsv(header, body);
}

/* JSON schemas (fast serialization and the OpenAPI document). */

const refs = { home: teamRefSchema, away: teamRefSchema, sport_ref: sportRefSchema, league_ref: labelRefSchema, market_ref: labelRefSchema };

const eventProps = {
  game_id: { type: 'string', description: 'Event id.' },
  game: { type: 'string', description: 'Human-readable: away @ home.' },
  sport: { type: 'string' },
  league: { type: 'string' },
  home_team: nullableString,
  away_team: nullableString,
  start_time: { ...nullableString, description: 'ISO 8601.' },
  is_live: { type: 'boolean' },
  market: { type: 'string', enum: [...MARKET_IDS] },
  is_player_prop: { type: 'boolean' },
  player_name: nullableString,
  stat_category: nullableString,
  ...refs,
} as const;

const freshnessProps = {
  possibly_stale: { type: 'boolean', description: 'The oldest price used is older than 60 s (10 s in play) now.' },
  oldest_odds_age_seconds: { ...nullableNumber, description: 'Age of the oldest price used, at the time of the request.' },
  warnings: { type: 'array', items: { type: 'string' }, description: 'POTENTIALLY_STALE_ODDS, LIVE_STALE_ODDS, SINGLE_SHARP_REF, FALLBACK_SHARP_REF.' },
  detected_at: { type: 'string', description: 'ISO 8601, first detection.' },
  last_seen_at: { type: 'string', description: 'ISO 8601, when the current values were computed.' },
} as const;

const legSchema = {
  type: 'object',
  properties: {
    sportsbook: { type: 'string' },
    selection: { type: 'string', enum: [...SELECTION_TYPES] },
    selection_name: { type: 'string' },
    line: nullableNumber,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    stake_percentage: { type: 'number', description: 'Share of the total stake, proportional to 1/decimal.' },
    stake: { type: 'number', description: 'Stake for the requested bankroll, in cents; the legs add up to the bankroll.' },
    payout: { type: 'number', description: 'What the leg returns, stake included, if it wins.' },
    timestamp: { type: 'string', description: 'When the sportsbook last set or confirmed the price.' },
    external_event_id: nullableString,
    selection_id: { ...nullableString, description: "The sportsbook's own selection id, for deep links to a bet slip." },
    deep_link: { ...nullableString, description: "Resolver path that redirects to this leg's sportsbook; null when the book has no link templates." },
    sportsbook_ref: labelRefSchema,
  },
} as const;

const methodValues = {
  type: 'object',
  properties: { fair_probability: { type: 'number' }, no_vig_odds: { type: 'integer' }, ev_percentage: { type: 'number' }, kelly_percent: { type: 'number' } },
} as const;

export const evRowSchema = {
  type: 'object',
  required: ['id', 'ev_percentage', 'odds_american', 'odds_decimal', 'devig_method', 'sharp_book', 'selection', 'market', 'sportsbook', 'confidence_score', 'warnings', 'detected_at'],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    external_event_id: nullableString,
    selection_id: nullableString,
    deep_link: { ...nullableString, description: "Resolver path that redirects to the sportsbook; null when the book has no link templates." },
    ev_percentage: { type: 'number', description: '(fair_probability x decimal odds - 1) x 100.' },
    ev_percent: { type: 'number', description: 'Deprecated alias of ev_percentage.' },
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    no_vig_odds: { ...nullableInteger, description: 'Fair American odds from the de-vigged sharp line.' },
    fair_probability: nullableNumber,
    market_width: { ...nullableNumber, description: "Width in cents of the reference's two-way market; null for other markets." },
    devig_method: { type: 'string', enum: ['power', 'multiplicative', 'additive', 'shin'] },
    sharp_book: { type: 'string' },
    devig_book: { type: 'string', description: 'Deprecated alias of sharp_book.' },
    sharp_books: { type: 'array', items: { type: 'string' }, description: 'Every reference book averaged, best first.' },
    selection: { type: 'string' },
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
    methods: { type: 'object', description: 'With include=methods: the values under every de-vig method.', properties: { power: methodValues, multiplicative: methodValues, additive: methodValues, shin: methodValues } },
  },
} as const;

export const arbitrageRowSchema = {
  type: 'object',
  required: ['id', 'profit_percentage', 'legs', 'detected_at'],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    line: { ...nullableNumber, description: "The market's line from the home (sides) or Over (totals) perspective." },
    profit_percentage: { type: 'number', description: 'Guaranteed profit, % of the total stake: (1 / sum(1/d) - 1) x 100.' },
    implied_probability_sum: { type: 'number' },
    bankroll: { type: 'number' },
    guaranteed_payout: { type: 'number', description: 'The smallest leg payout after rounding stakes to cents.' },
    guaranteed_profit: { type: 'number' },
    book_count: { type: 'integer' },
    legs: { type: 'array', items: legSchema },
    ...freshnessProps,
  },
} as const;

export const middleRowSchema = {
  type: 'object',
  required: ['id', 'lower_bound', 'upper_bound', 'window_size', 'hit_probability', 'legs', 'detected_at'],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    lower_bound: { type: 'number', description: 'Both legs win when lower_bound < X < upper_bound; X is the total, or the home margin for spreads.' },
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

export const lowHoldRowSchema = {
  type: 'object',
  required: ['id', 'hold_percentage', 'legs', 'detected_at'],
  properties: {
    id: { type: 'string' },
    ...eventProps,
    line: nullableNumber,
    hold_percentage: { type: 'number', description: 'Best-price hold: (1 - 1/sum(1/d)) x 100; negative is an arbitrage.' },
    implied_probability_sum: { type: 'number' },
    book_count: { type: 'integer' },
    legs: { type: 'array', items: legSchema },
    ...freshnessProps,
  },
} as const;
