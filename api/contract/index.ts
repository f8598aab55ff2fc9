export {
  accountPreferencesSchema,
  accountSchema,
  apiKeySchema,
  newKeySchema,
  presentAccount,
  presentKey,
  presentNewKey,
  usageSchema,
} from './account.js';
export {
  FILTER_NAMES,
  alertDeliverySchema,
  alertRuleSchema,
  newAlertBodySchema,
  newAlertRuleSchema,
  presentDelivery,
  presentRule,
} from './alerts.js';
export type { PresentedRule } from './alerts.js';
export { BET_STATUSES, betSchema, betSummarySchema, logBetBody, presentBet } from './bets.js';
export {
  closingSnapshotSchema,
  clvGroupSchema,
  evHistoryRowSchema,
  historicalEventSchema,
  presentClosingSnapshot,
  presentClvGroup,
  presentEvHistory,
  presentHistoricalDay,
} from './closing.js';
export type { ClosingLineRecord, ClvGroupRecord, EvHistoryRecord } from './closing.js';
export {
  authErrorResponses,
  countMetaSchema,
  csv,
  csvParam,
  dataEnvelope,
  errorResponse,
  isoTime,
  notFoundResponse,
  nullableInteger,
  nullableString,
  paginatedEnvelope,
  pagination,
  paginationSchema,
  pagingParams,
  updatedAtSchema,
  whenKnown,
  withIgnoredParams,
} from './common.js';
export { eventSchema, presentEvent } from './events.js';
export { eventFairLinesSchema, fairLineSchema, presentBand, presentFairLine, presentRecipe, recipeParams } from './fair.js';
export {
  MARKET_CATEGORIES,
  MARKET_HELP,
  addSportsbookParam,
  commissionParam,
  bookSelectionError,
  eventSearchParams,
  oddsScopeParams,
  sharedFilterParams,
} from './filters.js';
export type { MarketFacts } from './filters.js';
export { bookFreshnessSchema, freshnessMetaSchema, presentBookFreshness, presentWindow } from './freshness.js';
export {
  futureEvSchema,
  futureMarketSchema,
  futureOddsSchema,
  futuresComparisonSchema,
  presentFutureEv,
  presentFutureMarket,
  presentFutureOdds,
  presentFuturesComparison,
} from './futures.js';
export type { FutureMarketSummary, FutureOddsRow, FuturesComparison } from './futures.js';
export { gameStateMap, gameStateSchema, presentEndedGameState, presentGameState } from './gamestate.js';
export { RawRows, fragmentsFor, rawRowsSerializerCompiler, releasePage, splicedRows } from './odds-fragments.js';
export type { ReadyRow, SplicedRows } from './odds-fragments.js';
export { historyPointSchema, presentHistoryPoint } from './odds-history.js';
export type { OddsHistoryRecord } from './odds-history.js';
export {
  CORE_ODDS_FIELDS,
  ODDS_FIELDS,
  bestOddsRowSchema,
  oddsListItemSchema,
  oddsRowSchema,
  parseFields,
  presentGroup,
  presentOdds,
  project,
  removedRowSchema,
  selectionKey,
} from './odds.js';
export type { OddsListItem, PublicOdds } from './odds.js';
export {
  arbitrageCsv,
  arbitrageRowSchema,
  evConfidence,
  evRowSchema,
  isAlternate,
  keyNumbersOf,
  lowHoldRowSchema,
  middleQuality,
  middleRowSchema,
  playerNameOf,
  presentArbitrage,
  presentEv,
  presentLowHold,
  presentMiddle,
  selectionName,
} from './opportunities.js';
export type { LinesOf, RowContext } from './opportunities.js';
export { SUMMARY_COUNTS, commonOpportunityParams, evRowFilterParams, opportunityMeta, sortParam } from './opportunity-params.js';
export type { DateRange } from './opportunity-params.js';
export { leagueSchema, presentBook, presentLeague, presentSport, sportSchema, sportsbookSchema, teamSchema } from './reference.js';
export { teamName } from './refs.js';
export type {
  ApiPath,
  ListReplyOf,
  ListRowOf,
  QueryOf,
  ReplyOf,
  ReplyWithData,
  RouteTypes,
  RouteTypesWithData,
  RouteTypesWithStatus,
  RouteTypesWithText,
  UnenvelopedRouteTypes,
} from './route-types.js';
export { presentHistoryEntry, presentSplits, splitsHistoryEntrySchema, splitsRecordSchema } from './splits.js';
export { notOneOf, unknownValue } from './unknown-value.js';
