// Bug: an API replica whose ClickHouse went away answered /health `down` (503), although it still
// served odds, deltas and streams from its in-memory views: a load balancer probing /health would
// then take every replica out at once for a store outage (issue 36 §3 expects `degraded`).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadMigrations } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { healthOf } from './health-check-fixture.js';

/** A store whose reachability the test switches; it holds every migration when reachable. */
function switchableStore(): { store: OlapStore; reachable: { value: boolean } } {
  const reachable = { value: true };
  const versions = loadMigrations().map((m) => ({ version: m.version }));
  const store = {
    kind: 'clickhouse',
    query: async () => {
      if (!reachable.value) throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
      return versions;
    },
  } as unknown as OlapStore;
  return { store, reachable };
}

describe('/health when the store is unreachable', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-29T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is degraded, not down, when the store goes away after the schema was verified', async () => {
    const { store, reachable } = switchableStore();
    const health = healthOf(store);
    expect((await health()).status).toBe('ok');

    reachable.value = false;
    // The schema check is cached for 30 s: the next probe after that asks the store again.
    vi.setSystemTime(Date.parse('2026-11-29T12:00:31Z'));
    const report = await health();
    expect(report.status).toBe('degraded');
    expect(report.checks.schema).toEqual({
      status: 'degraded',
      message: 'store unreachable (odds are served from memory; history and analyst queries fail): connect ECONNREFUSED 127.0.0.1:8123',
    });

    reachable.value = true;
    vi.setSystemTime(Date.parse('2026-11-29T12:01:02Z'));
    expect((await health()).status).toBe('ok');
  });

  it('is down when the store was never reached: nothing says the schema is there', async () => {
    const { store, reachable } = switchableStore();
    reachable.value = false;
    const report = await healthOf(store)();
    expect(report.status).toBe('down');
    expect(report.checks.schema).toEqual({ status: 'down', message: 'store unreachable: connect ECONNREFUSED 127.0.0.1:8123' });
  });
});
