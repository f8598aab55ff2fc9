// A sink whose inserts kept failing used to log, drop the batch and commit its offsets, and a
// stage that died left the process serving frozen data with /health "ok". Now transient errors
// are retried with backoff, then the stage stops uncommitted, /health answers 503 "down" naming
// the cause, and the process exits non-zero for its supervisor to restart it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnEntry, waitForOutput } from '../test/support/entry.js';

const dir = mkdtempSync(join(tmpdir(), 'odds-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Answers every statement with an empty success, and refuses inserts into odds_ticks as ClickHouse does when out of memory. */
async function fakeClickHouse(): Promise<{ url: string; tickInserts: () => number; close(): void }> {
  let tickInserts = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const sql = new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? body;
      if (/^INSERT INTO `?odds_ticks`?[\s(]/i.test(sql.trim())) {
        tickInserts++;
        res.writeHead(500, { 'x-clickhouse-exception-code': '241' });
        res.end('Code: 241. DB::Exception: Memory limit (total) exceeded. (MEMORY_LIMIT_EXCEEDED)');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tickInserts: () => tickInserts, close: () => server.close() };
}

describe('a stage that cannot continue', () => {
  it('is retried with backoff, then /health says down (503) and the process exits 1 after FAILURE_EXIT_DELAY_MS', async () => {
    const ch = await fakeClickHouse();
    const child = spawnEntry({
      DATA_DIR: dir,
      CLICKHOUSE_URL: ch.url,
      FEED: 'simulator',
      SIM_TICKS_PER_SECOND: '500',
      SINK_MAX_WAIT_MS: '50',
      SINK_RETRIES: '2',
      FAILURE_EXIT_DELAY_MS: '2000',
    });
    try {
      const [, url] = await waitForOutput(child, /Odds platform API: (http:\/\/127\.0\.0\.1:\d+)/);
      // The fake store has no schema_migrations rows, so /health is 503 from the start on the
      // schema check; what matters here is the runtime check turning down.
      type Health = { status: string; checks: { runtime: { status: string; message: string } } };
      let status = 0;
      let body: Health | null = null;
      const end = Date.now() + 30_000;
      while (Date.now() < end) {
        const res = await fetch(`${url}/api/v1/health`);
        status = res.status;
        body = (await res.json()) as Health;
        if (body.checks.runtime.status === 'down') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(503);
      expect(body?.status).toBe('down');
      expect(body?.checks.runtime.message).toContain('insert into odds_ticks failed after 3 attempts');
      expect(body?.checks.runtime.message).toContain('Memory limit (total) exceeded');
      const result = await exited(child, 30_000);
      expect(result.code).toBe(1);
      expect(ch.tickInserts()).toBe(3);
      expect(result.stdout).toContain('pipeline stage failed: the process stops');
    } finally {
      child.kill('SIGKILL');
      ch.close();
    }
  }, 90_000);
});
