/**
 * The Odds API (v4) feed: a live poller and a replay of recordings, both diffing successive
 * full snapshots into RawTicks in the book's own vocabulary.
 */
export { TheOddsApiPollingFeed, DEFAULT_BASE_URL, DEFAULT_MARKETS } from './polling-feed.js';
export type { PollingFeedOptions, PollingStats, PollingErrors } from './polling-feed.js';
export { ReplayFeed } from './replay-feed.js';
export type { ReplayFeedOptions, ReplayProgress, ReplayStats } from './replay-feed.js';
export { mapSnapshot, EMPTY_STATE, rowKey } from './snapshot-diff.js';
export type { DiffState, DiffRow, MapSnapshotOptions, SnapshotResult } from './snapshot-diff.js';
export { mapSportKey, mapBookmakerKey, mapMarketKey, mapOutcome, toAmerican, KNOWN_BOOKMAKER_KEYS } from './mapping.js';
export type { LeagueRef, BookRef, MarketSpec, OutcomeShape, PriceFormat } from './mapping.js';
export { emptyStats, mergeStats } from './stats.js';
export type { MappingStats, MalformedCounts } from './stats.js';
export { planInterval, nextPeriodReset, creditsPerCall, backoffDelay, parseRetryAfter, parseQuotaHeaders } from './quota.js';
export type { IntervalInputs, IntervalDecision, QuotaHeaders } from './quota.js';
export { parseRecordingLine, recordedSnapshots } from './recording.js';
export { parseEvent, parseBookmaker, parseMarket, parseOutcome } from './wire.js';
export type { WireEvent, WireBookmaker, WireMarket, WireOutcome } from './wire.js';
export type { RecordedSnapshot } from './recording.js';
