import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILED_LOGINS } from '../../runtime/analyst-endpoint.js';
import { startTestSystem } from '../support/system.js';
import type { TestSystem } from '../support/system.js';

/**
 * The embedded analyst endpoint used to run a statement unbounded: `SELECT * FROM
 * numbers(1e12) FORMAT Null` held most of both cores for 40 s after the client gave up, and
 * /health slowed from 2 to 325 ms meanwhile. Now every statement is bounded by ClickHouse's own
 * limits, cancelled when its client goes away, and only ANALYST_CONCURRENCY run at once.
 */
const PASSWORD = 'analyst-limits-secret';
const MAX_SECONDS = 4;
const HEAVY = 'SELECT count() FROM system.numbers WHERE NOT ignore(sipHash64(number))';

let sys: TestSystem;
const logLines: string[] = [];
const auth = (password = PASSWORD): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`analyst:${password}`).toString('base64')}`,
});

async function send(
  sql: string,
  init: { password?: string; signal?: AbortSignal } = {},
): Promise<{ status: number; code: string | null; retryAfter: string | null; text: string }> {
  const res = await fetch(`${sys.analystUrl}/`, {
    method: 'POST',
    headers: auth(init.password),
    body: sql,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  return {
    status: res.status,
    code: res.headers.get('x-clickhouse-exception-code'),
    retryAfter: res.headers.get('retry-after'),
    text: await res.text(),
  };
}

/**
 * Analyst statements the engine is running now (they carry our tag in log_comment). With
 * `heavyOnly`, only the analyst's own statement counts, not the parse and EXPLAIN steps that
 * run before it under the same tag: a wait for "running" must see the statement itself, or it
 * can end while an earlier request still holds its slot.
 */
async function running(heavyOnly = false): Promise<number> {
  const steps = heavyOnly ? " AND NOT startsWith(query, 'EXPLAIN') AND position(query, 'formatQuerySingleLine') = 0" : '';
  const rows = await sys.store.query<{ n: string }>(
    `SELECT toString(count()) AS n FROM system.processes WHERE startsWith(Settings['log_comment'], 'analyst-')${steps}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The endpoint lets a statement through again: its slot was given back. */
async function slotFree(): Promise<boolean> {
  return until(async () => (await send('SELECT 1')).status === 200, 2_000);
}

async function until(what: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await what()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return what();
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  sys = await startTestSystem(
    {
      FEED: 'none',
      ANALYST_PORT: '0',
      ANALYST_PASSWORD: PASSWORD,
      ANALYST_MAX_SECONDS: String(MAX_SECONDS),
      ANALYST_MAX_MEMORY_MB: '64',
      ANALYST_MAX_RESULT_MB: '1',
      ANALYST_MAX_ROWS_READ: '1000000000',
      ANALYST_CONCURRENCY: '1',
    },
    {},
    { logger: pino({ level: 'debug' }, sink) },
  );
});

afterAll(async () => sys?.close());

describe('analyst statements are bounded by the engine', () => {
  it('cuts numbers(1e12) at the rows-read limit with ClickHouse TOO_MANY_ROWS (158), before reading them', async () => {
    const r = await send('SELECT * FROM numbers(1e12) FORMAT Null');
    expect([r.status, r.code]).toEqual([400, '158']);
    expect(r.text).toMatch(/^Code: 158\. DB::Exception: Limit for rows \(controlled by 'max_rows_to_read' setting\) exceeded/);
  });

  it('cuts a statement at ANALYST_MAX_SECONDS with TIMEOUT_EXCEEDED (159)', async () => {
    const started = Date.now();
    const r = await send(HEAVY);
    expect([r.status, r.code]).toEqual([400, '159']);
    expect(Date.now() - started).toBeLessThan((MAX_SECONDS + 5) * 1000);
  });

  it('cuts a result over ANALYST_MAX_RESULT_MB with TOO_MANY_ROWS_OR_BYTES (396) and memory over ANALYST_MAX_MEMORY_MB with MEMORY_LIMIT_EXCEEDED (241)', async () => {
    const result = await send('SELECT number FROM numbers(10000000)');
    expect([result.status, result.code]).toEqual([400, '396']);
    const memory = await send('SELECT groupArray(number) FROM numbers(100000000) FORMAT Null');
    expect([memory.status, memory.code]).toEqual([400, '241']);
  });

  it('cancels the statement in the engine when the client hangs up', async () => {
    const client = new AbortController();
    const answer = send(HEAVY, { signal: client.signal }).catch((e: unknown) => e);
    expect(await until(async () => (await running(true)) === 1, 3_000)).toBe(true);
    const hungUpAt = Date.now();
    client.abort();
    await answer;
    // Gone well before the time limit would have ended it.
    expect(await until(async () => (await running()) === 0, 2_000)).toBe(true);
    expect(Date.now() - hungUpAt).toBeLessThan(MAX_SECONDS * 1000);
    expect(await slotFree()).toBe(true);
  });

  it('refuses a statement over ANALYST_CONCURRENCY with 429, Retry-After and TOO_MANY_SIMULTANEOUS_QUERIES (202), and serves /health meanwhile', async () => {
    const client = new AbortController();
    const first = send(HEAVY, { signal: client.signal }).catch((e: unknown) => e);
    expect(await until(async () => (await running(true)) === 1, 3_000)).toBe(true);
    const second = await send('SELECT 1');
    expect([second.status, second.code, second.retryAfter]).toEqual([429, '202', '1']);
    const health = await fetch(`${sys.url}/api/v1/health`);
    expect(health.status).toBe(200);
    client.abort();
    await first;
    expect(await until(async () => (await running()) === 0, 2_000)).toBe(true);
    // The slot is free again.
    expect((await send('SELECT 1')).text).toBe('1\n');
  });

  it(`locks an address out after ${MAX_FAILED_LOGINS} failed sign-ins, even with the right password, and never logs a password`, async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const r = await send('SELECT 1', { password: `wrong-${i}` });
      expect([r.status, r.code]).toEqual([401, '516']);
    }
    const locked = await send('SELECT 1');
    expect([locked.status, locked.code]).toEqual([429, '516']);
    expect(Number(locked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(60);
    const logs = logLines.join('');
    expect(logs).toContain('sign-in refused');
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain('wrong-0');
  });
});
