import type {
  ArbitrageOpportunity,
  DevigMethodName,
  EvOpportunity,
  Feature,
  LowHoldOpportunity,
  MiddleOpportunity,
  OpportunityKind,
} from '../../schemas/index.js';
import { evConfidence, middleQuality } from '../contract/index.js';
import { comparator, matchesCommon } from './opportunity-filter.js';
import { evRowMatches } from './ev-row-filter.js';
import type { EvRowFilter } from './ev-row-filter.js';
import type { CommonFilter } from './opportunity-filter.js';
import type { Catalog } from '../views/index.js';
import { bestPerEvent, bestPerSituation } from '../views/index.js';
import type { BoardEntry } from '../views/index.js';

export type EvEntry = BoardEntry<EvOpportunity>;
export type ArbEntry = BoardEntry<ArbitrageOpportunity>;
export type MiddleEntry = BoardEntry<MiddleOpportunity>;
export type LowHoldEntry = BoardEntry<LowHoldOpportunity>;

/** The four public opportunity lists and the board kind each reads. */
export const OPPORTUNITY_LISTS = { ev: 'ev', arbitrage: 'arbitrage', middles: 'middle', low_hold: 'low_hold' } as const satisfies Record<
  string,
  OpportunityKind
>;
export type OpportunityList = keyof typeof OPPORTUNITY_LISTS;

/** The feature each opportunity list needs, as on its REST endpoint (low-hold rides on arbitrage). */
export const LIST_FEATURE: Record<OpportunityList, Feature> = {
  ev: 'ev',
  arbitrage: 'arbitrage',
  middles: 'middles',
  low_hold: 'arbitrage',
};

export interface EvQuery {
  common: CommonFilter;
  method: DevigMethodName;
  minEv: number;
  maxEv?: number;
  minMarketWidth?: number;
  maxMarketWidth?: number;
  /** Filters on the values the row shows (Kelly, confidence, player, ...); absent: none. */
  row?: EvRowFilter;
}

export interface ArbitrageQuery {
  common: CommonFilter;
  minProfit: number;
  group?: 'best';
}

export interface MiddleQuery {
  common: CommonFilter;
  /** The reference's name for the smallest gap between the lines, points. */
  minSize?: number;
  minWindow?: number;
  minHitProbability?: number;
  maxCost?: number;
  minEv?: number;
  group?: 'best';
}

export interface LowHoldQuery {
  common: CommonFilter;
  maxHold: number;
  group?: 'best';
}

/**
 * Each list is a function of the board's entries of its kind (all of them for REST; the entries
 * of a few situations for a stream recomputing what changed) and a parsed query, returning the
 * matches unsorted. Arbitrage, middles and low-hold keep the best visible combination of books per
 * situation, so the answer for a set of situations only depends on the entries of those situations.
 */
export function evMatches(entries: readonly EvEntry[], q: EvQuery, catalog: Catalog, now: number): EvEntry[] {
  return entries.filter((e) => {
    const ev = e.o.methods[q.method].evPercent;
    if (ev < q.minEv || (q.maxEv !== undefined && ev > q.maxEv)) return false;
    const w = e.o.marketWidth;
    if ((q.minMarketWidth !== undefined || q.maxMarketWidth !== undefined) && w === null) return false;
    if (
      w !== null &&
      ((q.minMarketWidth !== undefined && w < q.minMarketWidth) || (q.maxMarketWidth !== undefined && w > q.maxMarketWidth))
    )
      return false;
    if (q.row && !evRowMatches(e, q.row, q.method, catalog)) return false;
    return matchesCommon(e, q.common, catalog, now);
  });
}

/** Any list's query, for the callers that hold several lists (streams, alert rules). */
export type ListQuery = EvQuery | ArbitrageQuery | MiddleQuery | LowHoldQuery;

/** The matches of one list by its name: the function the list's REST endpoint calls. */
export function listMatches(
  list: OpportunityList,
  entries: readonly BoardEntry[],
  query: ListQuery,
  catalog: Catalog,
  now: number,
): BoardEntry[] {
  switch (list) {
    case 'ev':
      return evMatches(entries as EvEntry[], query as EvQuery, catalog, now);
    case 'arbitrage':
      return arbitrageMatches(entries as ArbEntry[], query as ArbitrageQuery, catalog, now);
    case 'middles':
      return middleMatches(entries as MiddleEntry[], query as MiddleQuery, catalog, now);
    case 'low_hold':
      return lowHoldMatches(entries as LowHoldEntry[], query as LowHoldQuery, catalog, now);
  }
}

const betterArb = (a: ArbEntry, b: ArbEntry): boolean => a.o.profitPercent > b.o.profitPercent;
const betterMiddle = (a: MiddleEntry, b: MiddleEntry): boolean => a.o.evPercent > b.o.evPercent;
const betterLowHold = (a: LowHoldEntry, b: LowHoldEntry): boolean => a.o.holdPercent < b.o.holdPercent;

export function arbitrageMatches(entries: readonly ArbEntry[], q: ArbitrageQuery, catalog: Catalog, now: number): ArbEntry[] {
  const matches = bestPerSituation(
    entries.filter((e) => matchesCommon(e, q.common, catalog, now)),
    betterArb,
  ).filter((e) => e.o.profitPercent >= q.minProfit);
  return q.group === 'best' ? bestPerEvent(matches, betterArb) : matches;
}

export function middleMatches(entries: readonly MiddleEntry[], q: MiddleQuery, catalog: Catalog, now: number): MiddleEntry[] {
  const matches = bestPerSituation(
    entries.filter((e) => matchesCommon(e, q.common, catalog, now)),
    betterMiddle,
  ).filter((e) => {
    const o = e.o;
    if ((q.minSize !== undefined && o.windowSize < q.minSize) || (q.minWindow !== undefined && o.windowSize < q.minWindow)) return false;
    if (q.minHitProbability !== undefined && o.hitProbability < q.minHitProbability) return false;
    if (q.maxCost !== undefined && -o.worstCaseProfitPercent > q.maxCost) return false;
    return q.minEv === undefined || o.evPercent >= q.minEv;
  });
  return q.group === 'best' ? bestPerEvent(matches, betterMiddle) : matches;
}

export function lowHoldMatches(entries: readonly LowHoldEntry[], q: LowHoldQuery, catalog: Catalog, now: number): LowHoldEntry[] {
  const matches = bestPerSituation(
    entries.filter((e) => matchesCommon(e, q.common, catalog, now)),
    betterLowHold,
  ).filter((e) => e.o.holdPercent <= q.maxHold);
  return q.group === 'best' ? bestPerEvent(matches, betterLowHold) : matches;
}

/** Sort keys of each list; a leading `-` on the `sort` parameter reverses. Ties break by id. */
export function evSortKeys(method: DevigMethodName): Record<string, (e: EvEntry) => number | string> {
  return {
    ev: (e) => e.o.methods[method].evPercent,
    odds: (e) => e.o.priceAmerican,
    // The score the row shows, recomputed from the record's facts as rows and filters do: a record
    // built before the score's definition changed still carries the old stored figure.
    confidence: (e) => evConfidence(e.o, method),
    confidence_score: (e) => evConfidence(e.o, method),
    kelly: (e) => e.o.methods[method].kellyPercent,
    kelly_percent: (e) => e.o.methods[method].kellyPercent,
    start_time: (e) => e.o.event.startTime,
    time: (e) => e.o.event.startTime,
    book_count: (e) => e.o.bookCount,
    books: (e) => e.o.bookCount,
  };
}
export const EV_SORT_KEYS = Object.keys(evSortKeys('power'));
export const ARBITRAGE_SORT_KEYS: Record<string, (e: ArbEntry) => number | string> = {
  profit: (e) => -e.o.profitPercent,
  start_time: (e) => e.o.event.startTime,
  time: (e) => e.o.event.startTime,
  sport: (e) => e.o.event.sport,
  market: (e) => e.o.market,
};

/** Middle sort keys; quality, ev, probability and middle_size put the best first, as the reference does. */
export function middleSortKeys(now: number): Record<string, (e: MiddleEntry) => number> {
  return {
    quality: (e) => -middleQuality(e.o, Math.max(0, (now - e.o.oldestOddsTs) / 1000)),
    ev: (e) => -e.o.evPercent,
    probability: (e) => -e.o.hitProbability,
    hit_probability: (e) => -e.o.hitProbability,
    middle_size: (e) => -e.o.windowSize,
    window: (e) => -e.o.windowSize,
    cost: (e) => -e.o.worstCaseProfitPercent,
    start_time: (e) => e.o.event.startTime,
  };
}
export const MIDDLE_SORT_KEYS = Object.keys(middleSortKeys(0));
export const LOW_HOLD_SORT_KEYS: Record<string, (e: LowHoldEntry) => number | string> = {
  hold: (e) => e.o.holdPercent,
  start_time: (e) => e.o.event.startTime,
  sport: (e) => e.o.event.sport,
  market: (e) => e.o.market,
};

/** Sorted by `sort` (ties by id), then the page. */
export function sortedPage<E extends BoardEntry>(
  matches: readonly E[],
  sort: string,
  keys: Readonly<Record<string, (e: E) => number | string>>,
  offset: number,
  limit: number,
): E[] {
  return [...matches].sort(comparator(sort, keys)).slice(offset, offset + limit);
}
