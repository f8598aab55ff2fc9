/**
 * The development store server (bench/store-server-http.ts) as a process of its own, a ClickHouse
 * server this machine can stop and start:
 *
 *   DATA_DIR=/tmp/store PORT=8123 node dist/bench/store-server.js   (or npx tsx bench/store-server.ts)
 *   CLICKHOUSE_URL=http://127.0.0.1:8123 make run
 *
 * DATA_DIR holds the engine's tables (under `chdb/`, as the runtime keeps them) and the lock that
 * keeps a second process off it; HOST defaults to 127.0.0.1 and PORT to 8123 (0: any free one).
 * It prints `Store server: <url>` once it listens. SIGTERM or SIGINT stops it as `docker compose
 * stop` stops ClickHouse: the statements under way finish, then the engine closes, and a start on
 * the same DATA_DIR finds every table and row. `make chaos` with CHAOS_STORE=server runs one
 * (docs/chaos.md).
 */
import { join } from 'node:path';
import { lockDataDir, prepareDataDir } from '../runtime/data-dir.js';
import { startStoreServer } from './store-server-http.js';

async function main(): Promise<void> {
  const dataDir = process.env['DATA_DIR'];
  if (!dataDir) throw new Error('DATA_DIR is not set: the directory the tables live in');
  const port = Number(process.env['PORT'] ?? 8123);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT ${process.env['PORT']} is not a port number`);
  prepareDataDir(dataDir);
  // chDB binds one data directory per process, and two processes on one directory corrupt it.
  const lock = lockDataDir(dataDir);
  process.on('exit', () => lock.release());
  const server = await startStoreServer({ dataDir: join(dataDir, 'chdb'), host: process.env['HOST'] ?? '127.0.0.1', port });
  process.stdout.write(`Store server: ${server.url} (ClickHouse's HTTP interface over chDB in ${dataDir})\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`store server: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
