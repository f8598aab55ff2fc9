// Killing the service during a replay and starting it again stored 45,950 duplicate ticks out of
// 151,618: odds_ticks was a plain MergeTree and the restarted replay began at its first line.
// Ticks are now keyed by their identity (005_tick_identity.sql), so whatever is replayed, by a
// restart or a redelivered batch, is stored once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChdbStore } from '../pipeline/store/index.js';
import { exited, spawnEntry, waitForOutput } from './support/entry.js';

const FIXTURE = 'pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl';
const dir = mkdtempSync(join(tmpdir(), 'odds-replay-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: dir, FEED: 'replay', REPLAY_FILE: FIXTURE, SINK_MAX_WAIT_MS: '20', LOG_LEVEL: 'info' };

describe('a replay restarted from its first line', () => {
  it('after kill -9 and after a clean stop, leaves every tick in odds_ticks exactly once', async () => {
    // First run: killed without warning as soon as the feed is through.
    const first = spawnEntry(env);
    await waitForOutput(first, /replay completed/);
    first.kill('SIGKILL');
    expect((await exited(first)).signal).toBe('SIGKILL');
    // Second and third runs replay the same file from its first line and stop cleanly.
    for (let run = 0; run < 2; run++) {
      const again = spawnEntry(env);
      await waitForOutput(again, /replay completed/);
      await new Promise((r) => setTimeout(r, 300));
      again.kill('SIGTERM');
      expect((await exited(again)).code).toBe(0);
    }
    const store = new ChdbStore(join(dir, 'chdb'));
    try {
      const [final] = await store.query<{ n: number }>('SELECT count() AS n FROM odds_ticks FINAL');
      const [distinct] = await store.query<{ n: number }>(
        'SELECT count() AS n FROM (SELECT DISTINCT * EXCEPT ingested_at FROM odds_ticks)',
      );
      await store.exec('OPTIMIZE TABLE odds_ticks FINAL');
      const [merged] = await store.query<{ n: number }>('SELECT count() AS n FROM odds_ticks');
      // The recording's three snapshots diff into 34 ticks.
      expect([Number(final?.n), Number(distinct?.n), Number(merged?.n)]).toEqual([34, 34, 34]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
