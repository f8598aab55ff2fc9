/**
 * The `splits` and `gamestate` channels on SSE and WebSocket: a snapshot, then updates and
 * removals, equal to what `/splits` and `/gamestate` answer with the same filters; the free
 * tier's splits come as late as its odds; game state is Enterprise only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GameState, SplitsBook, SplitsSnapshot } from '../../schemas/index.js';
import { SseClient, WsClient } from '../../test/support/stream-clients.js';
import type { SseFrame, WsMessage } from '../../test/support/stream-clients.js';
import { T0, fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

function seed(app: StreamApp): void {
  app.board.applyEvent(fixtureEvent('nba-1'));
  app.board.applyEvent(fixtureEvent('nfl-1', 'nfl', T0 + 7200_000));
  for (const b of ['draftkings', 'fanduel']) {
    app.set('nba-1', b, 'moneyline', 'home', 1.9);
    app.set('nfl-1', b, 'moneyline', 'home', 1.5);
  }
}

function split(eventId: string, book: SplitsBook, ts: number, homeBets: number): SplitsSnapshot {
  const league = eventId.startsWith('nfl') ? 'nfl' : 'nba';
  return {
    key: `${eventId}|${book}`,
    eventId,
    book,
    ts,
    sport: league === 'nfl' ? 'football' : 'basketball',
    league,
    homeTeamId: 'nba-lal',
    awayTeamId: 'nba-bos',
    startTime: T0 + 3600_000,
    isLive: false,
    sides: [
      { market: 'moneyline', side: 'home', betPct: homeBets, handlePct: 0.5, line: null, priceAmerican: -110 },
      { market: 'moneyline', side: 'away', betPct: 1 - homeBets, handlePct: 0.5, line: null, priceAmerican: -110 },
    ],
    signals: {},
  };
}

function game(eventId: string, over: Partial<GameState> = {}): GameState {
  const nfl = eventId.startsWith('nfl');
  return {
    eventId,
    sport: nfl ? 'football' : 'basketball',
    league: nfl ? 'nfl' : 'nba',
    homeTeamId: 'nba-lal',
    awayTeamId: 'nba-bos',
    status: 'live',
    homeScore: 0,
    awayScore: 0,
    period: 'Q1',
    clock: '12:00',
    possession: null,
    server: null,
    lastPlay: null,
    extras: {},
    primaryBook: 'draftkings',
    bookCount: 2,
    updatedAt: T0,
    ...over,
  };
}

const splitsName = (r: Record<string, unknown>): string => `${r['event_id'] as string}|${r['sportsbook'] as string}`;

/** Applies splits frames (SSE `data` or WebSocket message) to a mirror keyed by event and book. */
function applySplits(mirror: Map<string, unknown>, event: string, d: Record<string, unknown>): void {
  if (event === 'splits:snapshot') {
    if (d['offset'] === 0) mirror.clear();
    for (const r of (d['splits'] ?? d['data']) as Record<string, unknown>[]) mirror.set(splitsName(r), r);
  }
  if (event === 'splits:update') for (const r of (d['splits'] ?? d['data']) as Record<string, unknown>[]) mirror.set(splitsName(r), r);
  if (event === 'splits:removed') for (const r of d['removed'] as Record<string, unknown>[]) mirror.delete(splitsName(r));
}

async function rest(app: StreamApp, key: string, path: string): Promise<unknown> {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { 'x-api-key': key } });
  return ((await res.json()) as { data: unknown }).data;
}

async function restSplits(app: StreamApp, key: string, query: string): Promise<Map<string, unknown>> {
  const data = (await rest(app, key, `/splits?limit=200${query}`)) as Record<string, unknown>[];
  return new Map(data.map((r) => [splitsName(r), r]));
}

function sseMirror(frames: SseFrame[]): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const f of frames) applySplits(m, f.event, f.data as Record<string, unknown>);
  return m;
}

function wsMirror(messages: WsMessage[]): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const x of messages) applySplits(m, x.type, x as Record<string, unknown>);
  return m;
}

const ofType = (ms: WsMessage[], type: string): WsMessage[] => ms.filter((m) => m.type === type);

describe('splits channel', () => {
  it('SSE: a snapshot then updates and removals, mirroring /splits with the same filters; resume replays them exactly', async () => {
    s = await startStreamApp();
    seed(s);
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 - 1000, 0.6));
    s.splits.apply('nba-1|circa', split('nba-1', 'circa', T0 - 1000, 0.3));
    s.splits.apply('nfl-1|draftkings', split('nfl-1', 'draftkings', T0 - 1000, 0.7));
    const url = `${s.url}/api/v1/stream/splits?sportsbook=draftkings&api_key=${s.keys.pro}`;
    const c = await SseClient.open(url);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.frames.map((f) => f.event)).toEqual(['connected', 'splits:snapshot', 'snapshot:complete']);
    expect(c.frames[0]?.data).toMatchObject({ channel: 'splits', filters: { sportsbook: ['draftkings'] } });
    expect(c.frames[1]?.data).toMatchObject({ count: 2, total: 2, offset: 0, has_more: false, resync: false });
    expect(c.frames[2]?.data).toMatchObject({ status: 'ready', total_splits: 2 });
    expect((c.frames[1]?.data as { splits: unknown[] }).splits).toEqual(await rest(s, s.keys.pro, '/splits?sportsbook=draftkings'));

    s.clock.advance(1000);
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 + 500, 0.65));
    s.splits.apply('nba-1|circa', split('nba-1', 'circa', T0 + 500, 0.35));
    await c.until((f) => f.some((x) => x.event === 'splits:update'));
    const update = c.frames.find((f) => f.event === 'splits:update')?.data as { splits: Record<string, unknown>[]; count: number };
    expect(update.count).toBe(1);
    expect(update.splits.map(splitsName)).toEqual(['nba-1|draftkings']);
    expect(sseMirror(c.frames)).toEqual(await restSplits(s, s.keys.pro, '&sportsbook=draftkings'));
    const lastId = c.lastId as string;
    c.close();

    // The game's odds are gone: /splits no longer lists it, and the stream says so.
    s.set('nfl-1', 'draftkings', 'moneyline', 'home', null);
    s.set('nfl-1', 'fanduel', 'moneyline', 'home', null);
    const steady = await SseClient.open(url);
    await steady.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const again = await SseClient.open(url, { 'last-event-id': lastId });
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.1);
    s.clock.advance(1000);
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 + 1500, 0.7));
    await again.until((f) => f.some((x) => x.event === 'splits:update'));
    expect(again.frames[0]?.data).toMatchObject({ resumed: true });
    expect(again.frames.slice(1).map((f) => f.event)).toEqual(['splits:removed', 'splits:update']);
    expect(again.frames[1]?.data).toEqual({ removed: [{ event_id: 'nfl-1', sportsbook: 'draftkings' }], count: 1 });
    await steady.until((f) => f.some((x) => x.event === 'splits:update'));
    expect(steady.frames.filter((f) => f.event === 'splits:update').map((f) => [f.id, f.data])).toEqual(
      again.frames.filter((f) => f.event === 'splits:update').map((f) => [f.id, f.data]),
    );
    const mirror = sseMirror([...c.frames, ...again.frames.slice(1)]);
    expect(mirror).toEqual(await restSplits(s, s.keys.pro, '&sportsbook=draftkings'));
    expect(mirror.size).toBe(1);
    steady.close();
    again.close();
  });

  it('WebSocket: channels=splits gives the snapshot and updates, equal to /splits for the same filters', async () => {
    s = await startStreamApp();
    seed(s);
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 - 1000, 0.6));
    s.splits.apply('nfl-1|circa', split('nfl-1', 'circa', T0 - 1000, 0.4));
    const c = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.hobby}&channels=splits&league=nfl`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(c.messages.map((m) => m.type)).toEqual(['connected', 'subscribed', 'splits:snapshot', 'snapshot:complete']);
    expect(c.messages[2]).toMatchObject({ count: 1, total: 1, offset: 0, has_more: false });
    expect(c.messages[2]?.['data']).toEqual(await rest(s, s.keys.hobby, '/splits?league=nfl'));
    s.clock.advance(1000);
    s.splits.apply('nfl-1|circa', split('nfl-1', 'circa', T0 + 500, 0.45));
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 + 500, 0.62));
    s.splits.apply('nfl-1|draftkings', split('nfl-1', 'draftkings', T0 + 500, 0.55));
    await c.until((m) => ofType(m, 'splits:update').length === 1);
    const update = ofType(c.messages, 'splits:update')[0] as WsMessage;
    expect(update).toMatchObject({ count: 2, global_seq: expect.any(Number) });
    expect(wsMirror(c.messages)).toEqual(await restSplits(s, s.keys.hobby, '&league=nfl'));
    c.send({ type: 'subscribe', channels: ['splits'], filters: { sportsbooks: ['circa'] } });
    await c.until((m) => ofType(m, 'snapshot:complete').length === 2);
    const after = c.messages.slice(c.messages.findIndex((m) => m.type === 'subscribed' && m.seq > 2));
    expect(after.map((m) => m.type)).toEqual(['subscribed', 'splits:snapshot', 'snapshot:complete']);
    expect(wsMirror(after)).toEqual(await restSplits(s, s.keys.hobby, '&sportsbook=circa'));
    c.close();
  });

  it('pushes the free tier its splits 60 s late, like /splits answers it', async () => {
    s = await startStreamApp();
    seed(s);
    s.clock.advance(61_000);
    const c = await SseClient.open(`${s.url}/api/v1/stream/splits?api_key=${s.keys.free}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.frames[1]?.data).toMatchObject({ total: 0 });
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', s.clock.now(), 0.6));
    await new Promise((r) => setTimeout(r, 200));
    expect(c.frames.filter((f) => f.event === 'splits:update')).toEqual([]);
    expect(await restSplits(s, s.keys.free, '')).toEqual(new Map());
    s.clock.advance(61_000);
    await c.until((f) => f.some((x) => x.event === 'splits:update'));
    const mirror = sseMirror(c.frames);
    expect([...mirror.keys()]).toEqual(['nba-1|draftkings']);
    expect(mirror).toEqual(await restSplits(s, s.keys.free, ''));
    c.close();
  });

  it('validates its filters as /splits does, and channel=all carries splits under the odds filters', async () => {
    s = await startStreamApp();
    seed(s);
    s.splits.apply('nba-1|draftkings', split('nba-1', 'draftkings', T0 - 1000, 0.6));
    const bad = await SseClient.open(`${s.url}/api/v1/stream/splits?sportsbook=fanduel&api_key=${s.keys.pro}`);
    expect([bad.status, (bad.body as { error: { message: string } }).error.message]).toEqual([
      400,
      "Invalid query parameter 'sportsbook': 'fanduel' is not one of draftkings, circa",
    ]);
    const all = await SseClient.open(`${s.url}/api/v1/stream?channel=all&sportsbook=draftkings,fanduel&api_key=${s.keys.pro}`);
    await all.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(all.frames.map((f) => f.event)).toEqual(['connected', 'snapshot', 'snapshot', 'splits:snapshot', 'snapshot:complete']);
    expect(sseMirror(all.frames)).toEqual(await restSplits(s, s.keys.pro, '&sportsbook=draftkings'));
    all.close();
  });
});

describe('gamestate channel', () => {
  it('SSE: Enterprise gets gamestate:snapshot, then gamestate:update and gamestate:removed, equal to /gamestate', async () => {
    s = await startStreamApp();
    s.gameStates.apply(game('nba-1', { homeScore: 10 }), 'nba-1');
    s.gameStates.apply(game('nfl-1'), 'nfl-1');
    const c = await SseClient.open(`${s.url}/api/v1/stream/gamestate?sport=basketball&api_key=${s.keys.enterprise}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.frames.map((f) => f.event)).toEqual(['connected', 'gamestate:snapshot', 'snapshot:complete']);
    const snap = c.frames[1]?.data as { sport: string; events: Record<string, unknown>[]; count: number };
    const restNow = (await rest(s, s.keys.enterprise, '/gamestate/basketball')) as Record<string, Record<string, unknown>>;
    expect(snap).toMatchObject({ sport: 'basketball', count: 1 });
    expect(snap.events).toEqual(Object.values(restNow['basketball'] ?? {}));
    expect(c.frames[2]?.data).toMatchObject({ total_games: 1 });

    s.gameStates.apply(game('nfl-1', { homeScore: 7, updatedAt: T0 + 1 }), 'nfl-1');
    s.gameStates.apply(game('nba-1', { homeScore: 12, period: 'Q2', updatedAt: T0 + 2 }), 'nba-1');
    await c.until((f) => f.some((x) => x.event === 'gamestate:update'));
    const update = c.frames.find((f) => f.event === 'gamestate:update')?.data;
    const after = (await rest(s, s.keys.enterprise, '/gamestate/basketball')) as Record<string, Record<string, unknown>>;
    expect(update).toEqual(after['basketball']?.['nba-1']);
    expect(update).toMatchObject({ event_id: 'nba-1', sport: 'basketball', home_score: 12, game_period: 'Q2' });

    s.gameStates.apply(game('nba-1', { status: 'final', homeScore: 101, updatedAt: T0 + 3 }), 'nba-1');
    await c.until((f) => f.some((x) => x.event === 'gamestate:removed'));
    expect(c.frames.filter((f) => f.event.startsWith('gamestate:')).map((f) => f.event)).toEqual([
      'gamestate:snapshot',
      'gamestate:update',
      'gamestate:removed',
    ]);
    expect(c.frames.at(-1)?.data).toMatchObject({ event_id: 'nba-1', status: 'final', home_score: 101, is_live: false });
    expect(await rest(s, s.keys.enterprise, '/gamestate/basketball')).toEqual({});
    c.close();
  });

  it('refuses a tier below Enterprise: SSE 403 feature_required naming the tier, WebSocket tier_restricted then close 4003', async () => {
    s = await startStreamApp();
    const sse = await SseClient.open(`${s.url}/api/v1/stream/gamestate?api_key=${s.keys.sharp}`);
    expect(sse.status).toBe(403);
    expect(sse.body).toMatchObject({
      error: { code: 'feature_required', tier: 'sharp', required_tier: 'enterprise' },
      required_tier: 'enterprise',
    });
    const viaChannel = await SseClient.open(`${s.url}/api/v1/stream?channel=gamestate&api_key=${s.keys.pro}`);
    expect(viaChannel.status).toBe(403);
    const ws = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.sharp}&channels=gamestate`);
    expect(await ws.closed()).toBe(4003);
    expect(ws.messages[0]).toMatchObject({ type: 'error', code: 'tier_restricted', tier: 'sharp', required_tier: 'enterprise' });
    const live = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.sharp}&channels=odds`);
    await live.until((m) => ofType(m, 'snapshot:complete').length === 1);
    live.send({ type: 'subscribe', channels: ['odds', 'gamestate'] });
    await live.until((m) => ofType(m, 'error').length === 1);
    expect(ofType(live.messages, 'error')[0]).toMatchObject({ code: 'tier_restricted', tier: 'sharp', required_tier: 'enterprise' });
    expect(live.closeCode).toBeNull();
    live.close();
  });

  it('WebSocket: channels=gamestate gives the snapshot and per-game updates', async () => {
    s = await startStreamApp();
    s.gameStates.apply(game('nfl-1', { homeScore: 3 }), 'nfl-1');
    const c = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.enterprise}&channels=gamestate`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(c.messages.map((m) => m.type)).toEqual(['connected', 'subscribed', 'gamestate:snapshot', 'snapshot:complete']);
    const all = (await rest(s, s.keys.enterprise, '/gamestate')) as Record<string, Record<string, unknown>>;
    expect(c.messages[2]).toMatchObject({ sport: null, count: 1, events: Object.values(all['football'] ?? {}) });
    s.gameStates.apply(game('nfl-1', { homeScore: 10, updatedAt: T0 + 5 }), 'nfl-1');
    await c.until((m) => ofType(m, 'gamestate:update').length === 1);
    const now = (await rest(s, s.keys.enterprise, '/gamestate/football')) as Record<string, Record<string, unknown>>;
    expect(ofType(c.messages, 'gamestate:update')[0]).toMatchObject({ data: now['football']?.['nfl-1'], global_seq: expect.any(Number) });
    c.close();
  });
});
