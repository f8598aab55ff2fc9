export type { OlapStore, StoreRow } from './store.js';
export { StoreError } from './store.js';
export { ChdbStore } from './chdb-store.js';
export { ClickHouseStore } from './clickhouse-store.js';
export type { ClickHouseStoreOptions } from './clickhouse-store.js';
export { applyMigrations, appliedVersions, loadMigrations } from './migrations.js';
export type { Migration } from './migrations.js';
export { READONLY_CODE, ReadOnlyQueryError } from './chdb-read-only.js';
export type { ReadOnlyLimits, ReadOnlyStatement } from './chdb-read-only.js';
