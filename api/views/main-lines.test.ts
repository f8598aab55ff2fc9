import { describe, expect, it } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { isMainLine, mainLinesOf } from './main-lines.js';

const row = (
  book: string,
  market: OddsRow['market'],
  selection: SelectionType,
  line: number | null,
  extra: Partial<OddsRow> = {},
): OddsRow =>
  ({
    id: `${book}-${market}-${selection}-${String(line)}`,
    eventId: 'e',
    book,
    market,
    selection,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: -110,
    priceDecimal: 1.9091,
    probability: 0.5238,
    ts: 0,
    oddsChangedAt: 0,
    observedAt: 0,
    isLive: false,
    bookEventId: 'x',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
    ...extra,
  }) as OddsRow;

describe('main lines', () => {
  it('is the handicap most books quote, reading the away side from the home side (home -2.5 = away +2.5)', () => {
    const rows = [
      row('a', 'point_spread', 'home', -2.5),
      row('a', 'point_spread', 'away', 2.5),
      row('b', 'point_spread', 'away', 2.5),
      row('c', 'point_spread', 'home', -4.5),
      row('c', 'point_spread', 'away', 4.5),
    ];
    const main = mainLinesOf(rows);
    expect(rows.map((r) => isMainLine(main, r))).toEqual([true, true, true, false, false]);
  });

  it('breaks a tie toward the lower line, and keeps totals, team totals and each player prop apart', () => {
    const rows = [
      row('a', 'total_points', 'over', 228.5),
      row('b', 'total_points', 'over', 227.5),
      row('a', 'team_total', 'over', 110.5, { participant: 'home' }),
      row('a', 'team_total', 'over', 108.5, { participant: 'away' }),
      row('a', 'player_prop', 'over', 25.5, { participant: 'P', statCategory: 'points' }),
      row('a', 'player_prop', 'over', 7.5, { participant: 'P', statCategory: 'rebounds' }),
    ];
    const main = mainLinesOf(rows);
    expect(rows.map((r) => isMainLine(main, r))).toEqual([false, true, true, true, true, true]);
  });

  it('counts every row of a market without a line as main', () => {
    const rows = [row('a', 'moneyline', 'home', null), row('b', 'moneyline', 'away', null)];
    expect(rows.every((r) => isMainLine(mainLinesOf(rows), r))).toBe(true);
  });
});
