import { csvParam, pagingParams } from './common.js';
import { addSportsbookParam, commissionParam, sharedFilterParams } from './filters.js';

/** Query parameters every opportunity endpoint shares, and the `meta` their answers declare (parsing: api/queries/opportunity-filter.ts). */

export const OPPORTUNITY_LIMIT = { default: 50, max: 200, maxOffset: 5000 } as const;

export const DATE_RANGES = ['today', 'tomorrow', 'week'] as const;
export type DateRange = (typeof DATE_RANGES)[number];

export const commonOpportunityParams = {
  sport: sharedFilterParams.sport,
  league: sharedFilterParams.league,
  sportsbook: csvParam(
    'Sportsbook ids, comma-separated; default: every book your tier sees. An opportunity shows only when every leg is at one of them.',
  ),
  market: sharedFilterParams.market,
  add_sportsbook: addSportsbookParam,
  event: sharedFilterParams.event,
  event_id: sharedFilterParams.event_id,
  live: sharedFilterParams.live,
  team: sharedFilterParams.team,
  min_odds: { ...sharedFilterParams.min_odds, description: 'Lowest American price of every leg.' },
  max_odds: { ...sharedFilterParams.max_odds, description: 'Highest American price of every leg.' },
  max_odds_age: {
    type: 'number',
    minimum: 0,
    maximum: 86_400,
    description: 'Seconds; leaves out opportunities whose oldest underlying price is older.',
  },
  date_range: {
    type: 'string',
    enum: [...DATE_RANGES],
    description: 'Start date in US Eastern time: today, tomorrow, or week (today and the 6 days after).',
  },
  include: {
    type: 'string',
    enum: ['suspicious'],
    description:
      'suspicious: also the phantom opportunities the default list leaves out (warnings LIVE_HIGH_PROFIT_SUSPICIOUS, VERY_STALE_ODDS).',
  },
  commission: commissionParam,
  ...pagingParams(OPPORTUNITY_LIMIT.default, OPPORTUNITY_LIMIT.max, OPPORTUNITY_LIMIT.maxOffset),
} as const;

/** A `sort` parameter: each key may be prefixed with `-` for descending. */
export function sortParam(keys: readonly string[], description: string, fallback: string): object {
  return { type: 'string', enum: keys.flatMap((k) => [k, `-${k}`]), default: fallback, description };
}

/* `meta` of the opportunity lists, declared so that serialization and the OpenAPI document show every key. */

const counts = { type: 'object', additionalProperties: { type: 'integer' } } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const sharedFilterEcho = {
  sport: nullableStr,
  league: nullableStr,
  sportsbook: nullableStr,
  market: nullableStr,
  live: { type: ['boolean', 'null'] },
  sort: { type: 'string' },
} as const;

export function opportunityMeta(
  summary: Record<string, object>,
  filters: Record<string, object>,
  extra: Record<string, object> = {},
): object {
  return {
    type: 'object',
    properties: {
      source: { type: 'string', description: 'live: the in-memory board kept by the opportunities topic.' },
      last_update: { type: ['string', 'null'], format: 'date-time', description: 'When the board last changed.' },
      summary: {
        type: 'object',
        description: 'Over every match, not just this page.',
        properties: { count: { type: 'integer' }, by_sport: counts, by_market: counts, ...summary },
      },
      filters: { type: 'object', description: 'The filters applied; null when unused.', properties: { ...sharedFilterEcho, ...filters } },
      ...extra,
    },
  };
}

export const SUMMARY_COUNTS = counts;

/**
 * +EV filters on the values the row shows (the reference's names; parsing: api/queries/ev-row-filter.ts).
 * `/opportunities/ev`, the SSE stream and the WebSocket subscription take them alike.
 */
export const evRowFilterParams = {
  min_kelly: {
    type: 'number',
    minimum: -1000,
    maximum: 100,
    description: 'Lowest kelly_percent (full Kelly, % of bankroll) under the chosen de-vig method.',
  },
  max_kelly: { type: 'number', minimum: -1000, maximum: 100, description: 'Highest kelly_percent.' },
  min_confidence: { type: 'number', minimum: 0, maximum: 100, description: 'Lowest confidence_score (0-100).' },
  max_confidence: { type: 'number', minimum: 0, maximum: 100, description: 'Highest confidence_score (0-100).' },
  is_player_prop: { type: 'boolean', description: 'true: player props only; false: no player props; omitted: both.' },
  is_alternate_line: {
    type: 'boolean',
    description:
      "true: only lines that are not their market's main line (the one most books quote); false: main lines and markets without a line.",
  },
  arb_available: {
    type: 'boolean',
    description: 'true: only selections that are also part of an arbitrage; false: only those that are not.',
  },
  player_name: {
    type: 'string',
    maxLength: 200,
    description: "Text the player's name contains, case-insensitive; no match is an empty page.",
  },
  stat_category: csvParam('Stat categories of player props (points, rebounds, ...), comma-separated, case-insensitive.'),
  selection: {
    type: 'string',
    maxLength: 200,
    description: 'A selection type (home, away, over, under, ...) or text its label contains, case-insensitive; no match is an empty page.',
  },
  sharp_book: csvParam(
    'Only rows whose sharp_book (the best-ranked reference of the fair price) is one of these sportsbooks, comma-separated.',
  ),
  devig_book: csvParam("The reference's name for sharp_book; giving both with different books is a 400."),
};
