import { describe, expect, it } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { bookMainLine } from './main-lines.js';

/** One book's row at `line`, priced at `priceDecimal`; open unless said otherwise. */
const row = (
  market: OddsRow['market'],
  selection: SelectionType,
  line: number,
  priceDecimal: number,
  extra: Partial<OddsRow> = {},
): OddsRow =>
  ({
    id: `${market}-${selection}-${line}`,
    eventId: 'e',
    book: 'pinnacle',
    market,
    selection,
    line,
    participant: null,
    statCategory: null,
    priceDecimal,
    isActive: true,
    ...extra,
  }) as OddsRow;

describe("a book's own main line", () => {
  it("is the two-way line whose sides are closest, on the home side's handicap", () => {
    const rows = [
      row('point_spread', 'home', -3, 1.91),
      row('point_spread', 'away', 3, 1.91),
      row('point_spread', 'home', -2.5, 1.8),
      row('point_spread', 'away', 2.5, 2.05),
      row('total_points', 'over', 44.5, 1.93),
      row('total_points', 'under', 44.5, 1.89),
      row('total_points', 'over', 43.5, 1.7),
      row('total_points', 'under', 43.5, 2.2),
    ];
    expect(bookMainLine(rows, 'point_spread')).toBe(-3);
    expect(bookMainLine(rows, 'total_points')).toBe(44.5);
  });

  it("compares the two sides, not one side's distance from even money", () => {
    // At 220.5 the Over alone is exactly even (0.5), but the sides are 0.05 apart; at 221.5 they
    // are 0.01 apart with the Over at 0.53: the book's number is 221.5.
    const rows = [
      row('total_points', 'over', 220.5, 2),
      row('total_points', 'under', 220.5, 1 / 0.55),
      row('total_points', 'over', 221.5, 1 / 0.53),
      row('total_points', 'under', 221.5, 1 / 0.52),
    ];
    expect(bookMainLine(rows, 'total_points')).toBe(221.5);
  });

  it('breaks a tie toward the lower line', () => {
    const rows = [
      row('total_points', 'over', 45.5, 1.91),
      row('total_points', 'under', 45.5, 1.91),
      row('total_points', 'over', 44.5, 1.91),
      row('total_points', 'under', 44.5, 1.91),
    ];
    expect(bookMainLine(rows, 'total_points')).toBe(44.5);
  });

  it('has none for a book quoting one side only, or with the other side suspended', () => {
    expect(bookMainLine([row('point_spread', 'home', -3, 1.91)], 'point_spread')).toBeNull();
    expect(
      bookMainLine([row('point_spread', 'home', -3, 1.91), row('point_spread', 'away', 3, 1.91, { isActive: false })], 'point_spread'),
    ).toBeNull();
  });

  it('passes over a one-sided line for the two-way line beside it, however near even the lone side is', () => {
    const rows = [row('point_spread', 'home', -3, 2), row('point_spread', 'home', -3.5, 2.2), row('point_spread', 'away', 3.5, 1.7)];
    expect(bookMainLine(rows, 'point_spread')).toBe(-3.5);
  });

  it("reads only the full game's own market: no team totals, player props or other markets", () => {
    const rows = [
      row('total_points', 'over', 110.5, 1.91, { participant: 'home' }),
      row('total_points', 'under', 110.5, 1.91, { participant: 'home' }),
      row('total_points', 'over', 25.5, 1.91, { participant: 'P', statCategory: 'points' }),
      row('total_points', 'under', 25.5, 1.91, { participant: 'P', statCategory: 'points' }),
      row('team_total', 'over', 110.5, 1.91),
      row('team_total', 'under', 110.5, 1.91),
    ];
    expect(bookMainLine(rows, 'total_points')).toBeNull();
  });
});
