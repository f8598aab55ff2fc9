// The development store server (bench/store-server.ts), always as a process of its own: the
// server-mode store (ClickHouseStore) passes against it the OlapStore contract that
// pipeline/store/clickhouse-store.test.ts runs against a real ClickHouse (skipped on machines
// without Docker), it answers as ClickHouse's HTTP interface does, and it stops and starts on its
// data directory as the chaos run's store outage window needs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseStore, StoreError } from '../pipeline/store/index.js';
import { describeStoreContract } from '../test/support/store-contract.js';
import { exited, spawnEntry, waitForOutput } from '../test/support/entry.js';
import type { Exited } from '../test/support/entry.js';
import { freePort } from './chaos-processes.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Running {
  url: string;
  dataDir: string;
  /** SIGTERM, as the chaos run stops it; resolves with how it exited. */
  stop(): Promise<Exited>;
}

/** A store server on `dataDir` (a new directory when none), on `port` (0: any); resolves once it listens. */
async function startServer(dataDir?: string, port = 0): Promise<Running> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'odds-store-server-'));
  if (!dataDir) dirs.push(dir);
  const child = spawnEntry({ DATA_DIR: dir, PORT: String(port) }, 'bench/store-server.ts');
  const [, url] = await waitForOutput(child, /Store server: (http:\/\/127\.0\.0\.1:\d+)/, 120_000);
  return {
    url: url ?? '',
    dataDir: dir,
    stop: () => {
      child.kill('SIGTERM');
      return exited(child, 60_000);
    },
  };
}

describeStoreContract('ClickHouseStore against the development store server', async () => {
  const server = await startServer();
  const database = `odds_test_${Date.now()}`;
  const admin = new ClickHouseStore({ url: server.url });
  await admin.exec(`CREATE DATABASE ${database}`);
  return {
    store: new ClickHouseStore({ url: server.url, database }),
    cleanup: async () => {
      await admin.exec(`DROP DATABASE ${database}`);
      await admin.close();
      await server.stop();
    },
  };
});

async function post(url: string, sql: string, search = ''): Promise<{ status: number; code: string | null; text: string }> {
  const res = await fetch(`${url}/${search}`, { method: 'POST', body: sql });
  return { status: res.status, code: res.headers.get('x-clickhouse-exception-code'), text: await res.text() };
}

describe('the development store server', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('answers /ping and a bare GET / with Ok., as ClickHouse does', async () => {
    for (const path of ['/ping', '/']) {
      const res = await fetch(`${server.url}${path}`);
      expect([res.status, await res.text()]).toEqual([200, 'Ok.\n']);
    }
  });

  it("answers a failure with ClickHouse's HTTP status, X-ClickHouse-Exception-Code and message", async () => {
    const unknownTable = await post(server.url, 'SELECT nope FROM no_such_table');
    expect([unknownTable.status, unknownTable.code]).toEqual([404, '60']);
    expect(unknownTable.text).toMatch(/^Code: 60\. DB::Exception: .*no_such_table.*\(UNKNOWN_TABLE\)\n$/);
    const syntax = await post(server.url, 'SELEC 1');
    expect([syntax.status, syntax.code]).toEqual([400, '62']);
    const refused = await fetch(server.url, {
      method: 'POST',
      body: 'SELECT 1',
      headers: { authorization: `Basic ${Buffer.from('default:wrong').toString('base64')}` },
    });
    expect([refused.status, refused.headers.get('x-clickhouse-exception-code')]).toEqual([403, '516']);
  });

  it('applies the settings given as URL parameters to their own request alone', async () => {
    const sql = 'SELECT toUInt64(5) AS n FORMAT JSONEachRow';
    expect((await post(server.url, sql, '?output_format_json_quote_64bit_integers=1')).text).toBe('{"n":"5"}\n');
    expect((await post(server.url, sql)).text).toBe('{"n":5}\n');
  });

  it('binds param_<name> values as ClickHouse parses them: quotes, backslashes and tabs kept, arrays and numbers by their type', async () => {
    const store = new ClickHouseStore({ url: server.url });
    const s = 'O\'Brien \\ tab\there "q"';
    const a = ["Ja'Marr", 'back\\slash'];
    const rows = await store.query('SELECT {s:String} AS s, {a:Array(String)} AS a, {n:UInt32} + 1 AS n', { s, a, n: 41 });
    await store.close();
    expect(rows).toEqual([{ s, a, n: 42 }]);
  });

  it('refuses a second server on a data directory in use (chDB binds one process to a directory)', async () => {
    const second = spawnEntry({ DATA_DIR: server.dataDir, PORT: '0' }, 'bench/store-server.ts');
    const result = await exited(second, 60_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`DATA_DIR ${server.dataDir} is in use by another instance`);
  });
});

describe('the development store server stopped and started again', () => {
  it('keeps every table and row on its directory; while it is stopped a call fails with a StoreError saying the store is unreachable', async () => {
    const port = await freePort();
    const first = await startServer(undefined, port);
    const store = new ClickHouseStore({ url: first.url });
    await store.exec('CREATE TABLE kept (i UInt32, s String) ENGINE = MergeTree ORDER BY i');
    await store.insert('kept', [
      { i: 1, s: 'one' },
      { i: 2, s: 'two' },
    ]);
    expect((await first.stop()).code).toBe(0);

    const failure = store.query('SELECT count() AS n FROM kept');
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    // What the sinks wait out (pipeline/sinks/table-sink.ts), told by the connection's error code.
    await expect(failure).rejects.toMatchObject({ retryable: true, unreachable: true });

    const second = await startServer(first.dataDir, port);
    try {
      expect(await store.query('SELECT i, s FROM kept ORDER BY i')).toEqual([
        { i: 1, s: 'one' },
        { i: 2, s: 'two' },
      ]);
    } finally {
      await store.close();
      await second.stop();
    }
  }, 240_000);
});
