/**
 * The read side every interface shares: REST routes, SSE, WebSocket and MCP call these typed
 * functions of the boards and a parsed filter, then present the results their own way.
 */
export { allOdds, batchOdds, bestOdds, compareOdds, listOdds, oddsMatch } from './odds.js';
export type { BatchResult, BestMatch, Comparison, OddsFilters, OddsListQuery, OddsPage } from './odds.js';
export { oddsDelta } from './delta.js';
export type { DeltaItem, DeltaResult } from './delta.js';
export {
  ARBITRAGE_SORT_KEYS,
  EV_SORT_KEYS,
  LOW_HOLD_SORT_KEYS,
  MIDDLE_SORT_KEYS,
  middleSortKeys,
  OPPORTUNITY_LISTS,
  arbitrageMatches,
  evMatches,
  evSortKeys,
  lowHoldMatches,
  middleMatches,
  sortedPage,
} from './opportunities.js';
export type { ArbEntry, ArbitrageQuery, EvEntry, EvQuery, LowHoldEntry, LowHoldQuery, MiddleEntry, MiddleQuery, OpportunityList } from './opportunities.js';
export { betterPrice, outcomeKey, sameOutcome } from './row-identity.js';
export type { OutcomeIdentity } from './row-identity.js';
export type { Match } from '../views/odds-query.js';
export { compareFutures, futuresEv, futuresOdds, listFutures } from './futures.js';
export type { FutureMarketSummary, FutureOddsRow, FuturesComparison, FuturesEvQuery, FuturesListQuery, FuturesOddsQuery } from './futures.js';
