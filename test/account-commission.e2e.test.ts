import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeQuote, RawTick } from '../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../pipeline/odds-math/index.js';
import { callMcpTool } from './support/mcp-call.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { SseClient, WsClient, wsSnapshotList } from './support/stream-clients.js';
import { comparableRow } from './support/comparable-row.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

// `commission=`: a caller's own exchange rate, applied at request time to the rows and
// opportunities the board holds at the exchange's base rate (5 %), over REST and the streams.

const START = Date.now() + 24 * 60 * 60 * 1000;
type Row = Record<string, unknown>;

function raw(book: string, outcome: 'home' | 'away', price: number, exchange?: ExchangeQuote): RawTick {
  return {
    book,
    bookEventId: `${book}-1`,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: START,
    isLive: false,
    market: 'moneyline',
    outcome: outcome === 'home' ? 'Los Angeles Lakers' : 'Boston Celtics',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: 'open',
    ts: Date.now(),
    selectionId: null,
    ...(exchange ? { exchange } : {}),
  };
}

function exchangeRaw(outcome: 'home' | 'away', quote: Omit<ExchangeQuote, 'commission' | 'volume'>): RawTick {
  const price = decimalToAmerican(netBackDecimal(quote.back ?? 0, 5));
  return raw('betfair_ex_eu', outcome, price, { ...quote, volume: 1000, commission: 5 });
}

// Caesars' home 2.5 against a lay of home at 2.32 (40 waiting): an arbitrage of 1.88 % at 5 %.
const ticks: RawTick[] = [
  exchangeRaw('home', { back: 2.3, backSize: 100, lay: 2.32, laySize: 40 }),
  exchangeRaw('away', { back: 1.68, backSize: 100, lay: 1.7, laySize: 100 }),
  raw('caesars', 'home', 150),
  raw('caesars', 'away', -200),
  // The +EV reference: an exchange home back net of commission is priced against Pinnacle's line.
  raw('pinnacle', 'home', 100),
  raw('pinnacle', 'away', -120),
];
const BOOKS = 'sportsbook=caesars,betfair_ex_eu';

let sys: TestSystem;
let feed: ScriptedFeed;
let key: string;
const data = (r: { body: Row }): Row[] => r.body['data'] as Row[];
const arbitrages = async (query: string): Promise<Row[]> => data(await sys.get(`/api/v1/opportunities/arbitrage?${BOOKS}${query}`, key));

beforeAll(async () => {
  feed = new ScriptedFeed(ticks);
  sys = await startTestSystem({}, { feed: () => feed });
  key = sys.demoKeys.enterprise;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
});

describe('commission= on the opportunity lists', () => {
  it('re-prices the lay leg and the arbitrage at the caller’s rate', async () => {
    const board = await arbitrages('');
    expect(board.map((a) => [a['profit_percentage'], a['max_stake']])).toEqual([[1.8755, 89.11]]);
    const cheap = await arbitrages('&commission=2');
    expect(cheap.map((a) => [a['profit_percentage'], a['max_stake']])).toEqual([[2.6201, 89.56]]);
    const legs = (cheap[0]?.['legs'] ?? []) as Row[];
    expect(legs.map((l) => [l['sportsbook'], l['side'], l['odds_american'], l['lay_odds']])).toEqual([
      ['caesars', 'back', 150, undefined],
      ['betfair_ex_eu', 'lay', -135, 2.32],
    ]);
  });

  it('leaves out an arbitrage the caller’s rate makes unprofitable', async () => {
    // Lay 2.32 at 20 %: 1 + 0.8/1.32 = 1.606, and 1/2.5 + 1/1.606 is over 1.
    expect(await arbitrages('&commission=20')).toEqual([]);
  });

  it('answers a rate outside 0 to under 100 with the error envelope naming the field', async () => {
    for (const bad of ['100', '-1', 'five']) {
      const r = await sys.get(`/api/v1/opportunities/arbitrage?commission=${bad}`, key);
      const error = r.body['error'] as Row;
      expect([r.status, error['code'], String(error['message']).includes('commission')]).toEqual([400, 'invalid_request', true]);
    }
  });
});

describe('commission= on the +EV list', () => {
  it('prices an exchange’s +EV price and its EV at the caller’s rate, and leaves out one the rate leaves without an edge', async () => {
    const ev = async (query: string) =>
      data(await sys.get(`/api/v1/opportunities/ev?sportsbook=betfair_ex_eu&min_ev=0${query}`, key)).map((r) => [
        r['selection_type'],
        r['odds_american'],
        r['ev_percentage'],
      ]);
    // Back 2.3 pays +124 at 5 % and +127 at 2 %; against Pinnacle's +100 / -120 that is +6.80 % and +8.23 %.
    expect(await ev('')).toEqual([['home', 124, 6.7967]]);
    expect(await ev('&commission=2')).toEqual([['home', 127, 8.227]]);
    expect(await ev('&commission=20')).toEqual([]);
  });
});

describe('commission= on /odds', () => {
  it('shows an exchange row’s back net of the caller’s rate, and its rate', async () => {
    const rows = async (query: string): Promise<Row[]> =>
      data(await sys.get(`/api/v1/odds?sportsbook=betfair_ex_eu&market=moneyline${query}`, key)).filter(
        (r) => r['selection_type'] === 'home',
      );
    // Back 2.3 pays 2.235 at 5 % (+124) and 2.274 at 2 % (+127).
    expect((await rows('')).map((r) => [r['odds_american'], r['back'], r['commission']])).toEqual([[124, 2.3, 5]]);
    expect((await rows('&commission=2')).map((r) => [r['odds_american'], r['back'], r['commission']])).toEqual([[127, 2.3, 2]]);
  });
});

const snapshot = async (query: string): Promise<Row[]> => {
  const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&${BOOKS}&api_key=${key}${query}`);
  try {
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    return ((c.frames.find((f) => f.event === 'snapshot')?.data as Record<string, Row[]>)['arbitrage'] ?? []) as Row[];
  } finally {
    c.close();
  }
};

describe('commission= on the opportunity stream', () => {
  it('streams the arbitrage at the subscriber’s rate, as REST lists it', async () => {
    expect((await snapshot('&commission=2')).map((a) => [a['profit_percentage'], a['max_stake']])).toEqual([[2.6201, 89.56]]);
    expect(await snapshot('&commission=20')).toEqual([]);
  });

  it('refuses a bad rate before the stream opens', async () => {
    const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&api_key=${key}&commission=100`);
    expect([c.status, ((c.body as Row)['error'] as Row)['code']]).toEqual([400, 'invalid_request']);
  });
});

describe('the account’s own rate (PATCH /account exchange_commission)', () => {
  const setRate = (rate: unknown) => sys.send('PATCH', '/api/v1/account', { key, body: { exchange_commission: rate } });
  const profits = (list: Row[]) => list.map((a) => a['profit_percentage']);

  const mcpTool = (name: string, args: Row): Promise<CallToolResult> => callMcpTool(sys.url, key, name, args);

  it('is set and cleared by the set_account_commission tool too', async () => {
    const set = await mcpTool('set_account_commission', { exchange_commission: 2 });
    expect(((set.structuredContent as Row)['data'] as Row)['exchange_commission']).toBe(2);
    expect(((await sys.get('/api/v1/account', key)).body['data'] as Row)['exchange_commission']).toBe(2);
    const bad = await mcpTool('set_account_commission', { exchange_commission: 100 });
    expect([bad.isError, JSON.stringify(bad.content).includes('exchange_commission')]).toEqual([true, true]);
    await mcpTool('set_account_commission', { exchange_commission: null });
    expect(((await sys.get('/api/v1/account', key)).body['data'] as Row)['exchange_commission']).toBeNull();
  });

  async function mcpArbitrages(args: Row): Promise<Row[]> {
    const r = await mcpTool('find_arbitrage', { sportsbook: ['caesars', 'betfair_ex_eu'], ...args });
    return ((r.structuredContent as Row)['data'] as Row[]) ?? [];
  }

  async function wsArbitrages(): Promise<Row[]> {
    return (await wsSnapshotList(
      `${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}&channels=arbitrage&${BOOKS}`,
      'opportunities_snapshot',
      'arbitrage',
    )) as Row[];
  }

  it('is null until set, shown in GET /account, and cleared by null', async () => {
    expect(((await sys.get('/api/v1/account', key)).body['data'] as Row)['exchange_commission']).toBeNull();
    const set = await setRate(2);
    expect([set.status, (set.body['data'] as Row)['exchange_commission']]).toEqual([200, 2]);
    expect(((await sys.get('/api/v1/account', key)).body['data'] as Row)['exchange_commission']).toBe(2);
    const cleared = await setRate(null);
    expect([cleared.status, (cleared.body['data'] as Row)['exchange_commission']]).toEqual([200, null]);
  });

  it('refuses a rate outside 0 to under 100 with the error envelope naming the field', async () => {
    for (const bad of [100, -1, 'five']) {
      const r = await setRate(bad);
      const error = r.body['error'] as Row;
      expect([r.status, error['code'], String(error['message']).includes('exchange_commission')]).toEqual([400, 'invalid_request', true]);
    }
    const r = await sys.send('PATCH', '/api/v1/account', { key, body: {} });
    expect([r.status, String((r.body['error'] as Row)['message']).includes('exchange_commission')]).toEqual([400, true]);
  });

  it('is the default rate of REST, MCP, SSE and WebSocket answers; commission= overrides it', async () => {
    await setRate(2);
    try {
      expect(profits(await arbitrages(''))).toEqual([2.6201]);
      expect(profits(await arbitrages('&commission=5'))).toEqual([1.8755]);
      expect(profits(await mcpArbitrages({}))).toEqual([2.6201]);
      expect(profits(await mcpArbitrages({ commission: 5 }))).toEqual([1.8755]);
      expect(profits(await snapshot(''))).toEqual([2.6201]);
      expect(profits(await wsArbitrages())).toEqual([2.6201]);
      await setRate(20);
      expect(await arbitrages('')).toEqual([]);
    } finally {
      await setRate(null);
    }
    expect(profits(await arbitrages(''))).toEqual([1.8755]);
  });
});

describe('commission= on /odds/best, /odds/comparison and /odds/batch', () => {
  const event = async (): Promise<string> =>
    String((data(await sys.get(`/api/v1/odds?sportsbook=betfair_ex_eu&market=moneyline`, key))[0] as Row)['event_id']);
  const prices = (rows: Row[]) => rows.map((r) => [r['sportsbook'], r['selection_type'], r['odds_american'], r['commission']]);

  it('picks the best book by the caller’s prices, an exchange priced at the caller’s rate', async () => {
    const best = async (query: string) => prices(data(await sys.get(`/api/v1/odds/best?${BOOKS}&market=moneyline${query}`, key)));
    // Away: back 1.68 pays 1.646 at 5 % (-155) and 1.666 at 2 % (-150), still the best away price.
    expect(await best('')).toEqual([
      ['caesars', 'home', 150, undefined],
      ['betfair_ex_eu', 'away', -155, 5],
    ]);
    expect(await best('&commission=2')).toEqual([
      ['caesars', 'home', 150, undefined],
      ['betfair_ex_eu', 'away', -150, 2],
    ]);
    // At 30 % the away back pays 1.476 (-210): Caesars' -200 is the caller's best away price.
    expect(await best('&commission=30')).toEqual([
      ['caesars', 'home', 150, undefined],
      ['caesars', 'away', -200, undefined],
    ]);
  });

  it('re-orders a comparison best first at the caller’s rate', async () => {
    const id = await event();
    const comparison = async (query: string) =>
      (await sys.get(`/api/v1/odds/comparison?event=${id}&${BOOKS}&market=moneyline${query}`, key)).body['data'] as Record<string, Row[]>;
    const byKey = async (query: string) =>
      Object.fromEntries(Object.entries(await comparison(query)).map(([k, rows]) => [k, prices(rows)]));
    expect(await byKey('')).toEqual({
      'moneyline:away': [
        ['betfair_ex_eu', 'away', -155, 5],
        ['caesars', 'away', -200, undefined],
      ],
      'moneyline:home': [
        ['caesars', 'home', 150, undefined],
        ['betfair_ex_eu', 'home', 124, 5],
      ],
    });
    // At 30 % the away back pays 1.476 (-210): Caesars' -200 is now the better price and comes first.
    expect(await byKey('&commission=30')).toEqual({
      'moneyline:away': [
        ['caesars', 'away', -200, undefined],
        ['betfair_ex_eu', 'away', -210, 30],
      ],
      'moneyline:home': [
        ['caesars', 'home', 150, undefined],
        ['betfair_ex_eu', 'home', -110, 30],
      ],
    });
  });

  it('prices a batch’s exchange rows at the body’s rate, and at the account’s by default', async () => {
    const id = await event();
    const batch = async (body: Row) =>
      prices(
        (
          (await sys.post('/api/v1/odds/batch', { event_ids: [id], sportsbook: 'betfair_ex_eu', market: 'moneyline', ...body }, key)).body[
            'data'
          ] as Record<string, Row[]>
        )[id] ?? [],
      );
    const board = [
      ['betfair_ex_eu', 'home', 124, 5],
      ['betfair_ex_eu', 'away', -155, 5],
    ];
    const atTwo = [
      ['betfair_ex_eu', 'home', 127, 2],
      ['betfair_ex_eu', 'away', -150, 2],
    ];
    expect(await batch({})).toEqual(board);
    expect(await batch({ commission: 2 })).toEqual(atTwo);
    await sys.send('PATCH', '/api/v1/account', { key, body: { exchange_commission: 2 } });
    try {
      expect(await batch({})).toEqual(atTwo);
      expect(await batch({ commission: 5 })).toEqual(board);
    } finally {
      await sys.send('PATCH', '/api/v1/account', { key, body: { exchange_commission: null } });
    }
  });
});

describe('commission= on /odds/delta', () => {
  it('prices changed exchange rows at the caller’s rate', async () => {
    // From the start of the change window (the refusal of an older `since` names it): every row is a change.
    const refused = await sys.get(`/api/v1/odds/delta?since=2000-01-01T00:00:00Z`, key);
    const since = /oldest answerable: (\S+)\)/.exec(String((refused.body['error'] as Row)['message']))?.[1] ?? '';
    const delta = async (query: string) =>
      data(await sys.get(`/api/v1/odds/delta?since=${since}&sportsbook=betfair_ex_eu&market=moneyline${query}`, key)).map((r) => [
        r['selection_type'],
        r['odds_american'],
        r['commission'],
      ]);
    expect(await delta('')).toEqual([
      ['home', 124, 5],
      ['away', -155, 5],
    ]);
    expect(await delta('&commission=2')).toEqual([
      ['home', 127, 2],
      ['away', -150, 2],
    ]);
  });
});

describe('the odds stream at the caller’s rate', () => {
  const EXCHANGE = 'sportsbook=betfair_ex_eu&market=moneyline';
  const homeOf = (rows: Row[]) => rows.filter((r) => r['selection_type'] === 'home');
  const setRate = (k: string, rate: number | null) => sys.send('PATCH', '/api/v1/account', { key: k, body: { exchange_commission: rate } });
  const restHome = async (k: string): Promise<Row[]> => homeOf(data(await sys.get(`/api/v1/odds?${EXCHANGE}`, k)));
  const priced = (rows: Row[]) => rows.map((r) => [r['odds_american'], r['back'], r['commission']]);
  const same = (rows: Row[]) => rows.map(comparableRow);

  async function sseHome(k: string, change: () => Promise<void>): Promise<{ snapshot: Row[]; update: Row[] }> {
    const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=odds&${EXCHANGE}&api_key=${k}`);
    try {
      await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
      const snapshot = homeOf(c.frames.filter((f) => f.event === 'snapshot').flatMap((f) => (f.data as Row)['odds'] as Row[]));
      await change();
      await c.until((f) => f.some((x) => x.event === 'odds:update'));
      const update = homeOf(c.frames.filter((f) => f.event === 'odds:update').flatMap((f) => (f.data as Row)['odds'] as Row[]));
      return { snapshot, update };
    } finally {
      c.close();
    }
  }

  async function wsHome(k: string, change: () => Promise<void>): Promise<{ snapshot: Row[]; update: Row[] }> {
    const c = await WsClient.open(`${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${k}&channels=odds&${EXCHANGE}`);
    try {
      await c.until((m) => m.some((x) => x['type'] === 'snapshot:complete'));
      const snapshot = homeOf(c.messages.filter((m) => m['type'] === 'initial').flatMap((m) => m['data'] as Row[]));
      await change();
      await c.until((m) => m.some((x) => x['type'] === 'odds:update'));
      const update = homeOf(c.messages.filter((m) => m['type'] === 'odds:update').flatMap((m) => m['data'] as Row[]));
      return { snapshot, update };
    } finally {
      c.close();
    }
  }

  it('sends two accounts on different rates the exchange row /odds answers each of them, in the snapshot and updates, over SSE and WebSocket', async () => {
    const other = sys.demoKeys.sharp;
    await setRate(key, 2);
    await setRate(other, 10);
    const backTo = (back: number) => async (): Promise<void> => {
      await feed.push([exchangeRaw('home', { back, backSize: 100, lay: 2.42, laySize: 40 })]);
    };
    try {
      for (const open of [sseHome, wsHome]) {
        // At 2 %: back 2.3 pays +127, then 2.4 pays +137. At 10 %: back 2.4 pays +126, then 2.3 pays +117.
        const restBefore = await restHome(key);
        const mine = await open(key, backTo(2.4));
        expect([priced(mine.snapshot), priced(mine.update)]).toEqual([[[127, 2.3, 2]], [[137, 2.4, 2]]]);
        expect([same(mine.snapshot), same(mine.update)]).toEqual([same(restBefore), same(await restHome(key))]);

        const theirBefore = await restHome(other);
        const theirs = await open(other, backTo(2.3));
        expect([priced(theirs.snapshot), priced(theirs.update)]).toEqual([[[126, 2.4, 10]], [[117, 2.3, 10]]]);
        expect([same(theirs.snapshot), same(theirs.update)]).toEqual([same(theirBefore), same(await restHome(other))]);
      }
    } finally {
      await setRate(key, null);
      await setRate(other, null);
    }
  });

  it('takes commission= as a stream filter over the account’s rate, and refuses a bad one naming the field', async () => {
    const k = sys.demoKeys.sharp;
    await setRate(k, 10);
    try {
      const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=odds&${EXCHANGE}&commission=2&api_key=${k}`);
      await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
      c.close();
      const rows = homeOf(c.frames.filter((f) => f.event === 'snapshot').flatMap((f) => (f.data as Row)['odds'] as Row[]));
      expect(priced(rows)).toEqual([[127, 2.3, 2]]);
      const ws = await WsClient.open(`${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${k}&channels=odds&${EXCHANGE}&commission=2`);
      await ws.until((m) => m.some((x) => x['type'] === 'snapshot:complete'));
      ws.close();
      expect(priced(homeOf(ws.messages.filter((m) => m['type'] === 'initial').flatMap((m) => m['data'] as Row[])))).toEqual([
        [127, 2.3, 2],
      ]);
    } finally {
      await setRate(k, null);
    }
    const refused = await SseClient.open(`${sys.url}/api/v1/stream?channel=odds&api_key=${k}&commission=100`);
    const error = (refused.body as Row)['error'] as Row;
    expect([refused.status, error['code'], String(error['message']).includes('commission')]).toEqual([400, 'invalid_request', true]);
    const bad = await WsClient.open(`${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${k}&channels=odds&commission=-1`);
    expect(await bad.closed()).toBe(1008);
    expect(bad.messages[0]).toMatchObject({
      type: 'error',
      code: 'invalid_filter',
      message: expect.stringContaining("'commission'") as unknown,
    });
  });

  it('moves open streams priced at the account’s rate to its new rate; a stream that named its own keeps it', async () => {
    const sseRows = (frames: { event: string; data: unknown }[], name: string) =>
      homeOf(frames.filter((f) => f.event === name).flatMap((f) => (f.data as Row)['odds'] as Row[]));
    const follows = await SseClient.open(`${sys.url}/api/v1/stream?channel=odds&${EXCHANGE}&api_key=${key}`);
    const own = await SseClient.open(`${sys.url}/api/v1/stream?channel=odds&${EXCHANGE}&commission=5&api_key=${key}`);
    const ws = await WsClient.open(`${sys.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}&channels=odds&${EXCHANGE}`);
    try {
      await follows.until((f) => f.some((x) => x.event === 'snapshot:complete'));
      await own.until((f) => f.some((x) => x.event === 'snapshot:complete'));
      await ws.until((m) => m.some((x) => x['type'] === 'snapshot:complete'));
      const [sseAt, ownAt, wsAt] = [follows.frames.length, own.frames.length, ws.messages.length];
      await setRate(key, 2);
      // SSE: the rows again at the new rate, as a snapshot marked resync (replace what you hold).
      await follows.until((f) => f.slice(sseAt).some((x) => x.event === 'snapshot:complete'));
      const again = follows.frames.slice(sseAt);
      expect(again.map((f) => [f.event, (f.data as Row)['resync']])).toEqual([
        ['snapshot', true],
        ['snapshot:complete', true],
      ]);
      expect(priced(sseRows(again, 'snapshot'))).toEqual([[127, 2.3, 2]]);
      // WebSocket: subscribed and a fresh snapshot, as after a subscribe message.
      await ws.until((m) => m.slice(wsAt).some((x) => x['type'] === 'snapshot:complete'));
      const wsAgain = ws.messages.slice(wsAt);
      expect(wsAgain.map((m) => m['type'])).toEqual(['subscribed', 'initial', 'snapshot:complete']);
      expect(priced(homeOf(wsAgain[1]?.['data'] as Row[]))).toEqual([[127, 2.3, 2]]);
      // Updates from then on are at the new rate; the stream that named 5 % stays at 5 % and was not re-sent.
      await feed.push([exchangeRaw('home', { back: 2.4, backSize: 100, lay: 2.42, laySize: 40 })]);
      await follows.until((f) => f.slice(sseAt).some((x) => x.event === 'odds:update'));
      await own.until((f) => f.slice(ownAt).some((x) => x.event === 'odds:update'));
      await ws.until((m) => m.slice(wsAt).some((x) => x['type'] === 'odds:update'));
      expect(priced(sseRows(follows.frames.slice(sseAt), 'odds:update'))).toEqual([[137, 2.4, 2]]);
      expect(priced(homeOf(ws.messages.slice(wsAt).find((m) => m['type'] === 'odds:update')?.['data'] as Row[]))).toEqual([[137, 2.4, 2]]);
      expect(own.frames.slice(ownAt).map((f) => f.event)).toEqual(['odds:update']);
      expect(priced(sseRows(own.frames.slice(ownAt), 'odds:update'))).toEqual([[133, 2.4, 5]]);
    } finally {
      follows.close();
      own.close();
      ws.close();
      await setRate(key, null);
      await feed.push([exchangeRaw('home', { back: 2.3, backSize: 100, lay: 2.42, laySize: 40 })]);
    }
  });
});
