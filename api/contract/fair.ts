import { RECIPE_DEVIG_METHODS, SELECTION_TYPES } from '../../schemas/index.js';
import { FAIR_WEIGHTINGS } from '../../pipeline/fair-line/index.js';
import type { FairBand, FairLine, FairRecipe, Range } from '../../pipeline/fair-line/index.js';
import { probabilityToAmerican } from '../../pipeline/odds-math/index.js';
import { round } from '../../pipeline/opportunities/index.js';
import { nullableNumber, nullableString } from './common.js';

/** The fair-line answer (`GET /fair`, MCP `get_fair_line`): schemas and the presenter. */

const probability = { type: 'number', minimum: 0, maximum: 1 } as const;
const rangeSchema = {
  type: 'object',
  required: ['low', 'high'],
  properties: { low: probability, high: probability },
} as const;

export const FAIR_STATUSES = ['two_sided', 'one_sided_assumed_margin', 'unavailable'] as const;
export const MARGIN_SOURCES = ['market', 'caller', 'borrowed', 'default'] as const;

export const fairBandSchema = {
  type: ['object', 'null'],
  description:
    'How sure the fair probability is: the lowest and highest over the de-vig methods (`over_methods`, two-sided only) and over the reference books each alone (`over_sportsbooks`); `low`/`high` span both. Null when unavailable.',
  required: ['low', 'high', 'over_methods', 'over_sportsbooks'],
  properties: {
    low: probability,
    high: probability,
    over_methods: { ...rangeSchema, type: ['object', 'null'] },
    over_sportsbooks: rangeSchema,
  },
} as const;

export const fairRecipeSchema = {
  type: 'object',
  description: 'The recipe that priced the answer, as applied (defaults filled in).',
  required: ['sportsbooks', 'weighting', 'devig_method', 'assumed_margin'],
  properties: {
    sportsbooks: { type: 'array', items: { type: 'string' }, description: 'Reference books, in the order asked.' },
    weighting: { type: 'string', enum: [...FAIR_WEIGHTINGS] },
    devig_method: { type: 'string', enum: [...RECIPE_DEVIG_METHODS] },
    assumed_margin: { ...nullableNumber, description: "The caller's margin for one-sided prices, percent; null: borrowed or the default." },
  },
} as const;

/** What a +EV row adds when a recipe re-priced it (`/opportunities/ev` with reference_books, weighting or assumed_margin). */
export const evRecipeProps = {
  recipe: { ...fairRecipeSchema, description: 'The recipe that re-priced this row (present only when one was asked for).' },
  fair_status: { type: 'string', enum: [...FAIR_STATUSES], description: 'How the recipe priced this selection (see /fair).' },
  recipe_fair_probability: {
    ...nullableNumber,
    description: "The recipe's fair probability of this selection, 6 places; null when unavailable.",
  },
  recipe_ev: { ...nullableNumber, description: "EV % of this price against the recipe's fair probability; null when unavailable." },
  fair_band: fairBandSchema,
} as const;

const fairOutcomeSchema = {
  type: 'object',
  required: ['selection', 'fair_status', 'fair_probability', 'fair_price_american', 'fair_price_decimal', 'band', 'assumed_margin'],
  properties: {
    selection: { type: 'string', enum: [...SELECTION_TYPES] },
    fair_status: {
      type: 'string',
      enum: [...FAIR_STATUSES],
      description:
        '`two_sided`: de-vigged from reference books that price every outcome; `one_sided_assumed_margin`: no reference book prices the whole market, so a posted side is discounted by the stated margin; `unavailable`: no reference book prices it.',
    },
    fair_probability: { ...nullableNumber, description: 'Fair probability, 6 places; null when unavailable.' },
    fair_price_american: nullableNumber,
    fair_price_decimal: { ...nullableNumber, description: '1 / fair_probability, 4 places.' },
    band: fairBandSchema,
    assumed_margin: { ...nullableNumber, description: 'One-sided only: the margin taken off the posted price, percent.' },
  },
} as const;

const fairSportsbookSchema = {
  type: 'object',
  required: ['sportsbook', 'sides', 'weight', 'margin', 'margin_source', 'age_seconds'],
  properties: {
    sportsbook: { type: 'string' },
    sides: { type: 'string', enum: ['two_sided', 'one_sided', 'none'], description: 'What it prices at this line.' },
    weight: { type: 'number', description: 'Its share of the fair probability (0 when not used); the shares sum to 1.' },
    margin: { ...nullableNumber, description: 'Its overround here (two-sided) or the margin assumed for it (one-sided), percent.' },
    margin_source: { type: ['string', 'null'], enum: [...MARGIN_SOURCES, null] },
    age_seconds: { ...nullableNumber, description: 'Age of its oldest price here.' },
  },
} as const;

/** One market's fair line: what `/fair` answers and each entry of an event's fair lines. */
const fairMarketProps = {
  market: { type: 'string' },
  participant: nullableString,
  stat_category: nullableString,
  line: { ...nullableNumber, description: "The market's line: home's handicap for sides, the threshold for totals and props." },
  outcomes: { type: 'array', items: fairOutcomeSchema },
  sportsbooks: { type: 'array', items: fairSportsbookSchema },
} as const;

export const fairLineSchema = {
  type: 'object',
  required: ['event_id', 'market', 'participant', 'stat_category', 'line', 'recipe', 'outcomes', 'sportsbooks'],
  properties: { event_id: { type: 'string' }, recipe: fairRecipeSchema, ...fairMarketProps },
} as const;

export const eventFairLinesSchema = {
  type: 'object',
  required: ['event_id', 'recipe', 'markets'],
  properties: {
    event_id: { type: 'string' },
    recipe: fairRecipeSchema,
    markets: {
      type: 'array',
      description: 'Every market asked for that the event has a price in, each at its main line, in board order.',
      items: {
        type: 'object',
        required: ['market', 'participant', 'stat_category', 'line', 'outcomes', 'sportsbooks'],
        properties: fairMarketProps,
      },
    },
  },
} as const;

// Published values: probabilities to 6 places, percentages to 4, as on every opportunity.
const r = round;
const percent = (x: number | null): number | null => (x === null ? null : r(x * 100, 4));
const rangeOf = (x: Range): { low: number; high: number } => ({ low: r(x.low, 6), high: r(x.high, 6) });

export function presentBand(band: FairBand | null) {
  if (!band) return null;
  return {
    low: r(band.low, 6),
    high: r(band.high, 6),
    over_methods: band.methods ? rangeOf(band.methods) : null,
    over_sportsbooks: rangeOf(band.books),
  };
}

export function presentRecipe(recipe: FairRecipe) {
  return {
    sportsbooks: [...recipe.books],
    weighting: recipe.weighting,
    devig_method: recipe.method,
    assumed_margin: percent(recipe.assumedMargin),
  };
}

export function presentFairLine(fair: FairLine) {
  return {
    outcomes: fair.outcomes.map((o) => ({
      selection: o.selection,
      fair_status: o.status,
      fair_probability: o.probability === null ? null : r(o.probability, 6),
      fair_price_american: o.probability === null || o.probability >= 1 ? null : probabilityToAmerican(o.probability),
      fair_price_decimal: o.probability === null ? null : r(1 / o.probability, 4),
      band: presentBand(o.band),
      assumed_margin: percent(o.assumedMargin),
    })),
    sportsbooks: fair.books.map((b) => ({
      sportsbook: b.book,
      sides: b.sides,
      weight: r(b.weight, 6),
      margin: percent(b.margin),
      margin_source: b.marginSource,
      age_seconds: b.ageMs === null ? null : r(b.ageMs / 1000, 3),
    })),
  };
}

/** The recipe parameters as JSON Schema, for every route and tool that takes them. */
export const recipeParams = {
  reference_books: {
    type: 'string',
    maxLength: 2000,
    description:
      "Comma-separated sportsbook ids whose prices make the fair line; default: the configured references (the catalog's sharp books).",
  },
  weighting: {
    type: 'string',
    enum: [...FAIR_WEIGHTINGS],
    description:
      'How the reference books are weighed: equal (default), or freshness_width (a price a minute old counts half; a book with half the margin counts twice).',
  },
  assumed_margin: {
    type: 'number',
    minimum: 0,
    maximum: 50,
    description:
      "Margin (percent) taken off a one-sided price; default: the book's own margin on the market's other lines, else the operator's ONE_SIDED_MARGIN_PERCENT (5 unless set).",
  },
} as const;
