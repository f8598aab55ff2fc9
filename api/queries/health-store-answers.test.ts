// Bug: /health read the store only through its 30-s schema cache, so a replica probed just before
// the store went away kept answering `ok` for up to 30 s of the outage, while its own calls to the
// store (a usage flush, a history query; in one process the sinks' inserts) were already failing.
// Now the store's latest answer to the process decides at once, and /health asks the store
// itself (`SELECT 1`) only when it said nothing for 5 s, however often /health is polled.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClickHouseStore, StoreError, loadMigrations } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { serverStoreDouble } from '../../test/support/server-store-double.js';
import { healthOf } from './health-check-fixture.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const at = (seconds: number): void => {
  vi.setSystemTime(T0 + seconds * 1000);
};

/** A server store holding every migration (see `serverStoreDouble`). */
const serverStore = (): ReturnType<typeof serverStoreDouble> => serverStoreDouble(loadMigrations().map((m) => ({ version: m.version })));

const DEGRADED = {
  status: 'degraded',
  message: 'store unreachable (odds are served from memory; history and analyst queries fail): connect ECONNREFUSED 127.0.0.1:8123',
};

describe('/health and the store going away', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is degraded at the store's first failed answer to the process, without asking the store again", async () => {
    const { store, reachable, sql } = serverStore();
    const health = healthOf(store, true);
    expect((await health()).status).toBe('ok');
    expect(sql).toEqual(['SELECT 1 AS ok', 'SELECT DISTINCT version FROM schema_migrations ORDER BY version']);

    at(1);
    reachable.value = false;
    // A usage flush (or, in one process, a sink's insert) fails.
    await expect(store.insert('api_usage', [])).rejects.toThrow('connect ECONNREFUSED');
    at(2);
    const report = await health();
    expect(report.status).toBe('degraded');
    expect(report.checks.schema).toEqual(DEGRADED);
    expect(sql).toHaveLength(3);
  });

  it('asks the store at most once per 5 s however often it is polled, and is ok again at its first answer', async () => {
    const { store, reachable, sql } = serverStore();
    const health = healthOf(store, true);
    expect((await health()).status).toBe('ok');
    reachable.value = false;

    at(4);
    const polls = await Promise.all([health(), health(), health()]);
    expect(polls.map((p) => p.status)).toEqual(['ok', 'ok', 'ok']);
    expect(sql).toHaveLength(2);

    at(5);
    const probed = await Promise.all([health(), health(), health()]);
    expect(probed.map((p) => p.checks.schema)).toEqual([DEGRADED, DEGRADED, DEGRADED]);
    expect(sql).toEqual(['SELECT 1 AS ok', 'SELECT DISTINCT version FROM schema_migrations ORDER BY version', 'SELECT 1 AS ok']);

    at(9);
    expect((await health()).status).toBe('degraded');
    expect(sql).toHaveLength(3);

    reachable.value = true;
    at(10);
    const back = await health();
    expect(back.status).toBe('ok');
    // The migrations read at 0 s is still fresh (30 s): only the probe asked the store.
    expect(sql).toEqual([
      'SELECT 1 AS ok',
      'SELECT DISTINCT version FROM schema_migrations ORDER BY version',
      'SELECT 1 AS ok',
      'SELECT 1 AS ok',
    ]);
  });

  it('counts a probe the store does not answer within 3 s as the store not answering', async () => {
    const hung = { kind: 'clickhouse', query: () => new Promise(() => undefined) } as unknown as OlapStore;
    const report = await healthOf(hung, true)();
    expect(report.status).toBe('degraded');
    expect(report.checks.schema).toEqual({
      status: 'degraded',
      message: 'store unreachable (odds are served from memory; history and analyst queries fail): the store did not answer within 3 s',
    });
  }, 15_000);

  it('hears of a ClickHouse server that refuses connections from the failed call itself', async () => {
    const store = new ClickHouseStore({ url: 'http://127.0.0.1:1', requestTimeoutMs: 5000 });
    try {
      await expect(store.insert('api_usage', [{ minute: 1 }])).rejects.toBeInstanceOf(StoreError);
      expect(store.reach.last).toEqual({ at: T0, ok: false, message: 'connect ECONNREFUSED 127.0.0.1:1' });
    } finally {
      await store.close();
    }
  });
});
