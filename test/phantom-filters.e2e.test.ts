/**
 * Phantom opportunities (docs/opportunities.md, "Phantom filters"): an arbitrage above the profit
 * ceiling, or one built on a price far older than its book's cadence, carries its flag and is left
 * out of the default lists of REST, MCP and the streams; `include=suspicious` shows it. A bad
 * `include` is refused naming it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';
import { SseClient } from './support/stream-clients.js';

type Row = Record<string, unknown>;
const START = Date.now() + 24 * 3600_000;
const NOW = Date.now();
/** Twenty minutes: past 5 x the 60 s pre-match threshold of a book without a measured cadence. */
const OLD = NOW - 20 * 60_000;

function tick(book: string, market: RawTick['market'], outcome: string, line: number | null, price: number, ts = NOW): RawTick {
  return {
    book,
    bookEventId: `${book}-1`,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: START,
    isLive: false,
    market,
    outcome,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: 'open',
    ts,
    selectionId: null,
  };
}

// Moneyline: DraftKings Celtics +150 with FanDuel Lakers +150, a 25 % arbitrage (over the ceiling).
// Spread: DraftKings Lakers -2.5 +105 with FanDuel Celtics +2.5 +105, a 2.5 % arbitrage, fresh.
// Total points: the same 2.5 % on 220.5, but on prices twenty minutes old (very stale).
const TICKS: RawTick[] = [
  tick('draftkings', 'moneyline', 'Los Angeles Lakers', null, -200),
  tick('draftkings', 'moneyline', 'Boston Celtics', null, 150),
  tick('fanduel', 'moneyline', 'Los Angeles Lakers', null, 150),
  tick('fanduel', 'moneyline', 'Boston Celtics', null, -200),
  tick('draftkings', 'point_spread', 'Los Angeles Lakers', -2.5, 105),
  tick('draftkings', 'point_spread', 'Boston Celtics', 2.5, -125),
  tick('fanduel', 'point_spread', 'Los Angeles Lakers', -2.5, -125),
  tick('fanduel', 'point_spread', 'Boston Celtics', 2.5, 105),
  tick('draftkings', 'total_points', 'Over', 220.5, 105, OLD),
  tick('draftkings', 'total_points', 'Under', 220.5, -125, OLD),
  tick('fanduel', 'total_points', 'Over', 220.5, -125, OLD),
  tick('fanduel', 'total_points', 'Under', 220.5, 105, OLD),
];

let sys: TestSystem;
let key: string;
beforeAll(async () => {
  const feed = new ScriptedFeed(TICKS);
  sys = await startTestSystem({}, { feed: () => feed });
  key = sys.demoKeys.sharp;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
});

/** market -> warnings of each arbitrage row, sorted by market. */
const byMarket = (rows: Row[]): [string, string[]][] =>
  rows.map((r): [string, string[]] => [r['market'] as string, r['warnings'] as string[]]).sort((a, b) => (a[0] < b[0] ? -1 : 1));

async function restRows(path: string): Promise<Row[]> {
  const r = await sys.get(path, key);
  expect([path, r.status, r.status === 200 ? null : r.body]).toEqual([path, 200, null]);
  return r.body['data'] as Row[];
}

describe('phantom filters on REST', () => {
  it('leaves both phantom arbitrages out of the default list and shows them flagged with include=suspicious', async () => {
    expect(byMarket(await restRows('/api/v1/opportunities/arbitrage'))).toEqual([['point_spread', []]]);
    expect(byMarket(await restRows('/api/v1/opportunities/arbitrage?include=suspicious'))).toEqual([
      ['moneyline', ['LIVE_HIGH_PROFIT_SUSPICIOUS']],
      ['point_spread', []],
      ['total_points', ['POTENTIALLY_STALE_ODDS', 'VERY_STALE_ODDS']],
    ]);
  });

  it('counts only what it lists in the summary', async () => {
    const r = await sys.get('/api/v1/opportunities/arbitrage', key);
    expect((r.body['meta'] as Row)['summary']).toMatchObject({ count: 1, by_market: { point_spread: 1 } });
  });

  it('applies to the low-hold list too: a negative hold of 25 % is the same phantom arbitrage', async () => {
    const markets = async (q: string): Promise<string[]> =>
      (await restRows(`/api/v1/opportunities/low_hold${q}`)).map((r) => r['market'] as string).sort();
    expect(await markets('')).toEqual(['point_spread']);
    expect(await markets('?include=suspicious')).toEqual(['moneyline', 'point_spread', 'total_points']);
  });

  it('takes include=methods,suspicious on the +EV list, and refuses an unknown include naming it', async () => {
    expect((await sys.get('/api/v1/opportunities/ev?include=methods,suspicious', key)).status).toBe(200);
    for (const path of ['/api/v1/opportunities/arbitrage?include=methods', '/api/v1/opportunities/ev?include=everything']) {
      const r = await sys.get(path, key);
      expect([path, r.status, (r.body['error'] as Row)['code']]).toEqual([path, 400, 'invalid_request']);
      expect((r.body['error'] as Row)['message']).toContain('include');
    }
  });
});

describe('phantom filters on MCP', () => {
  async function call(args: Row): Promise<CallToolResult> {
    const client = new Client({ name: 'phantom-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${sys.url}/api/v1/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
    );
    try {
      return (await client.callTool({ name: 'find_arbitrage', arguments: args })) as CallToolResult;
    } finally {
      await client.close();
    }
  }

  it('answers find_arbitrage as REST does: default without the phantoms, include=suspicious with them', async () => {
    const rows = async (args: Row): Promise<Row[]> => (((await call(args)).structuredContent as Row)['data'] as Row[]) ?? [];
    expect(byMarket(await rows({}))).toEqual([['point_spread', []]]);
    expect(byMarket(await rows({ include: 'suspicious' })).map(([m]) => m)).toEqual(['moneyline', 'point_spread', 'total_points']);
    const bad = await call({ include: 'all' });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('include');
  });
});

describe('phantom filters on the SSE stream', () => {
  async function arbitrageSnapshot(query: string): Promise<Row[]> {
    const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&api_key=${key}${query}`);
    expect([query, c.status, c.body]).toEqual([query, 200, null]);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    c.close();
    return (c.frames.find((f) => f.event === 'snapshot')?.data as Record<string, Row[]>)['arbitrage'] ?? [];
  }

  it('streams the default list without the phantoms and with them on include=suspicious', async () => {
    expect(byMarket(await arbitrageSnapshot(''))).toEqual([['point_spread', []]]);
    expect(byMarket(await arbitrageSnapshot('&include=suspicious')).map(([m]) => m)).toEqual(['moneyline', 'point_spread', 'total_points']);
  });

  it('refuses a bad include before the stream opens, naming it', async () => {
    const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&api_key=${key}&include=everything`);
    expect(c.status).toBe(400);
    expect(JSON.stringify(c.body)).toContain('include');
  });
});
