import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { LiveBoard } from '../views/board.js';
import { RowIdIndex } from './row-index.js';

const event = { id: 'nba-20260513-bos-lal', sport: 'basketball', league: 'nba', startTime: 0, isLive: false } as unknown as CanonicalEvent;
/** The fields the board and the index read; the rest of a row plays no part here. */
const row = (id: string, line: number): OddsRow =>
  ({ id, eventId: event.id, book: 'fanatics', market: 'point_spread', selection: 'home', line, ts: 0 }) as unknown as OddsRow;
const put = (board: LiveBoard, key: string, r: OddsRow | null): void => board.applyChange({ key, eventId: event.id, row: r, changedAt: 0 });

describe('RowIdIndex', () => {
  it('indexes exactly the rows on the board after 300 line moves (each a removal and a new key)', () => {
    const board = new LiveBoard();
    board.applyEvent(event);
    const index = new RowIdIndex(board);
    for (let i = 0; i < 10; i++) put(board, `k${i}`, row(`id${i}`, i));
    for (let i = 10; i < 310; i++) {
      put(board, `k${i - 10}`, null);
      put(board, `k${i}`, row(`id${i}`, i));
    }
    expect(board.rowCount).toBe(10);
    expect(index.size).toBe(10);
    expect(index.row('id299')).toBeUndefined();
    expect(index.row('id300')?.line).toBe(300);
  });

  it('lets go of the old id when a row under the same key comes back with another one', () => {
    const board = new LiveBoard();
    board.applyEvent(event);
    put(board, 'k', row('old-id', -3.5));
    const index = new RowIdIndex(board);
    put(board, 'k', row('new-id', -3.5));
    expect(index.row('old-id')).toBeUndefined();
    expect(index.row('new-id')?.id).toBe('new-id');
    expect(index.size).toBe(1);
  });
});
