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
  LIST_FEATURE,
  LOW_HOLD_SORT_KEYS,
  MIDDLE_SORT_KEYS,
  middleSortKeys,
  OPPORTUNITY_LISTS,
  arbitrageMatches,
  evMatches,
  evSortKeys,
  listMatches,
  lowHoldMatches,
  middleMatches,
  sortedPage,
} from './opportunities.js';
export type {
  ArbEntry,
  ArbitrageQuery,
  EvEntry,
  EvQuery,
  ListQuery,
  LowHoldEntry,
  LowHoldQuery,
  MiddleEntry,
  MiddleQuery,
  OpportunityList,
} from './opportunities.js';
export { parseFilters, parseMarkets, parseOddsFilters } from './parse-filters.js';
export type { FilterSource, OddsFilterQuery, SharedFilterQuery } from './parse-filters.js';
export { comparator, countBy, countByEach, matchesCommon, parseCommon } from './opportunity-filter.js';
export type { CommonFilter, CommonOpportunityQuery } from './opportunity-filter.js';
export { SORT_VALUES } from './odds-query.js';
export type { Match } from './odds-query.js';
export { SPLIT_SIGNALS, querySplits, splitsMatch } from './splits-query.js';
export { parseSplitsFilters } from './splits-filters.js';
export type { SplitsFilterQuery } from './splits-filters.js';
export type { SplitsQuery } from './splits-query.js';
export { featureRefusal, hasFeature, requireAlertRulesOf, requireFeatureOf, requireTierFor, tierRefusal } from './access.js';
export { leaguesList, marketsList, rateLimitState, sportsList, sportsbooksList, teamsList } from './reference-lists.js';
export type { LeaguesQuery, MarketsQuery, RateLimitState, SportsQuery, SportsbooksQuery, TeamsQuery } from './reference-lists.js';
export { freshnessList } from './freshness.js';
export type { FreshnessQuery } from './freshness.js';
export { eventsList } from './event-list.js';
export { eventDetail, eventMarkets, eventOdds } from './one-event.js';
export type { EventOddsQuery } from './one-event.js';
export { eventHistory } from './event-history.js';
export type { EventHistoryQuery } from './event-history.js';
export type { EventsQuery } from './event-list.js';
export { bestOddsList, oddsBatch, oddsComparison, oddsDeltaPage, oddsList } from './odds-answers.js';
export type { BatchQuery, BestOddsQuery, ComparisonQuery, DeltaQuery, OddsQuery, RowSerializer } from './odds-answers.js';
export { STATE_IN_LINKS, arbitrageList, evList, lowHoldList, middlesList } from './opportunity-answers.js';
export {
  callerCommission,
  commissionFilter,
  listAtCommission,
  queryAtCallerRate,
  rowAtRate,
  situationAtCommission,
} from './account-rate.js';
export { parseEvRowFilter } from './ev-row-filter.js';
export type { EvRowFilterQuery } from './ev-row-filter.js';
export { middleById, middlesSummary } from './middle-answers.js';
export type { MiddlesSummaryQuery } from './middle-answers.js';
export type { ArbitrageListQuery, EvListQuery, LowHoldListQuery, MiddlesListQuery, OpportunitySource } from './opportunity-answers.js';
export { parseTimeParam, splitsHistoryList, splitsList } from './splits-answers.js';
export type { SplitsHistoryListQuery, SplitsListQuery, SplitsSource } from './splits-answers.js';
export { gameStateMatches, gameStates, liveGameStates } from './gamestate-map.js';
export type { GameStateFilter } from './gamestate-map.js';
export { CLV_GROUPS } from './closing-history.js';
export { DAY_MS, closingLines, clvHistory, evHistoryList, historicalClosingLines, parseDay } from './closing-answers.js';
export type { ClosingLinesQuery, ClosingSource, ClvQuery, EvHistoryListQuery, HistoricalClosingQuery } from './closing-answers.js';
export { HISTORY_STORE, fromStore } from './store-failure.js';
export type { StoreFailure } from './store-failure.js';
export type { ReadSide } from './read-side.js';
export { accountInfo, setAccountCommission } from './account-info.js';
export { compareFutures, futuresEv, futuresOdds, listFutures } from './futures.js';
export type { FuturesEvQuery, FuturesListQuery, FuturesOddsQuery } from './futures.js';
export { futuresComparison, futuresEvList, futuresMarkets, futuresPrices } from './futures-answers.js';
export type {
  FuturesComparisonQuery,
  FuturesEvListQuery,
  FuturesFilterQuery,
  FuturesMarketsQuery,
  FuturesPrices,
  FuturesPricesQuery,
  FuturesSource,
} from './futures-answers.js';
export { eventFairAnswer, fairAnswer } from './fair.js';
export type { EventFairQuery, FairQuery } from './fair.js';
export { parseRecipe } from './fair-recipe.js';
export type { RecipeQuery } from './fair-recipe.js';
export { opportunityContext } from './opportunity-context.js';
export { betList, betStats, betSummary, deleteBet, logBet } from './bets.js';
export type { BetSource } from './bets.js';
export { ALERT_DEFAULTS, alertList, alertListQuery, checkKindFields, lineMoveQuery, webhookUrlProblem } from './alert-query.js';
export type { KeyNumberMarket, KeyNumberQuery, LineMoveQuery, RlmQuery } from './alert-query.js';
export { alertDeliveries, alertRuleList, createAlertRule, deleteAlertRule, ownRule } from './alert-answers.js';
export type { AlertRuleContext, DeliveriesQuery, NewAlertRule } from './alert-answers.js';
export { healthCheck } from './health.js';
export type { HealthReport, HealthSource } from './health.js';
export { deepLinkBatch, deepLinkTarget } from './deeplinks.js';
export type { DeepLinkBatchBody, DeepLinkQuery, DeepLinkTarget } from './deeplinks.js';
export { DELTA_TOPICS, PositionTrail, decodePosition, encodePosition } from './log-position.js';
export type { LogPosition, Offsets } from './log-position.js';
export { changelogReader } from './lost-removals.js';
export type { ChangelogReader, LogPlace, OddsChangelogReader } from './lost-removals.js';
export { keyParts } from './lost-removals.js';
export { CATCH_UP_WAIT_MS, catchUpRows, readLogSince } from './log-changes.js';
export type { CatchUpRefusal, ChangedRows, LogCatchUp } from './log-changes.js';
