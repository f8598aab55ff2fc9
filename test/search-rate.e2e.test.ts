import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { exchangeRawTick } from './support/exchange-tick.js';
import { rawTick } from './support/raw-tick.js';
import { callMcpTool } from './support/mcp-call.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { SseClient, wsSnapshotList } from './support/stream-clients.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

// The engines search at the lowest exchange commission rate an account has: an arbitrage that
// holds at 2 % but not at the exchange's 5 % exists only while an account is on 2 %, and is
// served only to callers on a rate it holds at.

const START = Date.now() + 24 * 60 * 60 * 1000;
const HOME = 'Los Angeles Lakers';
const AWAY = 'Boston Celtics';
/** Priced now: fresh for the whole test. */
const NOW = { ts: Date.now() };
type Row = Record<string, unknown>;

// Caesars' home at +138 (2.38) against a lay of home at 2.32 (40 waiting): the lay pays -139 at
// 5 % (1/2.38 + 1/1.7194 = 1.0018, nothing) and -135 at 2 % (0.9946, a 0.5393 % arbitrage).
const ticks: RawTick[] = [
  exchangeRawTick(START, HOME, { back: 2.3, backSize: 100, lay: 2.32, laySize: 40 }, NOW),
  exchangeRawTick(START, AWAY, { back: 1.68, backSize: 100, lay: 1.7, laySize: 100 }, NOW),
  rawTick(START, { book: 'caesars', bookEventId: 'caesars-1', outcome: HOME, priceAmerican: 138, ...NOW }),
  rawTick(START, { book: 'caesars', bookEventId: 'caesars-1', outcome: AWAY, priceAmerican: -300, ...NOW }),
];
const BOOKS = 'sportsbook=caesars,betfair_ex_eu';
const OTHER_KEY = 'enterprise-other-account';

let sys: TestSystem;
let key: string;
const data = (r: { body: Row }): Row[] => r.body['data'] as Row[];
const arbitrages = async (k: string, query = ''): Promise<Row[]> =>
  data(await sys.get(`/api/v1/opportunities/arbitrage?${BOOKS}${query}`, k));
const setRate = (rate: number | null) => sys.send('PATCH', '/api/v1/account', { key, body: { exchange_commission: rate } });
const figures = (list: Row[]) =>
  list.map((a) => [a['profit_percentage'], ((a['legs'] ?? []) as Row[]).map((l) => [l['sportsbook'], l['side'], l['odds_american']])]);

/** Polls `read` until `done` holds (the rate reaches the pipeline through the accounts topic), at most 10 s. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function mcpArbitrages(k: string): Promise<Row[]> {
  const r = await callMcpTool(sys.url, k, 'find_arbitrage', { sportsbook: ['caesars', 'betfair_ex_eu'] });
  return ((r.structuredContent as Row)['data'] as Row[]) ?? [];
}

async function sseArbitrages(k: string): Promise<Row[]> {
  const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&${BOOKS}&api_key=${k}`);
  try {
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    return ((c.frames.find((f) => f.event === 'snapshot')?.data as Record<string, Row[]>)['arbitrage'] ?? []) as Row[];
  } finally {
    c.close();
  }
}

async function wsArbitrages(k: string): Promise<Row[]> {
  return (await wsSnapshotList(
    `${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${k}&channels=arbitrage&${BOOKS}`,
    'opportunities_snapshot',
    'arbitrage',
  )) as Row[];
}

beforeAll(async () => {
  sys = await startTestSystem({ API_KEYS: `enterprise:${OTHER_KEY}` }, { feed: () => new ScriptedFeed(ticks) });
  key = sys.demoKeys.enterprise;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
});

const AT_TWO = [
  [
    0.5393,
    [
      ['caesars', 'back', 138],
      ['betfair_ex_eu', 'lay', -135],
    ],
  ],
];

describe('an arbitrage that holds only below the exchange’s rate', () => {
  it('is not found while no account is on a lower rate, even for a caller asking for 2 %', async () => {
    expect(await arbitrages(key)).toEqual([]);
    expect(await arbitrages(key, '&commission=2')).toEqual([]);
  });

  it('is found once an account is on 2 %, and served to it on REST, MCP, SSE and WebSocket', async () => {
    expect((await setRate(2)).status).toBe(200);
    expect(
      figures(
        await until(
          () => arbitrages(key),
          (l) => l.length > 0,
        ),
      ),
    ).toEqual(AT_TWO);
    expect(figures(await mcpArbitrages(key))).toEqual(AT_TWO);
    expect(figures(await sseArbitrages(key))).toEqual(AT_TWO);
    expect(figures(await wsArbitrages(key))).toEqual(AT_TWO);
    // At 3 % it still holds (the lay pays -136), under the list's default 0.5 % floor; at the
    // exchange's own 5 % it does not.
    expect(figures(await arbitrages(key, '&commission=3&min_profit=0'))).toEqual([
      [
        0.3573,
        [
          ['caesars', 'back', 138],
          ['betfair_ex_eu', 'lay', -136],
        ],
      ],
    ]);
    expect(await arbitrages(key, '&commission=5&min_profit=0')).toEqual([]);
  });

  it('is not served to a caller of another account at the board’s rate, on any surface', async () => {
    expect(await arbitrages(OTHER_KEY, '&min_profit=0')).toEqual([]);
    expect(await mcpArbitrages(OTHER_KEY)).toEqual([]);
    expect(await sseArbitrages(OTHER_KEY)).toEqual([]);
    expect(await wsArbitrages(OTHER_KEY)).toEqual([]);
  });

  it('is gone once the account is back on 5 %', async () => {
    expect((await setRate(5)).status).toBe(200);
    expect(
      await until(
        () => arbitrages(key, '&commission=2'),
        (l) => l.length === 0,
      ),
    ).toEqual([]);
    expect(await arbitrages(key)).toEqual([]);
    await setRate(null);
  });
});
