import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DEFAULT_LOW_HOLD_PERCENT } from '../../schemas/index.js';
import type { ArbitrageOpportunity, DevigMethodName, EvOpportunity, LowHoldOpportunity, MiddleOpportunity, TierName } from '../../schemas/index.js';
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
import { commonOpportunityParams, comparator, countBy, matchesCommon, parseCommon, sortParam } from '../contract/opportunity-query.js';
import type { CommonOpportunityQuery } from '../contract/opportunity-query.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { requireFeature } from '../plugins/auth.js';
import { OpportunityBoard, bestPerEvent, bestPerSituation } from '../views/opportunity-board.js';
import type { BoardEntry } from '../views/opportunity-board.js';

type Ev = BoardEntry<EvOpportunity>;
type Arb = BoardEntry<ArbitrageOpportunity>;
type Mid = BoardEntry<MiddleOpportunity>;
type Low = BoardEntry<LowHoldOpportunity>;

const SOURCE = 'live';
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const tier = (request: FastifyRequest): TierName => request.apiKey?.tier ?? 'free';
const bad = (field: string, message: string): ApiError => new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);

function bounds(field: string, min: number | undefined, max: number | undefined, other: string): void {
  if (min !== undefined && max !== undefined && min > max) throw bad(field, `must not exceed ${other}`);
}

const EV_SORT: Record<string, (e: Ev, m: DevigMethodName) => number | string> = {
  ev: (e, m) => e.o.methods[m].evPercent,
  odds: (e) => e.o.priceAmerican,
  confidence: (e, m) => e.o.methods[m].confidenceScore,
  confidence_score: (e, m) => e.o.methods[m].confidenceScore,
  kelly: (e, m) => e.o.methods[m].kellyPercent,
  kelly_percent: (e, m) => e.o.methods[m].kellyPercent,
  start_time: (e) => e.o.event.startTime,
  time: (e) => e.o.event.startTime,
  book_count: (e) => e.o.bookCount,
  books: (e) => e.o.bookCount,
};

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
          sort: sortParam(Object.keys(EV_SORT), 'Order; a leading - sorts descending.', '-ev'),
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
    const matches = board.list('ev').filter((e) => {
      const ev = e.o.methods[m].evPercent;
      if (ev < q.min_ev || (q.max_ev !== undefined && ev > q.max_ev)) return false;
      const w = e.o.marketWidth;
      if ((q.min_market_width !== undefined || q.max_market_width !== undefined) && w === null) return false;
      if (w !== null && ((q.min_market_width !== undefined && w < q.min_market_width) || (q.max_market_width !== undefined && w > q.max_market_width))) return false;
      return matchesCommon(e, f, catalog, now);
    });
    const keys = Object.fromEntries(Object.entries(EV_SORT).map(([k, key]) => [k, (e: Ev) => key(e, m)]));
    const sorted = [...matches].sort(comparator(q.sort, keys));
    const evs = matches.map((e) => e.o.methods[m].evPercent);
    const data = sorted.slice(q.offset, q.offset + q.limit).map((e) => presentEv(catalog, e.o, m, now, q.include === 'methods'));
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
    const better = (a: Arb, b: Arb): boolean => a.o.profitPercent > b.o.profitPercent;
    let matches = bestPerSituation(board.list('arbitrage').filter((e) => matchesCommon(e, f, catalog, now)), better).filter((e) => e.o.profitPercent >= q.min_profit);
    if (q.group === 'best') matches = bestPerEvent(matches, better);
    const natural: Record<string, (e: Arb) => number | string> = { profit: (e) => -e.o.profitPercent, start_time: (e) => e.o.event.startTime, sport: (e) => e.o.event.sport };
    const sorted = [...matches].sort(comparator(q.sort, natural));
    const page = sorted.slice(q.offset, q.offset + q.limit).map((e) => presentArbitrage(catalog, e.o, q.bankroll, now));
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
          sort: sortParam(['ev', 'hit_probability', 'window', 'cost', 'start_time'], 'Order; a leading - sorts descending.', '-ev'),
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
    const better = (a: Mid, b: Mid): boolean => a.o.evPercent > b.o.evPercent;
    let matches = bestPerSituation(board.list('middle').filter((e) => matchesCommon(e, f, catalog, now)), better).filter((e) => {
      const o = e.o;
      if (q.min_window !== undefined && o.windowSize < q.min_window) return false;
      if (q.min_hit_probability !== undefined && o.hitProbability < q.min_hit_probability) return false;
      if (q.max_cost !== undefined && -o.worstCaseProfitPercent > q.max_cost) return false;
      return q.min_ev === undefined || o.evPercent >= q.min_ev;
    });
    if (q.group === 'best') matches = bestPerEvent(matches, better);
    const keys: Record<string, (e: Mid) => number> = {
      ev: (e) => e.o.evPercent,
      hit_probability: (e) => e.o.hitProbability,
      window: (e) => e.o.windowSize,
      cost: (e) => -e.o.worstCaseProfitPercent,
      start_time: (e) => e.o.event.startTime,
    };
    const sorted = [...matches].sort(comparator(q.sort, keys));
    return {
      success: true,
      data: sorted.slice(q.offset, q.offset + q.limit).map((e) => presentMiddle(catalog, e.o, q.bankroll, now)),
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
          sort: sortParam(['hold', 'start_time', 'sport'], 'Order; a leading - sorts descending.', 'hold'),
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
    const better = (a: Low, b: Low): boolean => a.o.holdPercent < b.o.holdPercent;
    let matches = bestPerSituation(board.list('low_hold').filter((e) => matchesCommon(e, f, catalog, now)), better).filter((e) => e.o.holdPercent <= q.max_hold);
    if (q.group === 'best') matches = bestPerEvent(matches, better);
    const keys: Record<string, (e: Low) => number | string> = { hold: (e) => e.o.holdPercent, start_time: (e) => e.o.event.startTime, sport: (e) => e.o.event.sport };
    const sorted = [...matches].sort(comparator(q.sort, keys));
    return {
      success: true,
      data: sorted.slice(q.offset, q.offset + q.limit).map((e) => presentLowHold(catalog, e.o, now)),
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

