import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DEFAULT_LOW_HOLD_PERCENT } from '../../schemas/index.js';
import type { DevigMethodName, TierName } from '../../schemas/index.js';
import { DEVIG_METHODS } from '../../pipeline/odds-math/index.js';
import { authErrorResponses, isoTime, pagination, paginatedEnvelope } from '../contract/common.js';
import {
  arbitrageCsv,
  arbitrageRowSchema,
  evRowSchema,
  lowHoldRowSchema,
  middleRowSchema,
  presentArbitrage,
  presentEv,
  presentLowHold,
  presentMiddle,
} from '../contract/opportunities.js';
import { commonOpportunityParams, countBy, parseCommon, sortParam } from '../contract/opportunity-query.js';
import type { CommonOpportunityQuery } from '../contract/opportunity-query.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { requireFeature } from '../plugins/auth.js';
import { OpportunityBoard } from '../views/opportunity-board.js';
import {
  ARBITRAGE_SORT_KEYS, EV_SORT_KEYS, LOW_HOLD_SORT_KEYS, MIDDLE_SORT_KEYS, arbitrageMatches, evMatches, evSortKeys, lowHoldMatches, middleMatches, sortedPage,
} from '../queries/index.js';

const SOURCE = 'live';
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const tier = (request: FastifyRequest): TierName => request.apiKey?.tier ?? 'free';
const bad = (field: string, message: string): ApiError => new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);

function bounds(field: string, min: number | undefined, max: number | undefined, other: string): void {
  if (min !== undefined && max !== undefined && min > max) throw bad(field, `must not exceed ${other}`);
}

const bankrollParam = { type: 'number', minimum: 1, maximum: 10_000_000, default: 100, description: 'Total stake to split across the legs; stakes are rounded to cents and add up to it.' };
const groupParam = { type: 'string', enum: ['best'], description: 'best: only the best opportunity of each event.' };
const metaSchema = { type: 'object', additionalProperties: true };
const withTags = (summary: string, description: string): { tags: string[]; summary: string; description: string } => ({ tags: ['opportunities'], summary, description });

interface EvQuery extends CommonOpportunityQuery {
  min_ev: number;
  max_ev?: number;
  min_market_width?: number;
  max_market_width?: number;
  sort: string;
  devig_method: DevigMethodName;
  include?: string;
}

interface ArbQuery extends CommonOpportunityQuery {
  min_profit: number;
  sort: string;
  format: 'json' | 'csv';
  group?: 'best';
  bankroll: number;
}

interface MiddleQuery extends CommonOpportunityQuery {
  min_window?: number;
  min_hit_probability?: number;
  max_cost?: number;
  min_ev?: number;
  sort: string;
  group?: 'best';
  bankroll: number;
}

interface LowHoldQuery extends CommonOpportunityQuery {
  max_hold: number;
  sort: string;
  group?: 'best';
}

/**
 * The opportunity endpoints, served from the in-memory board the `opportunities` changelog keeps.
 * Each caller sees only opportunities whose every leg is at a sportsbook of its tier (or of its
 * `sportsbook` selection); arbitrage, middles and low-hold show the best visible combination of
 * books per situation.
 */
export const opportunitiesRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { catalog, clock } = deps;
  // A process that runs no opportunity stages serves an empty board rather than failing.
  const board = deps.opportunities ?? new OpportunityBoard();

  app.get<{ Querystring: EvQuery }>('/opportunities/ev', {
    schema: {
      ...withTags('Positive expected value (+EV) bets', 'Prices above the fair price of the de-vigged sharp line. Pro tier or higher. One row per sportsbook and selection.'),
      querystring: {
        type: 'object',
        properties: {
          ...commonOpportunityParams,
          min_ev: { type: 'number', minimum: -100, maximum: 1000, default: 0, description: 'Minimum EV percentage under the chosen de-vig method.' },
          max_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Maximum EV percentage.' },
          min_market_width: { type: 'number', minimum: -1000, maximum: 10_000, description: 'Cents; a lower width means a sharper reference market.' },
          max_market_width: { type: 'number', minimum: -1000, maximum: 10_000, description: 'Cents.' },
          sort: sortParam(EV_SORT_KEYS, 'Order; a leading - sorts descending.', '-ev'),
          devig_method: { type: 'string', enum: [...DEVIG_METHODS], default: 'power', description: 'Which de-vig method fills the row and applies to min_ev/max_ev.' },
          include: { type: 'string', enum: ['methods'], description: 'methods: add the values under every de-vig method.' },
        },
      },
      response: { 200: paginatedEnvelope(evRowSchema, metaSchema), ...authErrorResponses },
    },
  }, async (request) => {
    requireFeature(request, 'ev');
    const q = request.query;
    const now = clock.now();
    bounds('min_ev', q.min_ev, q.max_ev, 'max_ev');
    bounds('min_market_width', q.min_market_width, q.max_market_width, 'max_market_width');
    const f = parseCommon(q, catalog, tier(request), now);
    const m = q.devig_method;
    const matches = evMatches(board.list('ev'), {
      common: f, method: m, minEv: q.min_ev, maxEv: q.max_ev, minMarketWidth: q.min_market_width, maxMarketWidth: q.max_market_width,
    }, catalog, now);
    const evs = matches.map((e) => e.o.methods[m].evPercent);
    const data = sortedPage(matches, q.sort, evSortKeys(m), q.offset, q.limit).map((e) => presentEv(catalog, e.o, m, now, q.include === 'methods'));
    return {
      success: true,
      data,
      pagination: pagination(q.limit, q.offset, matches.length),
      meta: {
        source: SOURCE,
        last_update: board.lastUpdate === null ? null : isoTime(board.lastUpdate),
        devig_method: m,
        summary: {
          count: matches.length,
          avg_ev: evs.length === 0 ? 0 : r4(evs.reduce((a, b) => a + b, 0) / evs.length),
          max_ev: evs.length === 0 ? 0 : Math.max(...evs),
          by_sportsbook: countBy(matches, (e) => e.o.book),
          by_sport: countBy(matches, (e) => e.o.event.sport),
          by_market: countBy(matches, (e) => e.o.market),
        },
        filters: {
          sport: q.sport ?? null, league: q.league ?? null, sportsbook: q.sportsbook ?? null, market: q.market ?? null,
          min_ev: q.min_ev, max_ev: q.max_ev ?? null, live: q.live ?? null, sort: q.sort, include: q.include ?? null,
        },
      },
    };
  });

  app.get<{ Querystring: ArbQuery }>('/opportunities/arbitrage', {
    schema: {
      ...withTags('Arbitrage (sure bets)', 'Best prices across books whose implied probabilities sum below 1. Hobby tier or higher. format=csv downloads the same rows as CSV.'),
      querystring: {
        type: 'object',
        properties: {
          ...commonOpportunityParams,
          min_profit: { type: 'number', minimum: 0, maximum: 1000, default: 0, description: 'Minimum guaranteed profit, %.' },
          sort: { type: 'string', enum: ['profit', '-profit', 'start_time', '-start_time', 'sport', '-sport'], default: 'profit', description: 'profit: most profitable first (default); start_time: soonest first; sport: A-Z. A leading - reverses.' },
          format: { type: 'string', enum: ['json', 'csv'], default: 'json' },
          group: groupParam,
          bankroll: bankrollParam,
        },
      },
      response: {
        200: {
          description: 'Arbitrage opportunities (JSON), or the CSV export with format=csv.',
          content: { 'application/json': { schema: paginatedEnvelope(arbitrageRowSchema, metaSchema) }, 'text/csv': { schema: { type: 'string' } } },
        },
        ...authErrorResponses,
      },
    },
  }, async (request, reply) => {
    requireFeature(request, 'arbitrage');
    const q = request.query;
    const now = clock.now();
    const f = parseCommon(q, catalog, tier(request), now);
    const matches = arbitrageMatches(board.list('arbitrage'), { common: f, minProfit: q.min_profit, ...(q.group ? { group: q.group } : {}) }, catalog, now);
    const page = sortedPage(matches, q.sort, ARBITRAGE_SORT_KEYS, q.offset, q.limit).map((e) => presentArbitrage(catalog, e.o, q.bankroll, now));
    if (q.format === 'csv') {
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="arbitrage.csv"').send(arbitrageCsv(page));
    }
    const profits = matches.map((e) => e.o.profitPercent);
    return {
      success: true,
      data: page,
      pagination: pagination(q.limit, q.offset, matches.length),
      meta: {
        source: SOURCE,
        last_update: board.lastUpdate === null ? null : isoTime(board.lastUpdate),
        summary: {
          count: matches.length,
          avg_profit: profits.length === 0 ? 0 : r4(profits.reduce((a, b) => a + b, 0) / profits.length),
          max_profit: profits.length === 0 ? 0 : Math.max(...profits),
          by_sport: countBy(matches, (e) => e.o.event.sport),
          by_market: countBy(matches, (e) => e.o.market),
        },
        filters: { sport: q.sport ?? null, league: q.league ?? null, sportsbook: q.sportsbook ?? null, market: q.market ?? null, min_profit: q.min_profit, live: q.live ?? null, sort: q.sort, group: q.group ?? null, bankroll: q.bankroll },
      },
    };
  });

  app.get<{ Querystring: MiddleQuery }>('/opportunities/middles', {
    schema: {
      ...withTags('Middles', 'Opposite sides of a spread or total at different lines, at two books, that can both win. Pro tier or higher.'),
      querystring: {
        type: 'object',
        properties: {
          ...commonOpportunityParams,
          min_window: { type: 'number', minimum: 0, maximum: 1000, description: 'Minimum window size, points.' },
          min_hit_probability: { type: 'number', minimum: 0, maximum: 1, description: 'Minimum model probability that both legs win.' },
          max_cost: { type: 'number', minimum: 0, maximum: 100, description: 'Largest acceptable worst-case loss, % of the total stake.' },
          min_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Minimum model EV, %.' },
          sort: sortParam(Object.keys(MIDDLE_SORT_KEYS), 'Order; a leading - sorts descending.', '-ev'),
          group: groupParam,
          bankroll: bankrollParam,
        },
      },
      response: { 200: paginatedEnvelope(middleRowSchema, metaSchema), ...authErrorResponses },
    },
  }, async (request) => {
    requireFeature(request, 'middles');
    const q = request.query;
    const now = clock.now();
    const f = parseCommon(q, catalog, tier(request), now);
    const matches = middleMatches(board.list('middle'), {
      common: f, minWindow: q.min_window, minHitProbability: q.min_hit_probability, maxCost: q.max_cost, minEv: q.min_ev, ...(q.group ? { group: q.group } : {}),
    }, catalog, now);
    return {
      success: true,
      data: sortedPage(matches, q.sort, MIDDLE_SORT_KEYS, q.offset, q.limit).map((e) => presentMiddle(catalog, e.o, q.bankroll, now)),
      pagination: pagination(q.limit, q.offset, matches.length),
      meta: {
        source: SOURCE,
        last_update: board.lastUpdate === null ? null : isoTime(board.lastUpdate),
        summary: { count: matches.length, by_sport: countBy(matches, (e) => e.o.event.sport), by_market: countBy(matches, (e) => e.o.market) },
        filters: { sport: q.sport ?? null, league: q.league ?? null, sportsbook: q.sportsbook ?? null, market: q.market ?? null, live: q.live ?? null, sort: q.sort, group: q.group ?? null, bankroll: q.bankroll },
      },
    };
  });

  app.get<{ Querystring: LowHoldQuery }>('/opportunities/low-hold', {
    schema: {
      ...withTags('Low-hold markets', `Markets whose best-price hold, 1 - 1/sum(1/d), is at most max_hold (default ${DEFAULT_LOW_HOLD_PERCENT} %). Hobby tier or higher.`),
      querystring: {
        type: 'object',
        properties: {
          ...commonOpportunityParams,
          max_hold: { type: 'number', minimum: -100, maximum: DEFAULT_LOW_HOLD_PERCENT, default: DEFAULT_LOW_HOLD_PERCENT, description: `Largest hold, % (at most ${DEFAULT_LOW_HOLD_PERCENT}, the threshold the processor keeps).` },
          sort: sortParam(Object.keys(LOW_HOLD_SORT_KEYS), 'Order; a leading - sorts descending.', 'hold'),
          group: groupParam,
        },
      },
      response: { 200: paginatedEnvelope(lowHoldRowSchema, metaSchema), ...authErrorResponses },
    },
  }, async (request) => {
    requireFeature(request, 'arbitrage');
    const q = request.query;
    const now = clock.now();
    const f = parseCommon(q, catalog, tier(request), now);
    const matches = lowHoldMatches(board.list('low_hold'), { common: f, maxHold: q.max_hold, ...(q.group ? { group: q.group } : {}) }, catalog, now);
    return {
      success: true,
      data: sortedPage(matches, q.sort, LOW_HOLD_SORT_KEYS, q.offset, q.limit).map((e) => presentLowHold(catalog, e.o, now)),
      pagination: pagination(q.limit, q.offset, matches.length),
      meta: {
        source: SOURCE,
        last_update: board.lastUpdate === null ? null : isoTime(board.lastUpdate),
        summary: { count: matches.length, by_sport: countBy(matches, (e) => e.o.event.sport), by_market: countBy(matches, (e) => e.o.market) },
        filters: { sport: q.sport ?? null, league: q.league ?? null, sportsbook: q.sportsbook ?? null, market: q.market ?? null, max_hold: q.max_hold, live: q.live ?? null, sort: q.sort, group: q.group ?? null },
      },
    };
  });
};

