import { BET_RESULTS, CLOSING_DEVIG_METHODS, MARKET_IDS, SELECTION_TYPES } from '../../schemas/index.js';
import type { BetRecord } from '../../schemas/index.js';
import { placedInPlay } from '../../pipeline/bets/index.js';
import type { BetGrade } from '../../pipeline/bets/index.js';
import { isoTime, nullableNumber, nullableString } from './common.js';
import type { RowOf } from './route-types.js';

/** Schemas and the presenter of the bet ledger (`/bets`, MCP log_bet / get_bets / get_bet_summary). */

const time = { type: 'string', format: 'date-time' } as const;
const nullablePercent = { ...nullableNumber, description: 'Percent of the stake; null until the bet is graded or without that close.' };
export const BET_STATUSES = ['pending', 'graded', 'settled'] as const;

export const betSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'sport',
    'league',
    'event_start_time',
    'market',
    'selection',
    'line',
    'sportsbook',
    'odds_american',
    'odds_decimal',
    'stake',
    'placed_at',
    'placed_in_play',
    'status',
    'clv',
    'result',
    'profit',
  ],
  properties: {
    id: { type: 'string', description: 'The bet id (`bet_…`).' },
    event_id: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    event_start_time: time,
    market: { type: 'string' },
    participant: nullableString,
    stat_category: nullableString,
    selection: { type: 'string' },
    line: { ...nullableNumber, description: "The selection's own line; null for moneylines." },
    sportsbook: { type: 'string' },
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    stake: { type: 'number' },
    placed_at: time,
    placed_in_play: {
      type: 'boolean',
      description:
        "Placed at or after the event's start: there is no close to beat, so the CLV stays empty and the bet is pending until its result.",
    },
    source_id: { ...nullableString, description: 'The odds row or opportunity the bet was copied from.' },
    devig_method: { type: 'string', description: 'De-vig method the closing fair probability is made with.' },
    sharp_book: { ...nullableString, description: "The sharp book de-vigged for the fair close; null: the closing references' average." },
    status: {
      type: 'string',
      enum: [...BET_STATUSES],
      description: 'pending until the event starts (a bet placed in play: until its result), graded at the close, settled on the result.',
    },
    clv: {
      type: 'object',
      required: [
        'closing_odds_american',
        'closing_fair_probability',
        'fair_books',
        'price_clv_percent',
        'price_probability_edge',
        'no_vig_clv_percent',
        'no_vig_probability_edge',
      ],
      description: 'Closing-line value: against the same book’s closing price, and against the fair (no-vig) close.',
      properties: {
        closing_odds_american: { ...nullableNumber, description: "The bet's book's closing price at the bet's line." },
        closing_fair_probability: nullableNumber,
        fair_books: { type: 'array', items: { type: 'string' }, description: 'Books the fair close came from.' },
        price_clv_percent: { ...nullablePercent, description: '(decimal taken / decimal closing - 1) x 100.' },
        price_probability_edge: { ...nullableNumber, description: 'Closing implied probability minus the taken one.' },
        no_vig_clv_percent: { ...nullablePercent, description: '(fair closing probability x decimal taken - 1) x 100.' },
        no_vig_probability_edge: { ...nullableNumber, description: 'Fair closing probability minus the taken implied probability.' },
      },
    },
    expected_profit: { ...nullableNumber, description: 'Stake x no-vig CLV %: what the close says the bet was worth.' },
    result: { type: ['string', 'null'], enum: [...BET_RESULTS, null], description: 'Null until settled.' },
    profit: { ...nullableNumber, description: 'Null until settled; a loss is negative.' },
  },
} as const;

const groupStatsProperties = {
  bets: { type: 'integer' },
  stake: { type: 'number', description: 'Stake of every bet.' },
  settled: { type: 'integer', description: 'Bets settled (voids included).' },
  settled_stake: { type: 'number', description: 'Stake of settled bets, voids left out: what ROI is on.' },
  profit: { type: 'number', description: 'Profit of settled bets.' },
  roi_percent: { ...nullableNumber, description: 'profit / settled_stake x 100; null before anything settled.' },
  graded: { type: 'integer', description: 'Bets with a no-vig CLV.' },
  average_clv_percent: { ...nullableNumber, description: 'Mean no-vig CLV % of the graded bets.' },
  average_price_clv_percent: { ...nullableNumber, description: 'Mean CLV % against the raw closing price, where there was one.' },
  beat_close_share: { ...nullableNumber, description: 'Share (0 to 1) of graded bets with a positive no-vig CLV.' },
  expected_profit: { type: 'number', description: 'Sum of stake x no-vig CLV %.' },
} as const;
const groupStatsRequired = Object.keys(groupStatsProperties);
const groupSchema = {
  type: 'object',
  required: ['key', ...groupStatsRequired],
  properties: { key: { type: 'string' }, ...groupStatsProperties },
} as const;
const groups = (what: string): object => ({ type: 'array', items: groupSchema, description: `By ${what}, largest stake first.` });

export const betSummarySchema = {
  type: 'object',
  required: ['total', 'by_sportsbook', 'by_sport', 'by_market', 'by_month'],
  properties: {
    total: { type: 'object', required: groupStatsRequired, properties: groupStatsProperties },
    by_sportsbook: groups('sportsbook'),
    by_sport: groups('sport'),
    by_market: groups('market'),
    by_month: { ...groups('month placed (YYYY-MM, UTC)'), description: 'By month placed (YYYY-MM, UTC), oldest first.' },
  },
} as const;

const idPattern = '^[A-Za-z0-9][A-Za-z0-9_.:|-]*$';

export const logBetBody = {
  type: 'object',
  additionalProperties: false,
  required: ['stake'],
  properties: {
    odds_row_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Copy event, market, selection, line, book and price from this odds row.',
    },
    opportunity_id: {
      type: 'string',
      minLength: 1,
      maxLength: 300,
      description: 'Copy them from this +EV opportunity (an opportunity of one bet; arbitrage and middles have several legs).',
    },
    event_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: idPattern,
      description: 'Canonical event id (without a row or opportunity id).',
    },
    market: { type: 'string', enum: [...MARKET_IDS] },
    selection: { type: 'string', enum: [...SELECTION_TYPES] },
    line: {
      type: ['number', 'null'],
      minimum: -1000,
      maximum: 1000,
      description: "The selection's own line (home -3.5, away +3.5); none for moneylines.",
    },
    participant: { type: ['string', 'null'], minLength: 1, maxLength: 200, description: 'Team or player, for team totals and props.' },
    stat_category: { type: ['string', 'null'], minLength: 1, maxLength: 100 },
    sportsbook: { type: 'string', minLength: 1, maxLength: 100, description: 'The book the bet was placed with.' },
    odds_american: { type: 'integer', minimum: -100_000, maximum: 100_000, description: 'The price taken (over a copied price).' },
    odds_decimal: {
      type: 'number',
      exclusiveMinimum: 1,
      maximum: 1001,
      description: 'The price taken, in decimal, instead of odds_american.',
    },
    stake: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000_000 },
    placed_at: {
      type: 'string',
      format: 'date-time',
      description:
        'When the bet was placed (default: now); at or after the event start the bet is taken in play (no CLV, settled on its result).',
    },
    devig_method: { type: 'string', enum: [...CLOSING_DEVIG_METHODS], default: 'power', description: 'De-vig method of the fair close.' },
    sharp_book: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 100,
      description: "Sharp book whose close is de-vigged for the fair close; default: the closing references' average.",
    },
  },
} as const;

type PresentedBet = RowOf<'/api/v1/bets'>;

const r4 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);
const r6 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e6) / 1e6);

export function presentBet(bet: BetRecord, grade: BetGrade): PresentedBet {
  return {
    id: bet.id,
    event_id: bet.eventId,
    sport: bet.sport,
    league: bet.league,
    event_start_time: isoTime(bet.eventStartTime),
    market: bet.market,
    participant: bet.participant,
    stat_category: bet.statCategory,
    selection: bet.selection,
    line: bet.line,
    sportsbook: bet.book,
    odds_american: bet.priceAmerican,
    odds_decimal: bet.priceDecimal,
    stake: bet.stake,
    placed_at: isoTime(bet.placedAt),
    placed_in_play: placedInPlay(bet),
    source_id: bet.sourceId,
    devig_method: bet.devigMethod,
    sharp_book: bet.sharpBook,
    status: grade.status,
    clv: {
      closing_odds_american: grade.closingPriceAmerican,
      closing_fair_probability: r6(grade.closingFairProbability),
      fair_books: grade.fairBooks,
      price_clv_percent: r4(grade.priceClvPercent),
      price_probability_edge: r6(grade.priceProbabilityEdge),
      no_vig_clv_percent: r4(grade.noVigClvPercent),
      no_vig_probability_edge: r6(grade.noVigProbabilityEdge),
    },
    expected_profit: r4(grade.expectedProfit),
    result: grade.result,
    profit: r4(grade.profit),
  };
}
