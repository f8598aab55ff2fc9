/**
 * SSE and WebSocket streams on the API alone, over a board the test writes to: frame order,
 * exact resume, resync, live filter changes, slow consumers, limits and close codes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OddsMirror, SseClient, WsClient } from '../../test/support/stream-clients.js';
import type { SseFrame, WsMessage } from '../../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

const BOOKS = ['draftkings', 'fanduel', 'betmgm'] as const;

function seed(app: StreamApp): void {
  app.board.applyEvent(fixtureEvent('nba-1'));
  app.board.applyEvent(fixtureEvent('nfl-1', 'nfl', Date.UTC(2026, 10, 22, 20)));
  for (const b of BOOKS) {
    app.set('nba-1', b, 'moneyline', 'home', 1.9);
    app.set('nba-1', b, 'moneyline', 'away', 1.95);
    app.set('nfl-1', b, 'moneyline', 'home', 1.5);
  }
}

function applyOdds(m: OddsMirror, f: SseFrame): void {
  const d = f.data as Record<string, unknown>;
  if (f.event === 'snapshot' && d['offset'] === 0) m.reset();
  if (f.event === 'snapshot' || f.event === 'odds:update') m.upsert(d['odds'] as Record<string, unknown>[]);
  if (f.event === 'odds:removed') m.remove(d['ids'] as string[]);
}

async function restOdds(app: StreamApp, key: string, query = ''): Promise<Map<string, string>> {
  const res = await fetch(`${app.url}/api/v1/odds?limit=1000${query}`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { data: Record<string, unknown>[] };
  return new Map(body.data.map((r) => [r['id'] as string, JSON.stringify(r)]));
}

function mirrorJson(m: OddsMirror): Map<string, string> {
  return new Map([...m.rows].map(([id, r]) => [id, JSON.stringify(r)]));
}

describe('SSE /stream', () => {
  it('sends retry, connected, the snapshot, snapshot:complete, then deltas; every frame has an id', async () => {
    s = await startStreamApp();
    seed(s);
    const c = await SseClient.open(`${s.url}/api/v1/stream?channel=odds&sportsbook=draftkings,fanduel&api_key=${s.keys.sharp}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.retry).toBe(3000);
    expect(c.frames.map((f) => f.event)).toEqual(['connected', 'snapshot', 'snapshot:complete']);
    expect(c.frames[0]?.data).toMatchObject({
      channel: 'odds',
      reconnected: false,
      resumed: false,
      filters: { sportsbook: ['draftkings', 'fanduel'], sport: null },
    });
    expect((c.frames[1]?.data as { count: number }).count).toBe(6);
    expect(c.frames[2]?.data).toMatchObject({ status: 'ready', books: ['draftkings', 'fanduel'], total_odds: 6 });
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.0);
    s.set('nba-1', 'betmgm', 'moneyline', 'home', 2.2);
    s.set('nfl-1', 'fanduel', 'moneyline', 'home', null);
    await c.until((f) => f.some((x) => x.event === 'odds:removed'));
    const deltas = c.frames.slice(3);
    expect(deltas.map((f) => [f.event, f.data])).toEqual([
      ['odds:update', expect.objectContaining({ book: 'draftkings', count: 1, partial: false })],
      ['odds:removed', { ids: [expect.any(String)], count: 1, book: 'fanduel' }],
    ]);
    expect(c.frames.every((f) => typeof f.id === 'string' && f.id.length > 0)).toBe(true);
    const seqs = deltas.map((f) => Number(f.id));
    expect(seqs[1]).toBeGreaterThan(seqs[0] as number);
    const m = new OddsMirror();
    for (const f of c.frames) applyOdds(m, f);
    expect(mirrorJson(m)).toEqual(await restOdds(s, s.keys.sharp, '&sportsbook=draftkings,fanduel'));
    c.close();
  });

  it('gives a subscriber joining a subscription that has been streaming for a while the rows /odds answers', async () => {
    s = await startStreamApp();
    seed(s);
    const url = `${s.url}/api/v1/stream/odds?sportsbook=draftkings,fanduel&api_key=${s.keys.sharp}`;
    const first = await SseClient.open(url);
    await first.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    s.board.applyEvent(fixtureEvent('nba-2'));
    s.set('nba-2', 'fanduel', 'moneyline', 'home', 2.2);
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.0);
    s.set('nfl-1', 'fanduel', 'moneyline', 'home', null);
    s.set('nba-1', 'betmgm', 'moneyline', 'home', 2.4);
    await first.until((f) => f.filter((x) => x.event === 'odds:update' || x.event === 'odds:removed').length >= 2);
    const later = await SseClient.open(url);
    await later.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const m = new OddsMirror();
    for (const f of later.frames) applyOdds(m, f);
    const rest = await restOdds(s, s.keys.sharp, '&sportsbook=draftkings,fanduel');
    expect(mirrorJson(m)).toEqual(rest);
    expect(rest.size).toBe(6);
    // In board order, as /odds lists them.
    const snapshotIds = (later.frames.find((f) => f.event === 'snapshot')?.data as { odds: { id: string }[] }).odds.map((r) => r.id);
    expect(snapshotIds).toEqual([...rest.keys()]);
    first.close();
    later.close();
  });

  it('sends connected first and a large snapshot over several turns; changes made meanwhile follow snapshot:complete, and the mirror equals /odds', async () => {
    // A turn per frame: every snapshot chunk lets the board change before the next one.
    s = await startStreamApp({ snapshotTurnMs: 0 });
    s.board.applyEvent(fixtureEvent('nba-1'));
    s.board.applyEvent(fixtureEvent('nba-2'));
    for (const e of ['nba-1', 'nba-2']) {
      for (const b of BOOKS) {
        for (let line = -30; line <= 30; line += 0.25) s.set(e, b, 'point_spread', 'home', 1.9, line);
      }
    }
    let changes = 0;
    const churn = (): void => {
      if (changes >= 40) return;
      changes++;
      s.set('nba-1', BOOKS[changes % 3] as string, 'point_spread', 'home', 1.8 + changes / 100, -30 + (changes % 20));
      if (changes % 7 === 0) s.set('nba-2', 'fanduel', 'point_spread', 'home', null, changes - 10);
      setImmediate(churn);
    };
    const url = `${s.url}/api/v1/stream/odds?api_key=${s.keys.sharp}`;
    const c = await SseClient.open(url);
    churn();
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    while (changes < 40) await new Promise((r) => setTimeout(r, 10));
    // Frames arrive in order: once the last change is in, so is every one before it.
    s.set('nba-2', 'betmgm', 'point_spread', 'home', 2.5, 30);
    await c.until((f) =>
      f.some((x) => x.event === 'odds:update' && (x.data as { odds: { odds_decimal: number }[] }).odds.some((r) => r.odds_decimal === 2.5)),
    );
    const names = c.frames.map((f) => f.event);
    const complete = names.indexOf('snapshot:complete');
    expect(names.slice(0, complete + 1)).toEqual(['connected', 'snapshot', 'snapshot', 'snapshot:complete']);
    expect(names.slice(complete + 1).every((n) => n === 'odds:update' || n === 'odds:removed')).toBe(true);
    const m = new OddsMirror();
    for (const f of c.frames) applyOdds(m, f);
    const rest = new Map([...(await restOdds(s, s.keys.sharp, '&offset=0')), ...(await restOdds(s, s.keys.sharp, '&offset=1000'))]);
    expect(rest.size).toBeGreaterThan(1000);
    expect(mirrorJson(m)).toEqual(rest);
    c.close();
  });

  it('resumes from Last-Event-ID with exactly the frames missed, then live ones', async () => {
    s = await startStreamApp();
    seed(s);
    const url = `${s.url}/api/v1/stream/odds?api_key=${s.keys.pro}`;
    const steady = await SseClient.open(url);
    const dropped = await SseClient.open(url);
    await dropped.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    s.set('nba-1', 'fanduel', 'moneyline', 'away', 2.05);
    await dropped.until((f) => f.some((x) => x.event === 'odds:update'));
    const lastId = dropped.lastId as string;
    dropped.close();
    for (let i = 0; i < 5; i++) {
      s.set('nba-1', BOOKS[i % 3] as string, 'moneyline', 'home', 1.8 + i / 100);
      await new Promise((r) => setTimeout(r, 5));
    }
    s.set('nfl-1', 'draftkings', 'moneyline', 'home', null);
    await steady.until((f) => f.some((x) => x.event === 'odds:removed'));
    const missed = steady.frames.filter((f) => /^\d+$/.test(f.id ?? '') && Number(f.id) > Number(lastId) && f.event !== 'heartbeat');
    expect(missed.length).toBeGreaterThanOrEqual(4);
    const again = await SseClient.open(url, { 'last-event-id': lastId });
    await again.until((f) => f.length >= 1 + missed.length);
    expect(again.frames[0]).toMatchObject({
      event: 'connected',
      id: lastId,
      data: expect.objectContaining({ reconnected: true, resumed: true, resync: false }),
    });
    expect(again.frames.slice(1).map((f) => [f.id, f.event, f.data])).toEqual(missed.map((f) => [f.id, f.event, f.data]));
    s.set('nba-1', 'betmgm', 'moneyline', 'away', 1.7);
    await again.until((f) => f.length === 2 + missed.length);
    await steady.until((f) => f.some((x) => x.id === again.lastId));
    expect(again.frames.at(-1)?.data).toEqual(steady.frames.find((x) => x.id === again.lastId)?.data);
    steady.close();
    again.close();
  });

  it('answers an id older than the window with a fresh snapshot marked resync', async () => {
    s = await startStreamApp({ replayFrames: 100 });
    seed(s);
    const url = `${s.url}/api/v1/stream?channel=odds&api_key=${s.keys.sharp}`;
    const first = await SseClient.open(url);
    await first.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    s.set('nba-1', 'fanduel', 'moneyline', 'away', 2.05);
    await first.until((f) => f.some((x) => x.event === 'odds:update'));
    const old = first.lastId as string;
    first.close();
    for (let i = 0; i < 120; i++) {
      s.set('nba-1', BOOKS[i % 3] as string, 'moneyline', 'home', 1.5 + i / 1000);
      await new Promise((r) => setImmediate(r));
    }
    const again = await SseClient.open(url, { 'last-event-id': old });
    await again.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(again.frames[0]?.data).toMatchObject({ reconnected: true, resumed: false, resync: true });
    expect(again.frames[1]).toMatchObject({ event: 'snapshot', data: expect.objectContaining({ resync: true, total: 9 }) });
    expect(again.frames[2]?.data).toMatchObject({ status: 'ready', resync: true });
    const m = new OddsMirror();
    for (const f of again.frames) applyOdds(m, f);
    expect(mirrorJson(m)).toEqual(await restOdds(s, s.keys.sharp));
    again.close();
  });

  it('refuses before the stream opens: 401 without a valid key, 403 for a channel above the tier, 400 for a bad filter; past the stream limit the newer stream wins', async () => {
    s = await startStreamApp();
    const base = `${s.url}/api/v1/stream`;
    const bad = await SseClient.open(`${base}?channel=odds&api_key=nope`);
    expect([bad.status, (bad.body as { error: { code: string } }).error.code]).toEqual([401, 'unauthorized']);
    const free = await SseClient.open(`${base}/opportunities?api_key=${s.keys.free}`);
    expect([free.status, (free.body as { error: { code: string } }).error.code]).toEqual([403, 'feature_required']);
    expect((free.body as { error: Record<string, unknown> }).error).toMatchObject({ tier: 'free', required_tier: 'hobby' });
    const gs = await SseClient.open(`${base}/gamestate`, { 'x-api-key': s.keys.sharp });
    expect(gs.status).toBe(403);
    const typo = await SseClient.open(`${base}?channel=odds&sport=notasport`, { authorization: `Bearer ${s.keys.pro}` });
    expect([typo.status, (typo.body as { error: { message: string } }).error.message]).toEqual([
      400,
      "Invalid query parameter 'sport': unknown sport 'notasport'; GET /api/v1/sports lists them",
    ]);
    const one = await SseClient.open(`${base}/odds?api_key=${s.keys.free}`);
    expect(one.status).toBe(200);
    // The free tier holds one stream: the second displaces the first, which is told why, without an id, and ended.
    const two = await SseClient.open(`${base}/odds?api_key=${s.keys.free}`);
    expect(two.status).toBe(200);
    await one.until((f) => f.some((x) => x.event === 'error'));
    expect(one.frames[one.frames.length - 1]).toMatchObject({
      id: undefined,
      event: 'error',
      data: { code: 'displaced', message: expect.stringContaining('newer stream') },
    });
    two.close();
    const enterprise = await SseClient.open(`${base}/gamestate?api_key=${s.keys.enterprise}`);
    await enterprise.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(enterprise.frames.map((f) => f.event)).toEqual(['connected', 'gamestate:snapshot', 'snapshot:complete']);
    enterprise.close();
  });

  it('pushes the free tier its delayed board, limited to its books', async () => {
    s = await startStreamApp();
    seed(s);
    s.clock.advance(61_000);
    const c = await SseClient.open(`${s.url}/api/v1/stream/odds?api_key=${s.keys.free}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.frames[2]?.data).toMatchObject({ books: ['draftkings', 'fanduel'], total_odds: 6 });
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.5);
    s.set('nba-1', 'betmgm', 'moneyline', 'home', 2.6);
    await new Promise((r) => setTimeout(r, 200));
    expect(c.frames.filter((f) => f.event === 'odds:update')).toEqual([]);
    s.clock.advance(61_000);
    await c.until((f) => f.some((x) => x.event === 'odds:update'));
    const update = c.frames.find((f) => f.event === 'odds:update')?.data as { odds: { odds_decimal: number; sportsbook: string }[] };
    expect(update.odds.map((r) => [r.sportsbook, r.odds_decimal])).toEqual([['draftkings', 2.5]]);
    c.close();
  });

  it('drops a client that stops reading, with a backpressure frame, while another keeps receiving', async () => {
    s = await startStreamApp({ bufferBytes: 64 * 1024 });
    seed(s);
    const url = `${s.url}/api/v1/stream/odds?api_key=${s.keys.sharp}`;
    const reader = await SseClient.open(url);
    await reader.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const slow = await rawSse(s, '/api/v1/stream/odds');
    for (let i = 0; i < 200 && s.service.hub.connectionCount < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.service.hub.connectionCount).toBe(2);
    for (let e = 0; e < 20; e++) s.board.applyEvent(fixtureEvent(`nba-${e}`));
    // Paced so the reading client (parsing in this same process) keeps up.
    for (let i = 0; i < 4000 && s.service.hub.connectionCount > 1; i++) {
      for (let e = 0; e < 20; e++) s.set(`nba-${e}`, 'draftkings', 'moneyline', 'home', 1.5 + ((i + e) % 100) / 100);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(reader.ended).toBe(false);
    expect(s.service.hub.connectionCount).toBe(1);
    slow.resume();
    const text = await slow.text();
    expect(text).toMatch(/event: error\ndata: \{"code":"backpressure"/);
    s.set('nfl-1', 'draftkings', 'moneyline', 'home', 3.3);
    await reader.until((f) =>
      f.some((x) => x.event === 'odds:update' && (x.data as { odds: { odds_decimal: number }[] }).odds.some((r) => r.odds_decimal === 3.3)),
    );
    expect(reader.ended).toBe(false);
    reader.close();
  });
});

/** An SSE request on a raw socket that the test pauses (reads nothing) and resumes. */
async function rawSse(app: StreamApp, path: string): Promise<{ resume(): void; text(): Promise<string> }> {
  const net = await import('node:net');
  const { port } = new URL(app.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${app.keys.sharp}\r\n\r\n`);
  socket.pause();
  const chunks: Buffer[] = [];
  return {
    resume() {
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.resume();
    },
    text: () =>
      new Promise((resolve) => {
        const done = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
        socket.on('close', done);
        socket.on('end', done);
      }),
  };
}

function ofType(ms: WsMessage[], type: string): WsMessage[] {
  return ms.filter((m) => m.type === type);
}

describe('OpenAPI', () => {
  it('lists the /stream paths with their parameters and error answers', async () => {
    s = await startStreamApp();
    const doc = (await (await fetch(`${s.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: { name: string }[]; responses: Record<string, unknown> } }>;
    };
    const paths = Object.keys(doc.paths)
      .filter((p) => p.includes('/stream'))
      .sort();
    expect(paths).toEqual([
      '/api/v1/stream',
      '/api/v1/stream/alerts',
      '/api/v1/stream/all',
      '/api/v1/stream/events/{eventId}',
      '/api/v1/stream/gamestate',
      '/api/v1/stream/odds',
      '/api/v1/stream/opportunities',
      '/api/v1/stream/splits',
    ]);
    const get = doc.paths['/api/v1/stream']?.get;
    expect(get?.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['channel', 'channels', 'type', 'sport', 'event', 'eventId', 'min_ev', 'min_profit', 'last_event_id']),
    );
    expect(Object.keys(get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
  });
});

describe('WebSocket', () => {
  it('connects with the subprotocol, then subscribed, snapshot, updates; subscribe changes filters live', async () => {
    s = await startStreamApp();
    seed(s);
    const c = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.pro}&channels=odds&sportsbook=draftkings`);
    expect(c.ws.protocol).toBe('sharpapi-v1');
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(c.messages.map((m) => m.type)).toEqual(['connected', 'subscribed', 'initial', 'snapshot:complete']);
    expect(c.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(c.messages[0]).toMatchObject({
      tier: 'pro',
      features: { ev: true, arbitrage: true, middles: true, low_hold: true },
      channels: ['odds'],
      books: { max: 15 },
    });
    expect(c.messages[1]).toMatchObject({ channels: ['odds'], sportsbooks: ['draftkings'], min_ev: 2, min_profit: 0.5 });
    expect(c.messages[2]).toMatchObject({ source: 'draftkings', count: 3 });
    s.set('nba-1', 'fanduel', 'moneyline', 'home', 2.0);
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.1);
    await c.until((m) => ofType(m, 'odds:update').length === 1);
    const update = ofType(c.messages, 'odds:update')[0] as WsMessage;
    expect(update).toMatchObject({ source: 'draftkings', count: 1, seq: 5, global_seq: expect.any(Number), timestamp: expect.any(String) });
    c.send({ type: 'subscribe', filters: { sportsbooks: ['fanduel'], leagues: ['nfl'] } });
    await c.until((m) => ofType(m, 'snapshot:complete').length === 2);
    const after = c.messages.slice(5);
    expect(after.map((m) => m.type)).toEqual(['subscribed', 'initial', 'snapshot:complete']);
    expect(after[0]).toMatchObject({ sportsbooks: ['fanduel'], leagues: ['nfl'], channels: ['odds'] });
    expect(after[1]).toMatchObject({ source: 'fanduel', count: 1 });
    s.set('nba-1', 'fanduel', 'moneyline', 'home', 2.3);
    s.set('nfl-1', 'fanduel', 'moneyline', 'home', 1.6);
    await c.until((m) => ofType(m, 'odds:update').length === 2);
    expect((ofType(c.messages, 'odds:update')[1]?.['data'] as { league: string }[]).map((r) => r.league)).toEqual(['nfl']);
    c.send({ type: 'ping' });
    c.send({ type: 'nonsense' });
    c.ws.send('not json');
    await c.until((m) => ofType(m, 'error').length === 2);
    expect(ofType(c.messages, 'pong')).toHaveLength(1);
    expect(ofType(c.messages, 'error').map((m) => m['code'])).toEqual(['unknown_message_type', 'invalid_message']);
    const seqs = c.messages.map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    c.close();
  });

  it('resumes from from_seq with exactly the missed frames, tagged replay', async () => {
    s = await startStreamApp();
    seed(s);
    const url = `${s.wsUrl}/?channels=odds&api_key=${s.keys.sharp}`;
    const steady = await WsClient.open(url);
    const dropped = await WsClient.open(url);
    await dropped.until((m) => ofType(m, 'snapshot:complete').length === 1);
    s.set('nba-1', 'betmgm', 'moneyline', 'home', 2.4);
    await dropped.until((m) => ofType(m, 'odds:update').length === 1);
    const last = ofType(dropped.messages, 'odds:update')[0]?.global_seq as number;
    dropped.close();
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.5);
    s.set('nfl-1', 'fanduel', 'moneyline', 'home', null);
    await steady.until((m) => ofType(m, 'odds:removed').length === 1);
    const again = await WsClient.open(`${url}&resume=true&from_seq=${last}`);
    await again.until((m) => ofType(m, 'snapshot:complete').length === 1);
    const replayed = again.messages.filter((m) => m['replay'] === true);
    const missed = steady.messages.filter(
      (m) => (m.type === 'odds:update' || m.type === 'odds:removed') && (m.global_seq as number) > last,
    );
    const strip = (m: WsMessage): unknown => ({ ...m, seq: 0, replay: undefined });
    expect(replayed.map(strip)).toEqual(missed.map(strip));
    expect(ofType(again.messages, 'initial')).toEqual([]);
    expect(ofType(again.messages, 'snapshot:complete')[0]).toMatchObject({ resumed: true });
    steady.close();
    again.close();
  });

  it('closes with 4001 for a bad key, 4003 for a channel above the tier, and the oldest stream with 4001 past the stream limit', async () => {
    s = await startStreamApp();
    const bad = await WsClient.open(`${s.wsUrl}/ws?api_key=wrong`);
    expect(await bad.closed()).toBe(4001);
    expect(bad.messages[0]).toMatchObject({ type: 'error', code: 'invalid_api_key' });
    const hobby = await WsClient.open(`${s.wsUrl}/ws?channels=ev`, { 'x-api-key': s.keys.hobby });
    expect(await hobby.closed()).toBe(4003);
    expect(hobby.messages[0]).toMatchObject({ code: 'tier_restricted' });
    const a = await WsClient.open(`${s.wsUrl}/ws`, { authorization: `Bearer ${s.keys.hobby}` });
    const b = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.hobby}`);
    await b.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(a.messages[0]).toMatchObject({ type: 'connected', channels: null, features: { ev: false, arbitrage: true } });
    // Hobby holds two streams: a third displaces the oldest (a), closed with 4001 as the reference does.
    const c = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.hobby}`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(await a.closed()).toBe(4001);
    expect([a.closeReason, a.messages[a.messages.length - 1]]).toEqual([
      'displaced',
      expect.objectContaining({ type: 'error', code: 'displaced' }),
    ]);
    expect(b.closeCode).toBeNull();
    b.close();
    c.close();
  });

  it('disconnects a client that stops reading while another keeps receiving on time', async () => {
    s = await startStreamApp({ bufferBytes: 64 * 1024 });
    seed(s);
    const url = `${s.wsUrl}/ws?channels=odds&api_key=${s.keys.sharp}`;
    const fast = await WsClient.open(url);
    const slow = await WsClient.open(url);
    await slow.until((m) => ofType(m, 'snapshot:complete').length === 1);
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    for (let e = 0; e < 20; e++) s.board.applyEvent(fixtureEvent(`nba-${e}`));
    for (let i = 0; i < 4000 && s.service.hub.connectionCount > 1; i++) {
      for (let e = 0; e < 20; e++) s.set(`nba-${e}`, 'draftkings', 'moneyline', 'home', 1.5 + ((i + e) % 100) / 100);
      await new Promise((r) => setImmediate(r));
    }
    expect(s.service.hub.connectionCount).toBe(1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await slow.closed()).not.toBe(1000);
    s.set('nfl-1', 'draftkings', 'moneyline', 'home', 3.3);
    const sent = Date.now();
    await fast.until((m) =>
      m.some((x) => x.type === 'odds:update' && (x['data'] as { odds_decimal: number }[]).some((r) => r.odds_decimal === 3.3)),
    );
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(fast.closeCode).toBeNull();
    fast.close();
  });
});
