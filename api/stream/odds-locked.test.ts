/**
 * A price the book suspends stays on the board, locked (`is_active: false`, price frozen), and the
 * streams say so as the reference service does: the row comes in `odds:update` like any change
 * and again in an `odds:locked` frame of the same shape; reopening is a plain `odds:update`;
 * a pulled line is `odds:removed`. Before, a suspension could only arrive as `odds:removed`.
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

function seed(app: StreamApp): void {
  app.board.applyEvent(fixtureEvent('nba-1'));
  for (const b of ['draftkings', 'fanduel']) {
    app.set('nba-1', b, 'moneyline', 'home', 1.9);
    app.set('nba-1', b, 'moneyline', 'away', 1.95);
  }
}

type Row = Record<string, unknown>;

function apply(m: OddsMirror, f: SseFrame): void {
  const d = f.data as Row;
  if (f.event === 'snapshot' || f.event === 'odds:update' || f.event === 'odds:locked') m.upsert(d['odds'] as Row[]);
  if (f.event === 'odds:removed') m.remove(d['ids'] as string[]);
}

async function restOdds(app: StreamApp, key: string): Promise<Map<string, string>> {
  const res = await fetch(`${app.url}/api/v1/odds?limit=1000`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { data: Row[] };
  return new Map(body.data.map((r) => [r['id'] as string, JSON.stringify(r)]));
}

const json = (m: OddsMirror): Map<string, string> => new Map([...m.rows].map(([id, r]) => [id, JSON.stringify(r)]));
const named = (frames: SseFrame[], name: string): SseFrame[] => frames.filter((f) => f.event === name);

describe('a suspended price on the streams', () => {
  it('SSE: odds:update then odds:locked when it locks, odds:update when it reopens, odds:removed when pulled', async () => {
    s = await startStreamApp();
    seed(s);
    const c = await SseClient.open(`${s.url}/api/v1/stream?channel=odds&api_key=${s.keys.sharp}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const start = c.frames.length;

    s.clock.advance(1000);
    s.lock('nba-1', 'draftkings', 'moneyline', 'home');
    await c.until((f) => named(f, 'odds:locked').length === 1);
    const [update, locked] = c.frames.slice(start);
    const row = expect.objectContaining({
      sportsbook: 'draftkings',
      selection_type: 'home',
      odds_decimal: 1.9,
      is_active: false,
      suspended_since: new Date(s.clock.now()).toISOString(),
    });
    expect(update).toMatchObject({ event: 'odds:update', data: { odds: [row], count: 1, book: 'draftkings', partial: false } });
    expect(locked).toMatchObject({ event: 'odds:locked', data: { odds: [row], count: 1, book: 'draftkings', partial: false } });
    expect(Number(locked?.id)).toBeGreaterThan(Number(update?.id));
    const m = new OddsMirror();
    for (const f of c.frames) apply(m, f);
    const rest = await restOdds(s, s.keys.sharp);
    expect(json(m)).toEqual(rest);
    expect([...rest.values()].filter((r) => r.includes('"is_active":false'))).toHaveLength(1);

    // A new subscriber gets the locked row in its snapshot (no odds:locked: nothing locked since it joined).
    const later = await SseClient.open(`${s.url}/api/v1/stream/odds?api_key=${s.keys.sharp}`);
    await later.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const m2 = new OddsMirror();
    for (const f of later.frames) apply(m2, f);
    expect(json(m2)).toEqual(rest);
    expect(named(later.frames, 'odds:locked')).toHaveLength(0);
    later.close();

    s.clock.advance(1000);
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.0);
    await c.until((f) => named(f, 'odds:update').length === 2);
    expect((named(c.frames, 'odds:update')[1]?.data as { odds: Row[] }).odds).toEqual([
      expect.objectContaining({ odds_decimal: 2, is_active: true, suspended_since: null }),
    ]);

    s.lock('nba-1', 'draftkings', 'moneyline', 'home');
    s.set('nba-1', 'draftkings', 'moneyline', 'home', null);
    await c.until((f) => named(f, 'odds:removed').length === 1);
    expect(named(c.frames, 'odds:locked')).toHaveLength(1);
    for (const f of c.frames) apply(m, f);
    expect(json(m)).toEqual(await restOdds(s, s.keys.sharp));
    c.close();
  });

  it('WebSocket: the same odds:locked message shape as odds:update', async () => {
    s = await startStreamApp();
    seed(s);
    const c = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.pro}&channels=odds&sportsbook=fanduel`);
    await c.until((ms) => ms.some((m) => m.type === 'snapshot:complete'));
    s.lock('nba-1', 'draftkings', 'moneyline', 'away');
    s.lock('nba-1', 'fanduel', 'moneyline', 'away');
    await c.until((ms) => ms.some((m) => m.type === 'odds:locked'));
    const types = c.messages.map((m) => m.type);
    expect(types.slice(types.indexOf('snapshot:complete') + 1)).toEqual(['odds:update', 'odds:locked']);
    const [update, locked] = c.messages.slice(-2) as [WsMessage, WsMessage];
    expect(locked).toMatchObject({
      source: 'fanduel',
      count: 1,
      partial: false,
      data: [expect.objectContaining({ sportsbook: 'fanduel', is_active: false })],
    });
    expect(locked['data']).toEqual(update['data']);
    expect(locked.seq).toBe(update.seq + 1);
    c.close();
  });
});
