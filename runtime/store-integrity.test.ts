// Issue 15 item 6: truncating a data part of odds_ticks and restarting lost 5,794 rows silently:
// the engine moved the part aside, nothing was logged and /health said ok. A start must now
// log the loss as an error and /health must say degraded, with the reason.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnEntry, waitForOutput } from '../test/support/entry.js';

const FIXTURE = 'pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl';
const dir = mkdtempSync(join(tmpdir(), 'odds-integrity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { DATA_DIR: dir, FEED: 'replay', REPLAY_FILE: FIXTURE, LOG_LEVEL: 'info', SINK_MAX_WAIT_MS: '20' };

async function health(url: string): Promise<{ status: string; checks: { runtime: { status: string; message: string } } }> {
  return (await (await fetch(`${url}/api/v1/health`)).json()) as {
    status: string;
    checks: { runtime: { status: string; message: string } };
  };
}

describe('the store integrity check at start', () => {
  it('reports a truncated odds_ticks part as an error and /health degraded, naming the table and the rows lost', async () => {
    const first = spawnEntry(env);
    const [, url1] = await waitForOutput(first, /Odds platform API: (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForOutput(first, /replay completed/);
    expect((await health(url1 ?? '')).checks.runtime.status).toBe('ok');
    // Let the sinks' last insert land, then stop cleanly: that records the row counts.
    await new Promise((r) => setTimeout(r, 500));
    first.kill('SIGTERM');
    expect((await exited(first)).code).toBe(0);

    const table = join(dir, 'chdb', 'data', 'default', 'odds_ticks');
    const part = readdirSync(table)
      .filter((p) => /^\d{8}_\d+_\d+_\d+$/.test(p))
      .sort()[0];
    expect(part).toBeDefined();
    truncateSync(join(table, part ?? '', 'data.bin'), 10);

    const second = spawnEntry({ ...env, FEED: 'simulator', SIM_TICKS_PER_SECOND: '1' });
    try {
      const [, url2] = await waitForOutput(second, /Odds platform API: (http:\/\/127\.0\.0\.1:\d+)/);
      const errors = second.output.stdout.split('\n').filter((l) => l.includes('"store integrity: data lost"'));
      expect(errors.length).toBe(2);
      expect(errors.every((l) => JSON.parse(l).level === 50)).toBe(true);
      const h = await health(url2 ?? '');
      expect(h.status).toBe('degraded');
      expect(h.checks.runtime.status).toBe('degraded');
      expect(h.checks.runtime.message).toContain(`odds_ticks: broken-on-start_${part}`);
      expect(h.checks.runtime.message).toMatch(/odds_ticks has \d+ rows, \d+ fewer than at the last clean shutdown \(34\)/);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  }, 120_000);
});
