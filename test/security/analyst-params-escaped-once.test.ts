import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem } from '../support/system.js';
import type { TestSystem } from '../support/system.js';

/**
 * The analyst endpoint handed `param_<name>` values to chDB's parameter binding, which escapes a
 * string a second time. `@clickhouse/client` already sends O'Brien as `O\'Brien` (ClickHouse
 * parses a parameter's text by its type, unescaping), so the statement saw `O\'Brien`, backslash
 * and all, and a filter on a player's name matched nothing. The parameters are now set in the
 * analyst session's own `SET`, before `readonly = 1`, as the text the client sent: that SET runs
 * with full rights, so a name must be a plain name and a value stays a literal.
 */
const PASSWORD = 'analyst-secret';
let sys: TestSystem;

beforeAll(async () => {
  sys = await startTestSystem({
    FEED: 'replay',
    REPLAY_FILE: 'pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl',
    ANALYST_PORT: '0',
    ANALYST_PASSWORD: PASSWORD,
  });
});

afterAll(async () => {
  await sys?.close();
});

async function send(sql: string, params: [string, string][]): Promise<{ status: number; code: string | null; text: string }> {
  const search = new URLSearchParams(params.map(([name, value]): [string, string] => [`param_${name}`, value]));
  const res = await fetch(`${sys.analystUrl}/?${search.toString()}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`analyst:${PASSWORD}`).toString('base64')}` },
    body: sql,
  });
  return { status: res.status, code: res.headers.get('x-clickhouse-exception-code'), text: await res.text() };
}

describe('the analyst endpoint binds each parameter as ClickHouse does', () => {
  it("gives @clickhouse/client's values back unchanged: quotes, backslashes, tabs, arrays and numbers", async () => {
    const ch = createClient({ url: sys.analystUrl ?? '', username: 'analyst', password: PASSWORD, log: { level: ClickHouseLogLevel.OFF } });
    try {
      const s = 'O\'Brien \\ tab\there "q"';
      const a = ["Ja'Marr", 'back\\slash'];
      const rows = await (
        await ch.query({
          query: 'SELECT {s:String} AS s, {a:Array(String)} AS a, {n:UInt32} + 1 AS n',
          query_params: { s, a, n: 41 },
          format: 'JSONEachRow',
        })
      ).json<{ s: string; a: string[]; n: number }>();
      expect(rows).toEqual([{ s, a, n: 42 }]);
    } finally {
      await ch.close();
    }
  });

  it('refuses a parameter whose name is not a plain name, naming it, and runs nothing', async () => {
    const r = await send('SELECT getSetting({v:String}) AS v FORMAT TSV', [
      ['v', 'readonly'],
      ['x = 1, readonly = 0, param_y', '1'],
    ]);
    expect([r.status, r.code]).toEqual([400, '36']);
    expect(r.text).toContain("Query parameter 'param_x = 1, readonly = 0, param_y' is not a valid parameter name");
  });

  it('keeps a value that would close the SET as one literal: the session stays read-only', async () => {
    const r = await send("SELECT {v:String} AS v, getSetting('readonly') AS ro FORMAT TSV", [
      ['v', "x', readonly = 0, max_threads = '64"],
      ['__proto__', 'kept'],
    ]);
    expect([r.status, r.text]).toEqual([200, "x\\', readonly = 0, max_threads = \\'64\t1\n"]);
    const proto = await send('SELECT {__proto__:String} AS p FORMAT TSV', [['__proto__', 'kept']]);
    expect([proto.status, proto.text]).toEqual([200, 'kept\n']);
  });
});
