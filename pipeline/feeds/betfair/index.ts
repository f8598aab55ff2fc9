/**
 * The Betfair Exchange Stream feed: a live TLS connection and a replay of recordings, both
 * through one decoder (market cache, segments, clocks) and one mapping of markets to RawTicks.
 */
export { BetfairStreamFeed } from './stream-feed.js';
export type { BetfairStreamFeedOptions, BetfairStreamStats } from './stream-feed.js';
export { BetfairReplayFeed } from './replay-feed.js';
export type { BetfairReplayFeedOptions, BetfairReplayStats } from './replay-feed.js';
export { StreamDecoder } from './decoder.js';
export type { Decoded, ChangeType } from './decoder.js';
export { bestBack, bestLay, runnerKey } from './market-cache.js';
export type { MarketBook, RunnerBook, MarketDefinition, RunnerDefinition, BestPrice } from './market-cache.js';
export { readCatalogue, catalogueOf } from './catalogue.js';
export type { Catalogue, CatalogueMarket, CatalogueRunner } from './catalogue.js';
export { catalogueFilesBeside, loadCatalogueFiles, scoresFileBeside } from './catalogue-files.js';
export { CricketScoreMapper } from './scores.js';
export { CertLoginError, DEFAULT_CERT_LOGIN_URL, certLogin } from './cert-login.js';
export type { CertLoginOptions } from './cert-login.js';
export type { ScoreMessage } from './scores.js';
export { FixedCatalogue, BettingApiCatalogue, DEFAULT_BETTING_API_URL } from './catalogue-source.js';
export type { CatalogueSource, BettingApiCatalogueOptions } from './catalogue-source.js';
export { DEFAULT_BASE_RATE, ExchangeTickMapper, ticksOfChange, leagueOf, teamsOfEventName } from './ticks.js';
export type { ExchangeTickMapperOptions, SkipReason, TickMapping } from './ticks.js';
export { DEFAULT_MARKET_FIELDS, failureAction } from './protocol.js';
export type { MarketFilter, MarketDataFilter, StreamClocks, StatusMessage, FailureAction } from './protocol.js';
export { STREAM_SOURCE, streamDeadLetter } from './dead-letters.js';
export { isStreamRecording } from './recording-format.js';
