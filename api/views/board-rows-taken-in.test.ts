/**
 * The board counts the rows it takes in under a key it did not hold (`odds_board_rows_taken_in`):
 * the soak reads it to know when the maps over the board's keys have reached their lasting size.
 */
import { describe, expect, it } from 'vitest';
import type { OddsRow } from '../../schemas/index.js';
import { LiveBoard } from './board.js';

const T0 = Date.UTC(2026, 10, 30, 4);

function row(id: string, line: number, priceAmerican = -110): OddsRow {
  return {
    id,
    eventId: 'nba-1',
    book: 'pinnacle',
    market: 'point_spread',
    selection: 'home',
    line,
    participant: null,
    statCategory: null,
    priceAmerican,
    priceDecimal: 1.9091,
    probability: 0.52381,
    ts: T0,
    oddsChangedAt: T0,
    observedAt: T0,
    isLive: false,
    bookEventId: 'pin-1',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
}

const key = (line: number): string => `nba-1|point_spread||${line}|home|pinnacle`;

describe('rows the board has taken in', () => {
  it('counts a key each time it comes onto the board, not a price change of a key it holds', () => {
    const board = new LiveBoard({ now: () => T0 });
    const apply = (line: number, r: OddsRow | null): void => board.applyChange({ key: key(line), eventId: 'nba-1', row: r, changedAt: T0 });
    apply(-3.5, row('a', -3.5));
    apply(-4.5, row('b', -4.5));
    apply(-3.5, row('a2', -3.5, -115)); // a new price under a key it holds
    apply(-4.5, null); // the line leaves
    apply(-4.5, null); // a removal of a key it no longer holds
    apply(-4.5, row('b2', -4.5)); // and comes back
    expect([board.rowCount, board.rowsTakenIn]).toEqual([2, 3]);
  });
});
