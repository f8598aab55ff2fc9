export type { OlapStore, StoreRow } from './store.js';
export { StoreError, StoreReach } from './store.js';
export type { StoreAnswer } from './store.js';
export { StoreHealth } from './store-health.js';
export type { StoreHealthOptions } from './store-health.js';
export { ChdbStore } from './chdb-store.js';
export { ClickHouseStore } from './clickhouse-store.js';
export type { ClickHouseStoreOptions } from './clickhouse-store.js';
export { applyMigrations, appliedVersions, loadMigrations } from './migrations.js';
export type { Migration } from './migrations.js';
export { READONLY_CODE, ReadOnlyQueryError } from './chdb-read-only.js';
export type { ReadOnlyLimits, ReadOnlyStatement } from './chdb-read-only.js';
export { engineFailure } from './engine-failure.js';
export type { EngineFailure } from './engine-failure.js';
export {
  boundParams,
  credentials,
  isPing,
  isPlainName,
  sameSecret,
  sendException,
  statementText,
  stringLiteral,
} from './clickhouse-http.js';
export { chdb } from './chdb-module.js';
export { CompactLines } from './compact-lines.js';
export { InsertBuffers } from './insert-buffers.js';
