/**
 * The stream bench's subscribers read each odds row's id and dating fields by scanning the frame's
 * text instead of parsing it (parsing whole frames queued 2,000 subscribers' frames behind each
 * other in the one subscriber process). The scan must read exactly what a parse reads, from the
 * bytes the server really sends, in both stream forms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SseClient, WsClient } from '../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../test/support/stream-app.js';
import type { StreamApp } from '../test/support/stream-app.js';
import { checkedTimedRows, messageType, scanTimedRows } from './frame-rows.js';
import type { TimedRow } from './frame-rows.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

type Row = Record<string, unknown>;

const dating = (rows: Row[]): TimedRow[] =>
  rows.map((r) => ({
    id: r['id'] as string,
    timestamp: r['timestamp'] as string,
    is_active: r['is_active'] as boolean,
    suspended_since: r['suspended_since'] as string | null,
  }));

describe('reading odds rows from a frame without parsing it', () => {
  it('reads the id, timestamp, is_active and suspended_since of every row the server sent, SSE and WebSocket', async () => {
    s = await startStreamApp();
    s.board.applyEvent(fixtureEvent('nba-1'));
    for (const b of ['draftkings', 'fanduel']) {
      s.set('nba-1', b, 'moneyline', 'home', 1.9);
      s.set('nba-1', b, 'point_spread', 'away', 1.95, -3.5);
    }
    const sse = await SseClient.open(`${s.url}/api/v1/stream?channel=odds&api_key=${s.keys.sharp}`);
    const ws = await WsClient.open(`${s.wsUrl}/ws?api_key=${s.keys.sharp}&channels=odds`);
    await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    await ws.until((m) => m.some((x) => x.type === 'snapshot:complete'));
    s.clock.advance(1500);
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 2.05);
    s.lock('nba-1', 'fanduel', 'point_spread', 'away', -3.5);
    await sse.until((f) => f.some((x) => x.event === 'odds:locked'));
    await ws.until((m) => m.some((x) => x.type === 'odds:locked'));

    const sseRows = sse.frames.filter((f) => f.event === 'snapshot' || f.event === 'odds:update' || f.event === 'odds:locked');
    const wsRows = ws.texts.filter((t) => ['initial', 'odds:update', 'odds:locked'].includes(messageType(t)));
    // One update per book's batch, the lock also in its own frame; the WebSocket snapshot comes per book.
    expect(sseRows.map((f) => f.event)).toEqual(['snapshot', 'odds:update', 'odds:update', 'odds:locked']);
    expect(wsRows.map(messageType)).toEqual(['initial', 'initial', 'odds:update', 'odds:update', 'odds:locked']);
    for (const f of sseRows) expect(scanTimedRows(f.text)).toEqual(dating((f.data as { odds: Row[] }).odds));
    for (const t of wsRows) expect(scanTimedRows(t)).toEqual(dating((JSON.parse(t) as { data: Row[] }).data));

    // Not vacuous: four rows in the snapshot, and the lock read as the server wrote it.
    expect(scanTimedRows(sseRows[0]?.text ?? '')).toHaveLength(4);
    const locked = scanTimedRows(wsRows[4] as string);
    expect(locked).toEqual([
      { id: expect.any(String), timestamp: '2026-11-22T12:00:00.000Z', is_active: false, suspended_since: '2026-11-22T12:00:01.500Z' },
    ]);
  });

  it('fails loudly when the scan and a parse disagree (a row whose fields moved)', () => {
    const reordered =
      '{"type":"odds:update","data":[{"id":"a","is_active":true,"suspended_since":null,"timestamp":"2026-11-22T12:00:00.000Z"}]}';
    expect(() => checkedTimedRows(reordered, (m) => (m as { data: TimedRow[] }).data)).toThrow(/frame scan disagrees with JSON.parse/);
  });

  it('tells a row from the references nested in it, which also start with an id', () => {
    const text =
      '{"odds":[{"id":"r1","home":{"id":"nba-lal","name":"L"},"timestamp":"t1","is_active":true,"suspended_since":null},{"id":"r2","timestamp":"t2","away":{"id":"x"},"is_active":false,"suspended_since":"t3"}]}';
    expect(scanTimedRows(text)).toEqual([
      { id: 'r1', timestamp: 't1', is_active: true, suspended_since: null },
      { id: 'r2', timestamp: 't2', is_active: false, suspended_since: 't3' },
    ]);
  });
});
