import { readFileSync } from 'node:fs';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem } from '../test/support/system.js';
import type { TestSystem } from '../test/support/system.js';

const FIXTURE = 'pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl';

describe('the analyst endpoint over the embedded store', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem({
      FEED: 'replay',
      REPLAY_FILE: FIXTURE,
      SINK_MAX_WAIT_MS: '20',
      ANALYST_PORT: '0',
      ANALYST_PASSWORD: 'analyst-secret',
    });
    // The recording diffs into 34 ticks: wait until the sink stored them all.
    const end = Date.now() + 20_000;
    while (Number((await sys.store.query<{ n: number }>('SELECT count() AS n FROM odds_ticks FINAL'))[0]?.n) < 34 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => sys?.close());

  const client = (password = 'analyst-secret') =>
    createClient({ url: sys.analystUrl ?? '', username: 'analyst', password, log: { level: ClickHouseLogLevel.OFF } });

  it('answers @clickhouse/client queries while the service runs', async () => {
    const ch = client();
    try {
      expect((await ch.ping()).success).toBe(true);
      const rs = await ch.query({
        query: 'SELECT sportsbook, count() AS n FROM odds_ticks FINAL GROUP BY sportsbook ORDER BY sportsbook',
        format: 'JSONEachRow',
      });
      const rows = await rs.json<{ sportsbook: string; n: number | string }>();
      expect(rows.reduce((s, r) => s + Number(r.n), 0)).toBe(34);
      expect(rows.map((r) => r.sportsbook)).toEqual([...rows.map((r) => r.sportsbook)].sort());
      const events = await (
        await ch.query({ query: 'SELECT count() AS n FROM events FINAL', format: 'JSON' })
      ).json<{ n: number | string }>();
      expect(Number(events.data[0]?.n)).toBeGreaterThan(0);
    } finally {
      await ch.close();
    }
  });

  it("answers plain HTTP with the statement's FORMAT, TabSeparated by default", async () => {
    const auth = { authorization: `Basic ${Buffer.from('analyst:analyst-secret').toString('base64')}` };
    const csv = await fetch(`${sys.analystUrl}/?query=${encodeURIComponent("SELECT 1 AS a, 'x' AS b FORMAT CSVWithNames")}`, {
      headers: auth,
    });
    expect([csv.status, await csv.text()]).toEqual([200, '"a","b"\n1,"x"\n']);
    const tsv = await fetch(`${sys.analystUrl}/`, { method: 'POST', headers: auth, body: 'SELECT 2, 3' });
    expect(await tsv.text()).toBe('2\t3\n');
  });

  it('refuses other credentials', async () => {
    const ch = client('wrong-password');
    try {
      await expect(ch.query({ query: 'SELECT 1', format: 'JSONEachRow' })).rejects.toThrow(/Authentication failed/);
    } finally {
      await ch.close();
    }
  });

  it('runs every example query of docs/analysts.md', async () => {
    const doc = readFileSync(new URL('../docs/analysts.md', import.meta.url), 'utf8');
    const queries = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(queries.length).toBeGreaterThanOrEqual(4);
    const ch = client();
    try {
      for (const query of queries) {
        const rows = await (await ch.query({ query: query.replace(/;\s*$/, ''), format: 'JSONEachRow' })).json();
        expect(Array.isArray(rows), query).toBe(true);
      }
    } finally {
      await ch.close();
    }
  });
});
