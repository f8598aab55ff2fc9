import { join } from 'node:path';
import { ChdbStore, ClickHouseStore, applyMigrations } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { Config } from './config.js';

/** Why a one-off command (`make key`, `make import-history`, ...) could not open the store. */
export class CommandStoreError extends Error {}

/**
 * The configured store for a command run beside (or instead of) the service: CLICKHOUSE_URL
 * when set, else the embedded store in DATA_DIR, which only one process can hold.
 */
export function openCommandStore(config: Config): OlapStore {
  try {
    return config.clickhouse
      ? new ClickHouseStore({
          url: config.clickhouse.url,
          username: config.clickhouse.user,
          password: config.clickhouse.password,
          database: config.clickhouse.database,
        })
      : new ChdbStore(join(config.dataDir, 'chdb'));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new CommandStoreError(
      /lock|Another server instance|Failed to create connection/i.test(message)
        ? `the embedded store in ${config.dataDir} cannot be opened (${message}): it is most likely in use by a running service; stop it first (chDB allows one process), or run on a ClickHouse server`
        : `cannot open the store: ${message}`,
    );
  }
}

/** Opens the store and brings its tables up to date. */
export async function openMigratedStore(config: Config): Promise<OlapStore> {
  const store = openCommandStore(config);
  try {
    await applyMigrations(store);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}
