import { DEFAULT_LOW_HOLD_PERCENT } from '../../schemas/index.js';
import type { DevigMethodName, TierName } from '../../schemas/index.js';
import { isoTime, pagination } from '../contract/common.js';
import { presentArbitrage, presentEv, presentLowHold, presentMiddle } from '../contract/opportunities.js';
import type { LinesOf } from '../contract/opportunities.js';
import { countBy, countByEach, parseCommon } from '../contract/opportunity-query.js';
import type { CommonOpportunityQuery } from '../contract/opportunity-query.js';
import { putStateInLinks, requestedState } from '../deeplinks/index.js';
import { ApiError } from '../errors.js';
import type { OpportunityBoard } from '../views/opportunity-board.js';
import { requireFeatureOf } from './access.js';
import {
  ARBITRAGE_SORT_KEYS,
  LOW_HOLD_SORT_KEYS,
  arbitrageMatches,
  evMatches,
  evSortKeys,
  lowHoldMatches,
  middleMatches,
  middleSortKeys,
  sortedPage,
} from './opportunities.js';
import type { ReadSide } from './read-side.js';

/**
 * The four opportunity lists (+EV, arbitrage, middles, low-hold) as every interface answers
 * them: the feature gate of the tier, the parsed filters, the matches, the page and the summary.
 * REST routes and MCP tools present the body as is.
 */
export interface OpportunitySource {
  deps: Pick<ReadSide, 'catalog' | 'clock' | 'board'>;
  /** The board the `opportunities` changelog keeps (an empty one in a process without opportunity stages). */
  opportunities: OpportunityBoard;
}

const SOURCE = 'live';
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const bad = (field: string, message: string): ApiError => new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);

function bounds(field: string, min: number | undefined, max: number | undefined, other: string): void {
  if (min !== undefined && max !== undefined && min > max) throw bad(field, `must not exceed ${other}`);
}

const linesOf =
  (s: OpportunitySource): LinesOf =>
  (eventId) =>
    s.deps.board.mainLines(eventId);
const lastUpdate = (s: OpportunitySource): string | null =>
  s.opportunities.lastUpdate === null ? null : isoTime(s.opportunities.lastUpdate);

export interface EvListQuery extends CommonOpportunityQuery {
  min_ev: number;
  max_ev?: number;
  min_market_width?: number;
  max_market_width?: number;
  sort: string;
  devig_method: DevigMethodName;
  include?: string;
}

export function evList(s: OpportunitySource, tier: TierName, q: EvListQuery): Record<string, unknown> {
  requireFeatureOf(tier, 'ev');
  const { catalog, clock } = s.deps;
  const now = clock.now();
  bounds('min_ev', q.min_ev, q.max_ev, 'max_ev');
  bounds('min_market_width', q.min_market_width, q.max_market_width, 'max_market_width');
  const f = parseCommon(q, catalog, tier, now);
  const m = q.devig_method;
  const matches = evMatches(
    s.opportunities.list('ev'),
    {
      common: f,
      method: m,
      minEv: q.min_ev,
      maxEv: q.max_ev,
      minMarketWidth: q.min_market_width,
      maxMarketWidth: q.max_market_width,
    },
    catalog,
    now,
  );
  const evs = matches.map((e) => e.o.methods[m].evPercent);
  const data = sortedPage(matches, q.sort, evSortKeys(m), q.offset, q.limit).map((e) =>
    presentEv(catalog, e.o, m, now, q.include === 'methods'),
  );
  return {
    success: true,
    data,
    pagination: pagination(q.limit, q.offset, matches.length),
    meta: {
      source: SOURCE,
      last_update: lastUpdate(s),
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
        sport: q.sport ?? null,
        league: q.league ?? null,
        sportsbook: q.sportsbook ?? null,
        market: q.market ?? null,
        min_ev: q.min_ev,
        max_ev: q.max_ev ?? null,
        live: q.live ?? null,
        sort: q.sort,
        include: q.include ?? null,
      },
    },
  };
}

export interface ArbitrageListQuery extends CommonOpportunityQuery {
  min_profit: number;
  sort: string;
  group?: 'best';
  bankroll: number;
}

export function arbitrageList(
  s: OpportunitySource,
  tier: TierName,
  q: ArbitrageListQuery,
): Record<string, unknown> & { data: Record<string, unknown>[] } {
  requireFeatureOf(tier, 'arbitrage');
  const { catalog, clock } = s.deps;
  const now = clock.now();
  const f = parseCommon(q, catalog, tier, now);
  const matches = arbitrageMatches(
    s.opportunities.list('arbitrage'),
    { common: f, minProfit: q.min_profit, ...(q.group ? { group: q.group } : {}) },
    catalog,
    now,
  );
  const page = sortedPage(matches, q.sort, ARBITRAGE_SORT_KEYS, q.offset, q.limit).map((e) =>
    presentArbitrage(catalog, e.o, q.bankroll, now, linesOf(s)),
  );
  const profits = matches.map((e) => e.o.profitPercent);
  return {
    success: true,
    data: page,
    pagination: pagination(q.limit, q.offset, matches.length),
    meta: {
      source: SOURCE,
      last_update: lastUpdate(s),
      summary: {
        count: matches.length,
        avg_profit: profits.length === 0 ? 0 : r4(profits.reduce((a, b) => a + b, 0) / profits.length),
        max_profit: profits.length === 0 ? 0 : Math.max(...profits),
        by_sportsbook: countByEach(matches, (e) => e.o.legs.map((l) => l.book)),
        by_sport: countBy(matches, (e) => e.o.event.sport),
        by_market: countBy(matches, (e) => e.o.market),
      },
      filters: {
        sport: q.sport ?? null,
        league: q.league ?? null,
        sportsbook: q.sportsbook ?? null,
        market: q.market ?? null,
        min_profit: q.min_profit,
        live: q.live ?? null,
        sort: q.sort,
        group: q.group ?? null,
        bankroll: q.bankroll,
      },
      books_analyzed: f.books.size,
    },
  };
}

export interface MiddlesListQuery extends CommonOpportunityQuery {
  min_size: number;
  min_window?: number;
  min_hit_probability?: number;
  max_cost?: number;
  min_ev?: number;
  /** US state for the deep links of the legs. */
  state?: string;
  sort: string;
  group?: 'best';
  bankroll: number;
}

export function middlesList(s: OpportunitySource, tier: TierName, q: MiddlesListQuery): Record<string, unknown> {
  requireFeatureOf(tier, 'middles');
  const { catalog, clock } = s.deps;
  const state = requestedState(q.state);
  const now = clock.now();
  const matches = middleMatches(
    s.opportunities.list('middle'),
    {
      common: parseCommon(q, catalog, tier, now),
      minSize: q.min_size,
      minWindow: q.min_window,
      minHitProbability: q.min_hit_probability,
      maxCost: q.max_cost,
      minEv: q.min_ev,
      ...(q.group ? { group: q.group } : {}),
    },
    catalog,
    now,
  );
  return {
    success: true,
    data: putStateInLinks(
      sortedPage(matches, q.sort, middleSortKeys(now), q.offset, q.limit).map((e) => presentMiddle(catalog, e.o, q.bankroll, now)),
      state,
    ),
    pagination: pagination(q.limit, q.offset, matches.length),
    meta: {
      source: SOURCE,
      last_update: lastUpdate(s),
      summary: {
        count: matches.length,
        by_sport: countBy(matches, (e) => e.o.event.sport),
        by_market: countBy(matches, (e) => e.o.market),
      },
      filters: {
        sport: q.sport ?? null,
        league: q.league ?? null,
        sportsbook: q.sportsbook ?? null,
        market: q.market ?? null,
        min_size: q.min_size,
        live: q.live ?? null,
        sort: q.sort,
        group: q.group ?? null,
        bankroll: q.bankroll,
      },
    },
  };
}

export interface LowHoldListQuery extends CommonOpportunityQuery {
  max_hold: number;
  state?: string;
  sort: string;
  group?: 'best';
}

export function lowHoldList(s: OpportunitySource, tier: TierName, q: LowHoldListQuery): Record<string, unknown> {
  requireFeatureOf(tier, 'arbitrage');
  const { catalog, clock } = s.deps;
  const state = requestedState(q.state);
  const now = clock.now();
  const f = parseCommon(q, catalog, tier, now);
  const matches = lowHoldMatches(
    s.opportunities.list('low_hold'),
    { common: f, maxHold: q.max_hold, ...(q.group ? { group: q.group } : {}) },
    catalog,
    now,
  );
  const holds = matches.map((e) => e.o.holdPercent);
  return {
    success: true,
    data: putStateInLinks(
      sortedPage(matches, q.sort, LOW_HOLD_SORT_KEYS, q.offset, q.limit).map((e) => presentLowHold(catalog, e.o, now, linesOf(s))),
      state,
    ),
    pagination: pagination(q.limit, q.offset, matches.length),
    meta: {
      source: SOURCE,
      last_update: lastUpdate(s),
      threshold: DEFAULT_LOW_HOLD_PERCENT,
      summary: {
        count: matches.length,
        avg_hold: holds.length === 0 ? 0 : r4(holds.reduce((a, b) => a + b, 0) / holds.length),
        min_hold: holds.length === 0 ? 0 : Math.min(...holds),
        by_sport: countBy(matches, (e) => e.o.event.sport),
        by_market: countBy(matches, (e) => e.o.market),
      },
      filters: {
        sport: q.sport ?? null,
        league: q.league ?? null,
        sportsbook: q.sportsbook ?? null,
        market: q.market ?? null,
        max_hold: q.max_hold,
        live: q.live ?? null,
        state: state ?? null,
        sort: q.sort,
        group: q.group ?? null,
      },
    },
  };
}
