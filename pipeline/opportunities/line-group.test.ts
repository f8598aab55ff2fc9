import { describe, expect, it } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { newLineGroup, putRow, rowAt, takeRow } from './line-group.js';

/** Just what a line group reads of a row: its book and selection (and an id to tell rows apart). */
const row = (book: string, selection: SelectionType, id = `${book}-${selection}`): OddsRow => ({ id, book, selection }) as OddsRow;

describe('a flat line group', () => {
  it('finds each book’s row of each selection, the latest one put', () => {
    const g = newLineGroup(-3.5, '-3.5');
    putRow(g, row('pinnacle', 'home'));
    putRow(g, row('fanduel', 'away'));
    putRow(g, row('pinnacle', 'away'));
    putRow(g, row('pinnacle', 'home', 'newer'));
    expect(rowAt(g, 'pinnacle', 'home')?.id).toBe('newer');
    expect(rowAt(g, 'pinnacle', 'away')?.id).toBe('pinnacle-away');
    expect(rowAt(g, 'fanduel', 'away')?.id).toBe('fanduel-away');
    expect(rowAt(g, 'fanduel', 'home')).toBeNull();
    expect(rowAt(g, 'draftkings', 'home')).toBeNull();
    expect(g.sizes).toEqual([2, 1]);
    expect(g.version).toBe(4);
  });

  it('keeps the books in the order they joined when one leaves, as a map by book would iterate them', () => {
    const g = newLineGroup(null, '-');
    for (const book of ['a', 'b', 'c', 'd']) putRow(g, row(book, 'home'));
    putRow(g, row('b', 'draw'));
    takeRow(g, row('b', 'home'));
    expect(g.books).toEqual(['a', 'b', 'c', 'd']);
    takeRow(g, row('b', 'draw'));
    expect(g.books).toEqual(['a', 'c', 'd']);
    // The later books moved down a slot and are still found at it.
    expect([...g.slots]).toEqual([
      ['a', 0],
      ['c', 1],
      ['d', 2],
    ]);
    expect(rowAt(g, 'd', 'home')?.id).toBe('d-home');
    expect(g.rows.length).toBe(9);
    putRow(g, row('b', 'away'));
    expect(g.books).toEqual(['a', 'c', 'd', 'b']);
    expect(rowAt(g, 'b', 'away')?.id).toBe('b-away');
  });

  it('changes nothing when a row it does not hold is taken out', () => {
    const g = newLineGroup(null, '-');
    putRow(g, row('a', 'yes'));
    takeRow(g, row('a', 'no'));
    takeRow(g, row('z', 'yes'));
    expect(g.books).toEqual(['a']);
    expect(g.sizes).toEqual([1]);
    expect(g.version).toBe(1);
  });
});
