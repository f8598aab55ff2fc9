import type { GradeResult } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { nullableInteger, nullableNumber, nullableString } from './common.js';
import { teamName } from './refs.js';
import type { ReplyOf, RowOf } from './route-types.js';

/** Schemas and presenters of closing lines, their history, CLV groups and +EV history rows. */

/** The rows the closing-line, CLV and +EV history reads return (`api/queries/closing-history.ts`): what these presenters take. */
export interface ClosingLineRecord {
  event_id: string;
  sport: string;
  league: string;
  home_team_id: string;
  away_team_id: string;
  event_start_time: string;
  sportsbook: string;
  market: string;
  participant: string | null;
  stat_category: string | null;
  selection: string;
  line: number | null;
  odds_american: number;
  odds_decimal: number;
  implied_probability: number;
  book_no_vig_probability: number | null;
  no_vig_power: number | null;
  no_vig_multiplicative: number | null;
  no_vig_additive: number | null;
  no_vig_shin: number | null;
  reference_books: string[];
  odds_time: string;
  captured_at: string;
  [key: string]: unknown;
}

export interface ClvGroupRecord {
  group_key: string;
  total_predictions: number;
  total_graded: number;
  wins: number;
  losses: number;
  pushes: number;
  clv_count: number;
  avg_clv_percent: number | null;
  avg_ev_percent: number | null;
  beat_close: number;
  [key: string]: unknown;
}

export interface EvHistoryRecord {
  id: string;
  event_id: string;
  sport: string;
  league: string;
  market: string;
  detected_at: string;
  last_seen_at: string;
  expired_at: string | null;
  expire_reason: string | null;
  start_time: string;
  is_live: boolean;
  value: number;
  peak_value: number;
  record: string;
  graded: number;
  closing_devig_book: string | null;
  closing_no_vig_probability: number | null;
  closing_odds_american: number | null;
  clv_percent: number | null;
  /** Only the closing processor writes the column, with a `GradeResult`. */
  result: GradeResult | null;
  graded_at: string | null;
  [key: string]: unknown;
}

type ClosingSnapshot = ReplyOf<'/api/v1/odds/closing'>['data'];
type ClosingOdd = ClosingSnapshot['books'][string][number];
/** Every field but `line` is always there (historical lines rely on it). */
type PresentedClosingOdd = Required<Omit<ClosingOdd, 'line'>> & Pick<ClosingOdd, 'line'>;
type HistoricalEvent = ReplyOf<'/api/v1/historical/odds/closing'>['data']['events'][number];
type HistoricalLine = HistoricalEvent['books'][number]['lines'][number];
type ClvGroup = ReplyOf<'/api/v1/historical/clv'>['data']['groups'][number];

const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** ClickHouse `YYYY-MM-DD hh:mm:ss.mmm` (UTC) as RFC 3339; null for a null or empty value (a Nullable column). */
export function chIso(value: string | null): string | null {
  if (value === null || value === '') return null;
  return chTime(value);
}

/** A time of a column that is not Nullable (ClickHouse always formats it, so never empty) as RFC 3339. */
export function chTime(value: string): string {
  return `${value.replace(' ', 'T')}${value.includes('.') ? '' : '.000'}Z`;
}

const fairSchema = {
  type: 'object',
  description:
    "Fair probability of this selection from the sharp references' closes, by de-vig method; null when no reference closed this line.",
  properties: { power: nullableNumber, multiplicative: nullableNumber, additive: nullableNumber, shin: nullableNumber },
} as const;

export const closingOddSchema = {
  type: 'object',
  required: ['sportsbook', 'market_type', 'selection', 'odds_american', 'odds_decimal'],
  properties: {
    sportsbook: { type: 'string' },
    market_type: { type: 'string' },
    selection: { type: 'string', description: 'Team name for sides, Over / Under / Draw / Yes / No otherwise.' },
    selection_type: { type: 'string' },
    line: { type: 'number', description: 'Omitted on markets without a line.' },
    player_name: nullableString,
    stat_category: nullableString,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    implied_probability: { type: 'number' },
    no_vig_probability: {
      ...nullableNumber,
      description: "Power de-vig of this book's own closing market; null when it closed one side only.",
    },
    fair_probability: fairSchema,
    reference_books: { type: 'array', items: { type: 'string' } },
    timestamp: { ...time, description: 'When the book last set or confirmed this price before the start.' },
  },
} as const;

function selectionLabel(catalog: Catalog, r: ClosingLineRecord): string {
  switch (r.selection) {
    case 'home':
      return teamName(catalog, r.home_team_id);
    case 'away':
      return teamName(catalog, r.away_team_id);
    default:
      return r.selection.charAt(0).toUpperCase() + r.selection.slice(1);
  }
}

export function presentClosingOdd(catalog: Catalog, r: ClosingLineRecord): PresentedClosingOdd {
  return {
    sportsbook: r.sportsbook,
    market_type: r.market,
    selection: selectionLabel(catalog, r),
    selection_type: r.selection,
    ...(r.line === null ? {} : { line: r.line }),
    player_name: r.market === 'player_prop' ? r.participant : null,
    stat_category: r.stat_category,
    odds_american: r.odds_american,
    odds_decimal: r.odds_decimal,
    implied_probability: r.implied_probability,
    no_vig_probability: r.book_no_vig_probability,
    fair_probability: { power: r.no_vig_power, multiplicative: r.no_vig_multiplicative, additive: r.no_vig_additive, shin: r.no_vig_shin },
    reference_books: r.reference_books,
    timestamp: chTime(r.odds_time),
  };
}

export const closingSnapshotSchema = {
  type: 'object',
  required: ['event_id', 'books'],
  properties: {
    event_id: { type: 'string' },
    sport: nullableString,
    league: nullableString,
    home_team: nullableString,
    away_team: nullableString,
    event_start_time: nullableTime,
    captured_at: { ...nullableTime, description: 'First capture; null while nothing is captured.' },
    books: {
      type: 'object',
      description: 'Sportsbook id -> its closing lines; {} until the event has started.',
      additionalProperties: { type: 'array', items: closingOddSchema },
    },
  },
} as const;

/** Closing lines grouped by book, with the event's fields from the first one. */
export function presentClosingSnapshot(
  catalog: Catalog,
  eventId: string,
  rows: readonly ClosingLineRecord[],
  fallback: { sport: string; league: string; home: string; away: string; start: number } | null,
): ClosingSnapshot {
  const books: Record<string, ClosingOdd[]> = Object.create(null) as Record<string, ClosingOdd[]>;
  let captured: string | null = null;
  for (const r of rows) {
    (books[r.sportsbook] ??= []).push(presentClosingOdd(catalog, r));
    const at = chIso(r.captured_at);
    if (at !== null && (captured === null || at < captured)) captured = at;
  }
  const first = rows[0];
  return {
    event_id: eventId,
    sport: first?.sport ?? fallback?.sport ?? null,
    league: first?.league ?? fallback?.league ?? null,
    home_team: first ? teamName(catalog, first.home_team_id) : (fallback?.home ?? null),
    away_team: first ? teamName(catalog, first.away_team_id) : (fallback?.away ?? null),
    event_start_time: first ? chIso(first.event_start_time) : fallback ? new Date(fallback.start).toISOString() : null,
    captured_at: captured,
    books,
  };
}

export const historicalLineSchema = {
  type: 'object',
  required: [
    'market_type',
    'selection',
    'selection_type',
    'line',
    'odds_american',
    'odds_decimal',
    'implied_probability',
    'no_vig_probability',
    'timestamp',
  ],
  properties: {
    market_type: { type: 'string' },
    selection: { type: 'string' },
    selection_type: { type: 'string' },
    line: nullableNumber,
    player_name: nullableString,
    stat_category: nullableString,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    implied_probability: { type: 'number' },
    no_vig_probability: {
      ...nullableNumber,
      description: "Power de-vig of the book's own closing market; null for single-selection markets.",
    },
    fair_probability: fairSchema,
    timestamp: time,
  },
} as const;

export const historicalEventSchema = {
  type: 'object',
  required: ['event_id', 'sport', 'league', 'home_team', 'away_team', 'event_start_time', 'first_captured_at', 'books'],
  properties: {
    event_id: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    event_start_time: time,
    first_captured_at: time,
    books: {
      type: 'array',
      items: {
        type: 'object',
        required: ['book', 'captured_at', 'lines'],
        properties: { book: { type: 'string' }, captured_at: time, lines: { type: 'array', items: historicalLineSchema } },
      },
    },
  },
} as const;

export function presentHistoricalDay(
  catalog: Catalog,
  rows: readonly ClosingLineRecord[],
): { events: HistoricalEvent[]; totalLines: number } {
  const events = new Map<
    string,
    { head: ClosingLineRecord; first: string; books: Map<string, { captured: string; lines: HistoricalLine[] }> }
  >();
  for (const r of rows) {
    let e = events.get(r.event_id);
    const at = chIso(r.captured_at) ?? '';
    if (!e) events.set(r.event_id, (e = { head: r, first: at, books: new Map() }));
    if (at < e.first) e.first = at;
    let b = e.books.get(r.sportsbook);
    if (!b) e.books.set(r.sportsbook, (b = { captured: at, lines: [] }));
    if (at < b.captured) b.captured = at;
    const odd = presentClosingOdd(catalog, r);
    // Historical lines always carry `line` (null without one); the serializer keeps only the schema's fields.
    b.lines.push({ ...odd, line: r.line });
  }
  return {
    events: [...events.values()].map((e): HistoricalEvent => ({
      event_id: e.head.event_id,
      sport: e.head.sport,
      league: e.head.league,
      home_team: teamName(catalog, e.head.home_team_id),
      away_team: teamName(catalog, e.head.away_team_id),
      event_start_time: chTime(e.head.event_start_time),
      first_captured_at: e.first,
      books: [...e.books.entries()].map(([book, b]): HistoricalEvent['books'][number] => ({
        book,
        captured_at: b.captured,
        lines: b.lines,
      })),
    })),
    totalLines: rows.length,
  };
}

export const clvGroupSchema = {
  type: 'object',
  required: ['group_key', 'total_graded', 'wins', 'losses', 'win_rate', 'avg_clv_percent', 'avg_ev_percent', 'total_predictions'],
  properties: {
    group_key: { type: 'string' },
    total_predictions: { type: 'integer', description: '+EV opportunities detected before their event started.' },
    total_graded: { type: 'integer', description: 'Of those, settled win, loss or push by a final score.' },
    wins: { type: 'integer' },
    losses: { type: 'integer' },
    pushes: { type: 'integer' },
    win_rate: { ...nullableNumber, description: 'wins / (wins + losses); null before any is settled.' },
    clv_count: { type: 'integer', description: 'Opportunities a sharp reference closed the line of (CLV known).' },
    avg_clv_percent: nullableNumber,
    beat_close_rate: { ...nullableNumber, description: 'Share of clv_count with CLV above 0.' },
    avg_ev_percent: nullableNumber,
  },
} as const;

const r4 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);

export function presentClvGroup(g: ClvGroupRecord): ClvGroup {
  const decided = g.wins + g.losses;
  return {
    group_key: g.group_key,
    total_predictions: g.total_predictions,
    total_graded: g.total_graded,
    wins: g.wins,
    losses: g.losses,
    pushes: g.pushes,
    win_rate: decided > 0 ? r4(g.wins / decided) : null,
    clv_count: g.clv_count,
    avg_clv_percent: r4(g.avg_clv_percent),
    beat_close_rate: g.clv_count > 0 ? r4(g.beat_close / g.clv_count) : null,
    avg_ev_percent: r4(g.avg_ev_percent),
  };
}

export const evHistoryRowSchema = {
  type: 'object',
  required: [
    'id',
    'game_id',
    'sport',
    'league',
    'market',
    'selection',
    'sportsbook',
    'odds_american',
    'odds_decimal',
    'ev_percentage',
    'detected_at',
    'clv',
  ],
  properties: {
    id: { type: 'string' },
    game_id: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    market: { type: 'string' },
    selection: { type: 'string' },
    line: nullableNumber,
    player_name: nullableString,
    stat_category: nullableString,
    sportsbook: { type: 'string' },
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    ev_percentage: { type: 'number', description: 'EV % (power de-vig) of the last version.' },
    peak_ev_percentage: { type: 'number' },
    fair_probability: { type: 'number' },
    sharp_book: { type: 'string' },
    is_live: { type: 'boolean' },
    start_time: time,
    detected_at: time,
    last_seen_at: time,
    expired_at: nullableTime,
    expire_reason: { ...nullableString, description: 'condition, leg_removed or event_closed; null while active.' },
    clv: {
      type: ['object', 'null'],
      description: 'Closing-line value; null unless detected before the start and the event has started.',
      properties: {
        closing_devig_book: nullableString,
        closing_no_vig_probability: nullableNumber,
        closing_odds_american: nullableInteger,
        clv_percent: nullableNumber,
        result: { type: ['string', 'null'], enum: ['win', 'loss', 'push', null] },
        graded_at: nullableTime,
      },
    },
  },
} as const;

interface EvRecordJson {
  selection: string;
  line: number | null;
  participant: string | null;
  statCategory: string | null;
  book: string;
  priceAmerican: number;
  priceDecimal: number;
  sharpBook: string;
  methods: { power: { fairProbability: number; evPercent: number } };
}

export function presentEvHistory(r: EvHistoryRecord): RowOf<'/api/v1/opportunities/ev/history'> {
  const o = JSON.parse(r.record) as EvRecordJson;
  return {
    id: r.id,
    game_id: r.event_id,
    sport: r.sport,
    league: r.league,
    market: r.market,
    selection: o.selection,
    line: o.line,
    player_name: r.market === 'player_prop' ? o.participant : null,
    stat_category: o.statCategory,
    sportsbook: o.book,
    odds_american: o.priceAmerican,
    odds_decimal: o.priceDecimal,
    ev_percentage: o.methods.power.evPercent,
    peak_ev_percentage: r.peak_value,
    fair_probability: o.methods.power.fairProbability,
    sharp_book: o.sharpBook,
    is_live: Boolean(r.is_live),
    start_time: chTime(r.start_time),
    detected_at: chTime(r.detected_at),
    last_seen_at: chTime(r.last_seen_at),
    expired_at: chIso(r.expired_at),
    expire_reason: r.expire_reason,
    clv:
      Number(r.graded) === 1 || r.graded === (true as unknown)
        ? {
            closing_devig_book: r.closing_devig_book,
            closing_no_vig_probability: r.closing_no_vig_probability,
            closing_odds_american: r.closing_odds_american,
            clv_percent: r.clv_percent,
            result: r.result,
            graded_at: chIso(r.graded_at),
          }
        : null,
  };
}
