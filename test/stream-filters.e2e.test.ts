/**
 * The streams take what REST takes: the +EV row filters of `/opportunities/ev` (through the same
 * parser, `api/queries/ev-row-filter.ts`) and `state` for deep links, on SSE as query parameters
 * and on the WebSocket in the query string, `subscribe` and `filter`. A stream's rows are the
 * REST list's rows with the same filters; a bad value is refused naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';
import { SseClient, WsClient } from './support/stream-clients.js';
import type { WsMessage } from './support/stream-clients.js';

type Row = Record<string, unknown>;
const START = Date.now() + 24 * 3600_000;

function tick(book: string, market: RawTick['market'], outcome: string, line: number | null, price: number): RawTick {
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
    ts: Date.now(),
    selectionId: null,
  };
}

// DraftKings' Celtics +105 is +EV against Pinnacle's -110/-110 (2.5 %; Kelly 2.381 %) and, with
// DraftKings' Lakers, a low-hold market; DraftKings -2.5 with FanDuel +4.5 is a middle.
const TICKS: RawTick[] = [
  tick('pinnacle', 'moneyline', 'Los Angeles Lakers', null, -110),
  tick('pinnacle', 'moneyline', 'Boston Celtics', null, -110),
  tick('draftkings', 'moneyline', 'Los Angeles Lakers', null, -115),
  tick('draftkings', 'moneyline', 'Boston Celtics', null, 105),
  tick('draftkings', 'point_spread', 'Los Angeles Lakers', -2.5, -110),
  tick('draftkings', 'point_spread', 'Boston Celtics', 2.5, -110),
  tick('fanduel', 'point_spread', 'Los Angeles Lakers', -4.5, -105),
  tick('fanduel', 'point_spread', 'Boston Celtics', 4.5, -115),
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

const wsUrl = (query: string): string => `${sys.url.replace(/^http/, 'ws')}/ws?api_key=${key}&${query}`;

async function restRows(path: string): Promise<Row[]> {
  const r = await sys.get(path, key);
  expect([path, r.status]).toEqual([path, 200]);
  return r.body['data'] as Row[];
}

const ids = (rows: Row[]): string[] => rows.map((r) => r['id'] as string).sort();

/** The lists of an SSE opportunities snapshot (one chunk here). */
async function sseLists(query: string): Promise<Record<string, Row[]>> {
  const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&api_key=${key}&${query}`);
  expect([query, c.status, c.body]).toEqual([query, 200, null]);
  await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
  c.close();
  return c.frames.find((f) => f.event === 'snapshot')?.data as Record<string, Row[]>;
}

/** The +EV rows of the last WebSocket snapshot in `messages`. */
function wsList(messages: WsMessage[], list: string): Row[] {
  const snapshots = messages.filter((m) => m.type === 'opportunities_snapshot' && m[list] !== undefined);
  return (snapshots[snapshots.length - 1]?.[list] as Row[] | undefined) ?? [];
}

const completes = (m: WsMessage[]): number => m.filter((x) => x.type === 'snapshot:complete').length;

/** Every deep link in a presented answer, at any depth (`deep_link`, and the values of `deep_links`). */
function links(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(links);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'deep_link' && typeof v === 'string'
      ? [v]
      : k === 'deep_links' && typeof v === 'object' && v !== null
        ? Object.values(v).filter((x): x is string => typeof x === 'string')
        : links(v),
  );
}

const FILTERS = [
  'min_kelly=2.3&max_kelly=2.4',
  'min_kelly=2.4',
  'min_confidence=60',
  'max_confidence=10',
  'is_player_prop=false&is_alternate_line=false&arb_available=false',
  'is_player_prop=true',
  'selection=CELTICS',
  'selection=lakers',
  'player_name=LeBron',
  'stat_category=points',
  'devig_book=pinnacle',
  'sharp_book=circa',
];

describe('+EV row filters on the streams', () => {
  it('SSE narrows the +EV list exactly as /opportunities/ev does with the same parameters', async () => {
    const all = await restRows('/api/v1/opportunities/ev?min_ev=2');
    expect(all.length).toBe(1);
    for (const q of FILTERS) {
      const rest = ids(await restRows(`/api/v1/opportunities/ev?min_ev=2&${q}`));
      expect([q, ids((await sseLists(q))['ev'] ?? [])]).toEqual([q, rest]);
    }
    // The other lists are not narrowed by +EV filters.
    expect(ids((await sseLists('min_kelly=50'))['middles'] ?? [])).toEqual(ids(await restRows('/api/v1/opportunities/middles')));
  });

  it('the WebSocket takes them in the query string, in subscribe and in filter, with the same rows', async () => {
    const ws = await WsClient.open(wsUrl('channels=ev&min_kelly=2.4'));
    await ws.until((m) => completes(m) === 1);
    expect(wsList(ws.messages, 'ev')).toEqual([]);
    ws.send({ type: 'filter', filters: { selection: 'celtics', devig_book: ['pinnacle'] } });
    await ws.until((m) => completes(m) === 2);
    expect(ids(wsList(ws.messages, 'ev'))).toEqual(ids(await restRows('/api/v1/opportunities/ev?min_ev=2&selection=celtics')));
    ws.send({ type: 'filter', is_player_prop: 'true' });
    await ws.until((m) => completes(m) === 3);
    expect(wsList(ws.messages, 'ev')).toEqual([]);
    ws.send({ type: 'subscribe', channels: ['ev'], filters: { min_kelly: 2.3, max_kelly: 2.4 } });
    await ws.until((m) => completes(m) === 4);
    expect(ids(wsList(ws.messages, 'ev'))).toEqual(ids(await restRows('/api/v1/opportunities/ev?min_ev=2&min_kelly=2.3&max_kelly=2.4')));
    ws.close();
  });

  it('SSE refuses a bad value with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['min_kelly=lots', "Invalid query parameter 'min_kelly': must be a decimal number, got 'lots'"],
      ['max_confidence=101', "Invalid query parameter 'max_confidence': must be <= 100"],
      ['min_kelly=5&max_kelly=1', "Invalid query parameter 'min_kelly': must not exceed max_kelly"],
      ['is_player_prop=maybe', "Invalid query parameter 'is_player_prop': must be boolean"],
      ['sharp_book=nowhere', "Invalid query parameter 'sharp_book': unknown sportsbook 'nowhere'"],
      ['state=zz', "Invalid query parameter 'state': 'zz' is not a US state code"],
    ];
    for (const [q, message] of cases) {
      const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=opportunities&api_key=${key}&${q}`);
      expect([q, c.status, (c.body as { error: Row }).error]).toEqual([
        q,
        400,
        expect.objectContaining({ code: 'invalid_request', message }),
      ]);
    }
  });

  it('the WebSocket refuses a bad value in the query string (close 1008) and in a message (the socket stays)', async () => {
    const bad = await WsClient.open(wsUrl('channels=ev&max_confidence=101'));
    expect(await bad.closed()).toBe(1008);
    expect(bad.messages[0]).toMatchObject({
      type: 'error',
      code: 'invalid_filter',
      message: "Invalid filter 'max_confidence': must be <= 100",
    });
    const ws = await WsClient.open(wsUrl('channels=ev'));
    await ws.until((m) => completes(m) === 1);
    const errors = (m: WsMessage[]): WsMessage[] => m.filter((x) => x.type === 'error');
    const refused: [unknown, string][] = [
      [{ type: 'filter', min_kelly: 'lots' }, "Invalid filter 'min_kelly': must be number"],
      [{ type: 'filter', filters: { is_alternate_line: 'maybe' } }, "Invalid filter 'is_alternate_line': must be boolean"],
      // Checked by REST's parser, in REST's words.
      [{ type: 'subscribe', filters: { devig_book: 'nowhere' } }, "Invalid query parameter 'devig_book': unknown sportsbook 'nowhere'"],
      [{ type: 'filter', state: 'zz' }, "Invalid filter 'state': 'zz' is not a US state code"],
    ];
    for (const [i, [message, text]] of refused.entries()) {
      ws.send(message);
      await ws.until((m) => errors(m).length === i + 1);
      expect(errors(ws.messages)[i]).toMatchObject({ code: 'invalid_filter', message: text });
    }
    ws.send({ type: 'ping' });
    await ws.until((m) => m.some((x) => x.type === 'pong'));
    expect(completes(ws.messages)).toBe(1);
    ws.close();
  });
});

describe('state on the streams', () => {
  it("SSE rows carry the deep links REST gives for the state: odds, middles and low-hold in the state's form", async () => {
    const c = await SseClient.open(`${sys.url}/api/v1/stream?channel=all&state=NJ&api_key=${key}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    c.close();
    const odds = c.frames.filter((f) => f.event === 'snapshot' && (f.data as Row)['odds'] !== undefined);
    const lists = c.frames.find((f) => f.event === 'snapshot' && (f.data as Row)['middles'] !== undefined)?.data as Record<string, Row[]>;
    const streamed = links(odds.map((f) => (f.data as Row)['odds']));
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.every((l) => l.endsWith('?state=nj'))).toBe(true);
    expect(streamed.sort()).toEqual(links(await restRows('/api/v1/odds?limit=1000&state=nj')).sort());
    for (const [list, path] of [
      ['middles', 'middles'],
      ['low_hold', 'low-hold'],
      ['ev', 'ev'],
      ['arbitrage', 'arbitrage'],
    ] as const) {
      const rest = links(await restRows(`/api/v1/opportunities/${path}?state=nj${list === 'ev' ? '&min_ev=2' : ''}`));
      expect([list, links(lists[list] ?? []).sort()]).toEqual([list, rest.sort()]);
    }
    expect(links(lists['middles']).some((l) => l.includes('state=nj'))).toBe(true);
  });

  it('the WebSocket takes state in the query string and in filter; without it links stay as REST gives them without one', async () => {
    const ws = await WsClient.open(wsUrl('channels=odds,middles&state=ny'));
    await ws.until((m) => completes(m) === 1);
    const initial = links(ws.messages.filter((m) => m.type === 'initial').map((m) => m['data']));
    expect(initial.sort()).toEqual(links(await restRows('/api/v1/odds?limit=1000&state=ny')).sort());
    expect(links(wsList(ws.messages, 'middles')).sort()).toEqual(links(await restRows('/api/v1/opportunities/middles?state=ny')).sort());
    ws.send({ type: 'filter' });
    await ws.until((m) => completes(m) === 2);
    const plain = ws.messages.slice(ws.messages.findIndex((m) => m.type === 'snapshot:complete') + 1);
    expect(links(plain.filter((m) => m.type === 'initial').map((m) => m['data'])).sort()).toEqual(
      links(await restRows('/api/v1/odds?limit=1000')).sort(),
    );
    ws.send({ type: 'filter', state: 'pa' });
    await ws.until((m) => completes(m) === 3);
    expect(links(wsList(ws.messages, 'middles')).every((l) => l.endsWith('state=pa'))).toBe(true);
    ws.close();
  });
});
