// What went wrong (issue 36 §3): while the store did not answer, the API's `/health` said
// degraded, but a ROLE=pipeline process's `/health` said ok: it read only its stages, and its
// sinks, waiting on the store with the records piling up in Kafka, showed nowhere but the lag.
// It now reads the store as the API does (StoreHealth): degraded while unreachable, not down.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../pipeline/clock.js';
import { serverStoreDouble } from '../test/support/server-store-double.js';
import { RuntimeHealth } from './health.js';
import { pipelineHealthCheck } from './pipeline-health.js';

const T0 = Date.parse('2026-11-30T04:00:00Z');
const at = (seconds: number): void => {
  vi.setSystemTime(T0 + seconds * 1000);
};

const STORE_LOST = {
  status: 'degraded',
  message: "store unreachable (the sinks' batches wait in the log and are written once it answers): connect ECONNREFUSED 127.0.0.1:8123",
};

describe("the pipeline process's /health", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says degraded from a sink's first failed insert while the store does not answer, and ok once it answers", async () => {
    const { store, reachable, sql } = serverStoreDouble([{ ok: 1 }]);
    const runtime = new RuntimeHealth();
    const health = pipelineHealthCheck(runtime, store, () => 120, new ManualClock(T0));
    expect(await health()).toEqual({
      status: 'ok',
      role: 'pipeline',
      checks: { runtime: { status: 'ok', message: 'every stage running' }, store: { status: 'ok', message: 'answers (clickhouse)' } },
      lag: 120,
      timestamp: '2026-11-30T04:00:00.000Z',
    });
    expect(sql).toEqual(['SELECT 1 AS ok']);

    at(1);
    reachable.value = false;
    await expect(store.insert('odds_ticks', [])).rejects.toThrow('connect ECONNREFUSED');
    at(2);
    const lost = await health();
    expect({ status: lost.status, checks: lost.checks }).toEqual({
      status: 'degraded',
      checks: { runtime: { status: 'ok', message: 'every stage running' }, store: STORE_LOST },
    });
    // The insert's failure said it: the store was not asked again.
    expect(sql).toEqual(['SELECT 1 AS ok', 'INSERT INTO odds_ticks']);

    // Nothing asked the store for 5 s (the sinks back off): /health asks it, and it still refuses.
    at(7);
    expect((await health()).checks.store).toEqual(STORE_LOST);
    expect(sql).toHaveLength(3);

    reachable.value = true;
    at(13);
    expect((await health()).status).toBe('ok');
  });

  it('says down when a stage failed for good, whatever the store', async () => {
    const { store, reachable } = serverStoreDouble([{ ok: 1 }]);
    reachable.value = false;
    const runtime = new RuntimeHealth();
    runtime.fail('stage failed: insert into odds_ticks failed: Syntax error');
    const report = await pipelineHealthCheck(runtime, store, () => 0, new ManualClock(T0))();
    expect({ status: report.status, checks: report.checks }).toEqual({
      status: 'down',
      checks: { runtime: { status: 'down', message: 'stage failed: insert into odds_ticks failed: Syntax error' }, store: STORE_LOST },
    });
  });
});
