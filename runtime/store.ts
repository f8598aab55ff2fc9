import { join } from 'node:path';
import type { Logger } from 'pino';
import { ChdbStore, ClickHouseStore, applyMigrations } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { Config } from './config.js';
import type { RuntimeHealth } from './health.js';
import { startAnalystEndpoint } from './analyst-endpoint.js';
import { checkStoreIntegrity, recordCleanShutdown } from './integrity.js';
import { StartupError, firstLine } from './startup-error.js';

export interface OpenedStore {
  store: OlapStore;
  /** The read-only analyst endpoint's URL when ANALYST_PORT is set. */
  analystUrl: string | null;
  /** Records row counts for the next start's integrity check (embedded store), then closes. */
  closeCleanly(): Promise<void>;
}

const PING_TIMEOUT_MS = 5_000;

/**
 * Opens the configured store, proves it answers, applies the DDL and checks its integrity: a
 * loss is logged as an error and reported by /health as degraded, and the start goes on (the
 * data that is left is still served).
 */
export async function openStore(config: Config, logger: Logger, health: RuntimeHealth): Promise<OpenedStore> {
  const embedded = config.clickhouse === null;
  let store: OlapStore;
  if (config.clickhouse) {
    const c = config.clickhouse;
    const options = { url: c.url, username: c.user, password: c.password, database: c.database };
    const probe = new ClickHouseStore({ ...options, requestTimeoutMs: PING_TIMEOUT_MS });
    try {
      await probe.query('SELECT 1 AS ok');
    } catch (e) {
      throw new StartupError(`CLICKHOUSE_URL ${c.url} is not usable: ${firstLine(e).slice(0, 200)}`);
    } finally {
      await probe.close().catch(() => undefined);
    }
    store = new ClickHouseStore(options);
  } else {
    try {
      store = new ChdbStore(join(config.dataDir, 'chdb'));
    } catch (e) {
      throw new StartupError(`DATA_DIR ${config.dataDir}: the embedded store cannot open (${firstLine(e)})`);
    }
  }
  const recordFile = embedded ? join(config.dataDir, 'store-counts.json') : null;
  const integrity = await checkStoreIntegrity(store, recordFile);
  for (const problem of integrity.problems) {
    logger.error({ problem }, 'store integrity: data lost');
    health.degrade(`store integrity: ${problem}`);
  }
  const applied = await applyMigrations(store);
  if (applied.length > 0) logger.info({ applied }, 'schema migrations applied');
  const analyst =
    config.analyst && store instanceof ChdbStore
      ? await startAnalystEndpoint({ engine: store, host: config.host, ...config.analyst, logger })
      : null;
  return {
    store,
    analystUrl: analyst?.url ?? null,
    closeCleanly: async () => {
      await analyst?.close();
      if (recordFile !== null && !health.failed)
        await recordCleanShutdown(store, recordFile).catch((e: unknown) => logger.warn({ err: e }, 'could not record row counts'));
      await store.close();
    },
  };
}
