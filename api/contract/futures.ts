import { DEVIG_CHOICES, FUTURE_TYPES } from '../../schemas/index.js';
import type {
  FutureEvOpportunity,
  FutureFairSelection,
  FuturePrice,
  FuturesMarket,
  FuturesQuote,
  FutureType,
} from '../../schemas/index.js';
import { isoTime, nullableNumber, nullableString } from './common.js';
import type { RowOf } from './route-types.js';

/** One futures market as the list shows it: what it is and which books price it. */
export interface FutureMarketSummary {
  futureId: string;
  name: string;
  sport: string;
  league: string;
  futureType: FutureType;
  season: string;
  subjectTeamId: string | null;
  settlesAt: number;
  selectionCount: number;
  books: string[];
}

/** One book's price of one outcome, with the market's fair line for it when the caller may see it. */
export interface FutureOddsRow {
  quote: FuturesQuote;
  price: FuturePrice;
  /** The references' de-vigged probability (null: no reference prices the outcome, or not shown to the caller). */
  fair: FutureFairSelection | null;
  ev: FutureEvOpportunity | null;
  /** EV % of this price at the power fair probability; null without one. */
  evPercent: number | null;
}

/** A market compared across books: per outcome, every selected book's price, the best of them and the fair line. */
export interface FuturesComparison {
  market: FutureMarketSummary;
  references: string[];
  outcomes: {
    selection: string;
    selectionId: string;
    line: number | null;
    fair: FutureFairSelection['fair'];
    best: { book: string; priceAmerican: number; priceDecimal: number } | null;
    prices: { book: string; priceAmerican: number; priceDecimal: number; evPercent: number | null }[];
  }[];
  /** Each selected book's hold on the market, percent. */
  holds: { book: string; holdPercent: number }[];
}

const futureType = {
  type: 'string',
  enum: [...FUTURE_TYPES],
  description: 'TEAM (one outcome per team), PLAYER (awards), OVER_UNDER (season win totals), YES_NO (to make the playoffs).',
} as const;

/** A futures market (COMPAT §8 FutureMarket): the first six fields are what the reference requires. */
export const futureMarketSchema = {
  type: 'object',
  required: ['market_id', 'display_name', 'sport', 'league', 'future_type', 'selection_count'],
  properties: {
    market_id: { type: 'string', description: 'The future id `/futures/odds` takes as `future_id`, e.g. nba-2026-27-championship.' },
    display_name: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    future_type: futureType,
    selection_count: { type: 'integer', description: 'Distinct outcomes over the books shown.' },
    books_available: { type: 'array', items: { type: 'string' }, description: 'Books pricing the market, alphabetical.' },
    season: { type: 'string', description: '2026-27, or 2026 for a season within one year.' },
    team: { ...nullableString, description: "Team id of a team's own market (season wins, playoffs)." },
    event_start_time: { type: 'string', format: 'date-time', description: 'When the market settles (the end of the season).' },
  },
} as const;

export function presentFutureMarket(m: FutureMarketSummary): RowOf<'/api/v1/futures'> {
  return {
    market_id: m.futureId,
    display_name: m.name,
    sport: m.sport,
    league: m.league,
    future_type: m.futureType,
    selection_count: m.selectionCount,
    books_available: [...m.books].sort(),
    season: m.season,
    team: m.subjectTeamId,
    event_start_time: isoTime(m.settlesAt),
  };
}

/** One book's price of one outcome (COMPAT §8 FutureOdds); fair line fields for keys with the +EV feature. */
export const futureOddsSchema = {
  type: 'object',
  required: [
    'selection',
    'sportsbook',
    'odds_american',
    'odds_decimal',
    'probability',
    'future_type',
    'future_market_id',
    'future_market_name',
    'sport',
    'league',
    'event_start_time',
    'timestamp',
  ],
  properties: {
    id: { type: 'string', description: 'Stable per market, book, outcome and line.' },
    selection: { type: 'string', description: 'Team name, player name, Over/Under or Yes/No.' },
    selection_id: { type: 'string', description: 'Team id, player slug, over/under or yes/no.' },
    sportsbook: { type: 'string' },
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    probability: { type: 'number', description: 'Implied probability of the price (vig included).' },
    line: { ...nullableNumber, description: 'Season win totals: the threshold; null otherwise.' },
    future_type: futureType,
    future_market_id: { type: 'string' },
    future_market_name: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    event_start_time: { type: 'string', format: 'date-time', description: 'When the market settles.' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the book set or confirmed its board.' },
    fair_probability: {
      ...nullableNumber,
      description:
        "The sharp references' fair probability (power de-vig across every outcome, averaged); Pro tier and up, null otherwise or when no reference prices the outcome.",
    },
    ev_percent: { ...nullableNumber, description: 'EV % of this price at that fair probability; Pro tier and up.' },
    is_best: { type: 'boolean', description: 'The longest price of this outcome over every book.' },
  },
} as const;

export function presentFutureOdds(r: FutureOddsRow, withFair: boolean): RowOf<'/api/v1/futures/odds'> {
  const fair = withFair ? (r.fair?.fair?.power ?? null) : null;
  return {
    id: `${r.quote.futureId}|${r.quote.book}|${r.price.selectionId}|${r.price.line ?? ''}`,
    selection: r.price.selection,
    selection_id: r.price.selectionId,
    sportsbook: r.quote.book,
    odds_american: r.price.priceAmerican,
    odds_decimal: r.price.priceDecimal,
    probability: round6(r.price.probability),
    line: r.price.line,
    future_type: r.quote.futureType,
    future_market_id: r.quote.futureId,
    future_market_name: r.quote.name,
    sport: r.quote.sport,
    league: r.quote.league,
    event_start_time: isoTime(r.quote.settlesAt),
    timestamp: isoTime(r.quote.ts),
    fair_probability: fair,
    ev_percent: withFair ? r.evPercent : null,
    is_best: r.fair !== null && r.fair.bestPriceDecimal === r.price.priceDecimal,
  };
}

const methodValues = {
  type: 'object',
  required: ['fair_probability', 'no_vig_odds', 'ev_percent', 'kelly_percent'],
  properties: {
    fair_probability: { type: 'number' },
    no_vig_odds: { type: 'number' },
    ev_percent: { type: 'number' },
    kelly_percent: { type: 'number' },
  },
} as const;

/** A futures +EV price: the book's price against the references' de-vigged probability of that outcome. */
export const futureEvSchema = {
  type: 'object',
  required: [
    'id',
    'future_market_id',
    'future_market_name',
    'sport',
    'league',
    'future_type',
    'sportsbook',
    'selection',
    'odds_american',
    'odds_decimal',
    'fair_probability',
    'ev_percent',
    'devig_methods',
    'sharp_books',
    'detected_at',
  ],
  properties: {
    id: { type: 'string', pattern: '^[a-f0-9]{16}$' },
    future_market_id: { type: 'string' },
    future_market_name: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    future_type: futureType,
    sportsbook: { type: 'string' },
    selection: { type: 'string' },
    selection_id: { type: 'string' },
    line: nullableNumber,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    fair_probability: { type: 'number', description: 'Power de-vig (the headline); every method is in devig_methods.' },
    no_vig_odds: { type: 'number' },
    ev_percent: { type: 'number', description: 'EV % under power de-vig; an entry is listed when EV > 0 under at least one method.' },
    kelly_percent: { type: 'number' },
    devig_methods: {
      type: 'object',
      required: [...DEVIG_CHOICES],
      properties: Object.fromEntries(DEVIG_CHOICES.map((m) => [m, methodValues])),
    },
    sharp_books: { type: 'array', items: { type: 'string' }, description: 'Reference books averaged, best first (never the book itself).' },
    reference_hold_percent: { type: 'number', description: "Hold of the main reference's board." },
    book_count: { type: 'integer' },
    event_start_time: { type: 'string', format: 'date-time', description: 'When the market settles.' },
    odds_timestamp: { type: 'string', format: 'date-time' },
    detected_at: { type: 'string', format: 'date-time' },
    last_seen_at: { type: 'string', format: 'date-time' },
  },
} as const;

type FutureEvRow = RowOf<'/api/v1/futures/ev'>;
type MethodRow = FutureEvRow['devig_methods']['power'];

function methodOut(v: FutureEvOpportunity['methods']['power']): MethodRow {
  return { fair_probability: v.fairProbability, no_vig_odds: v.noVigOdds, ev_percent: v.evPercent, kelly_percent: v.kellyPercent };
}

export function presentFutureEv(o: FutureEvOpportunity, m: FuturesMarket): FutureEvRow {
  const power = o.methods.power;
  return {
    id: o.id,
    future_market_id: o.futureId,
    future_market_name: m.name,
    sport: m.sport,
    league: m.league,
    future_type: m.futureType,
    sportsbook: o.book,
    selection: o.selection,
    selection_id: o.selectionId,
    line: o.line,
    odds_american: o.priceAmerican,
    odds_decimal: o.priceDecimal,
    fair_probability: power.fairProbability,
    no_vig_odds: power.noVigOdds,
    ev_percent: o.evPercent,
    kelly_percent: power.kellyPercent,
    // Spelled out, so that a method the schema gains (DEVIG_CHOICES) and this misses fails to compile.
    devig_methods: {
      power: methodOut(o.methods.power),
      multiplicative: methodOut(o.methods.multiplicative),
      additive: methodOut(o.methods.additive),
      shin: methodOut(o.methods.shin),
      odds_ratio: methodOut(o.methods.odds_ratio),
      logit: methodOut(o.methods.logit),
      worst_case: methodOut(o.methods.worst_case),
    },
    sharp_books: o.sharpBooks,
    reference_hold_percent: o.referenceHoldPercent,
    book_count: o.bookCount,
    event_start_time: isoTime(m.settlesAt),
    odds_timestamp: isoTime(o.oddsTs),
    detected_at: isoTime(o.detectedAt),
    last_seen_at: isoTime(o.lastSeenAt),
  };
}

const comparedPrice = {
  type: 'object',
  required: ['sportsbook', 'odds_american', 'odds_decimal'],
  properties: { sportsbook: { type: 'string' }, odds_american: { type: 'number' }, odds_decimal: { type: 'number' } },
} as const;

/** `compare_futures_lines` (MCP): a market across books with the best price and fair line per outcome. */
export const futuresComparisonSchema = {
  type: 'object',
  required: ['market', 'reference_books', 'holds', 'outcomes'],
  properties: {
    market: futureMarketSchema,
    reference_books: { type: 'array', items: { type: 'string' } },
    holds: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sportsbook', 'hold_percent'],
        properties: { sportsbook: { type: 'string' }, hold_percent: { type: 'number' } },
      },
    },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['selection', 'selection_id', 'line', 'fair_probability', 'fair_probability_by_method', 'best', 'prices'],
        properties: {
          selection: { type: 'string' },
          selection_id: { type: 'string' },
          line: nullableNumber,
          fair_probability: {
            ...nullableNumber,
            description: "The references' power de-vig probability; null when no reference prices it.",
          },
          fair_probability_by_method: {
            type: ['object', 'null'],
            description: 'The fair probability by each de-vig method (worst_case is a bound, not a method here).',
            additionalProperties: { type: 'number' },
          },
          best: { anyOf: [comparedPrice, { type: 'null' }] },
          prices: {
            type: 'array',
            items: {
              ...comparedPrice,
              required: [...comparedPrice.required, 'ev_percent'],
              properties: { ...comparedPrice.properties, ev_percent: nullableNumber },
            },
          },
        },
      },
    },
  },
} as const;

interface ComparedPrice {
  sportsbook: string;
  odds_american: number;
  odds_decimal: number;
}

/**
 * The answer `futuresComparisonSchema` describes. MCP tools have no generated types; the MCP
 * client in the e2e suite validates each answer against the tool's output schema. (A type alias,
 * not an interface, so it is a `ToolOutcome`'s structured record.)
 */
export type FuturesComparisonOut = {
  market: ReturnType<typeof presentFutureMarket>;
  reference_books: string[];
  holds: { sportsbook: string; hold_percent: number }[];
  outcomes: {
    selection: string;
    selection_id: string;
    line: number | null;
    fair_probability: number | null;
    fair_probability_by_method: FuturesComparison['outcomes'][number]['fair'];
    best: ComparedPrice | null;
    prices: (ComparedPrice & { ev_percent: number | null })[];
  }[];
};

export function presentFuturesComparison(c: FuturesComparison): FuturesComparisonOut {
  return {
    market: presentFutureMarket(c.market),
    reference_books: c.references,
    holds: c.holds.map((h) => ({ sportsbook: h.book, hold_percent: h.holdPercent })),
    outcomes: c.outcomes.map((o) => ({
      selection: o.selection,
      selection_id: o.selectionId,
      line: o.line,
      fair_probability: o.fair?.power ?? null,
      fair_probability_by_method: o.fair,
      best: o.best && { sportsbook: o.best.book, odds_american: o.best.priceAmerican, odds_decimal: o.best.priceDecimal },
      prices: o.prices.map((p) => ({
        sportsbook: p.book,
        odds_american: p.priceAmerican,
        odds_decimal: p.priceDecimal,
        ev_percent: p.evPercent,
      })),
    })),
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
