import { csvParam, pagingParams } from './common.js';
import { addSportsbookParam, sharedFilterParams } from './filters.js';

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
