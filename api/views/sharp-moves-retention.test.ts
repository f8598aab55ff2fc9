/**
 * What went wrong: `SharpMoveWatch` kept every sharp book's spread and total (its anchor line)
 * and the last counted move of every event it had ever seen, so a long-running API replica held
 * a little more for each game of every season. What the watch holds of an event now goes when
 * the event's last row leaves the board, as every row of a closed event does.
 */
import { describe, expect, it } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { LiveBoard } from './board.js';
import { SharpMoveWatch } from './sharp-moves.js';

const T0 = Date.UTC(2026, 0, 1, 12);

const row = (eventId: string, book: string, market: OddsRow['market'], selection: SelectionType, line: number, at = T0): OddsRow =>
  ({
    id: `${eventId}-${book}-${market}-${selection}-${line}`,
    eventId,
    book,
    market,
    selection,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: -110,
    priceDecimal: 1.9091,
    probability: 0.5238,
    ts: at,
    oddsChangedAt: at,
    observedAt: at,
    isLive: false,
    bookEventId: 'x',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  }) as OddsRow;

const put = (board: LiveBoard, r: OddsRow): void => board.applyChange({ key: r.id, eventId: r.eventId, row: r, changedAt: r.ts });
const pull = (board: LiveBoard, r: OddsRow): void => board.applyChange({ key: r.id, eventId: r.eventId, row: null, changedAt: T0 });

/** DraftKings' total of `eventId` at 220.5, and Pinnacle's moved from 220.5 to 222.5: the rows on the board, Pinnacle's first. */
function gameWithAMove(board: LiveBoard, eventId: string): OddsRow[] {
  const soft = [row(eventId, 'draftkings', 'total_points', 'over', 220.5), row(eventId, 'draftkings', 'total_points', 'under', 220.5)];
  const old = [row(eventId, 'pinnacle', 'total_points', 'over', 220.5), row(eventId, 'pinnacle', 'total_points', 'under', 220.5)];
  const sharp = [row(eventId, 'pinnacle', 'total_points', 'over', 222.5), row(eventId, 'pinnacle', 'total_points', 'under', 222.5)];
  for (const r of [...soft, ...old]) put(board, r);
  for (const r of old) pull(board, r);
  for (const r of sharp) put(board, r);
  return [...sharp, ...soft];
}

describe('SharpMoveWatch retention', () => {
  it("lets an event go, its sharp lines and its last move, when the event's last row leaves the board", () => {
    const board = new LiveBoard({ now: () => T0 });
    const watch = new SharpMoveWatch(board);
    const closed = gameWithAMove(board, 'closed');
    gameWithAMove(board, 'open');
    expect(watch.eventsHeld()).toBe(2);
    expect(watch.moveOf('closed', 'total_points')).toMatchObject({ fromLine: 220.5, toLine: 222.5 });

    for (const r of closed) pull(board, r);
    expect(watch.eventsHeld()).toBe(1);
    expect(watch.moveOf('closed', 'total_points')).toBeUndefined();
    expect(watch.moveOf('open', 'total_points')).toMatchObject({ fromLine: 220.5, toLine: 222.5 });
  });

  it('keeps the anchor while the sharp book alone pulls its lines and the event keeps other rows', () => {
    const board = new LiveBoard({ now: () => T0 });
    const watch = new SharpMoveWatch(board);
    const [sharpOver, sharpUnder] = gameWithAMove(board, 'e1') as [OddsRow, OddsRow];
    pull(board, sharpOver);
    pull(board, sharpUnder);
    for (const r of [row('e1', 'pinnacle', 'total_points', 'over', 224.5), row('e1', 'pinnacle', 'total_points', 'under', 224.5)])
      put(board, r);
    expect(watch.moveOf('e1', 'total_points')).toMatchObject({ fromLine: 222.5, toLine: 224.5 });
  });

  it('starts an event afresh when it comes back to the board after leaving it', () => {
    const board = new LiveBoard({ now: () => T0 });
    const watch = new SharpMoveWatch(board);
    for (const r of gameWithAMove(board, 'e1')) pull(board, r);
    for (const r of [row('e1', 'pinnacle', 'total_points', 'over', 230.5), row('e1', 'pinnacle', 'total_points', 'under', 230.5)])
      put(board, r);
    expect(watch.moveOf('e1', 'total_points')).toBeUndefined();
    expect(watch.eventsHeld()).toBe(1);
  });
});
