import { describe, expect, it } from 'vitest';
import { expectedDirection, staleDerivatives } from './stale-derivatives.js';
import type { DerivativeRow, SharpMove } from './stale-derivatives.js';

const T0 = Date.UTC(2026, 0, 1);
/** Pinnacle moves the total from 220.5 to 222.5 at T0. */
const totalUp: SharpMove = { eventId: 'e1', book: 'pinnacle', market: 'total_points', fromLine: 220.5, toLine: 222.5, at: T0 };
/** Pinnacle moves the home spread from -3 to -5 at T0 (home more favoured). */
const spreadToHome: SharpMove = { eventId: 'e1', book: 'pinnacle', market: 'point_spread', fromLine: -3, toLine: -5, at: T0 };

function row(over: Partial<DerivativeRow>): DerivativeRow {
  return {
    id: 'r1',
    eventId: 'e1',
    book: 'draftkings',
    market: 'team_total',
    selection: 'over',
    line: 110.5,
    participant: 'home',
    oddsChangedAt: T0 - 60_000,
    isMainLine: true,
    ...over,
  };
}
const threshold60 = (): number => 60;

describe('staleDerivatives', () => {
  it("flags a soft book's team total unchanged since the move once its book's threshold has passed, not before", () => {
    expect(staleDerivatives(totalUp, [row({})], T0 + 60_000, threshold60)).toEqual([]);
    expect(staleDerivatives(totalUp, [row({})], T0 + 60_001, threshold60)).toEqual([
      { rowId: 'r1', warning: 'STALE_AFTER_SHARP_MOVE', move: totalUp, expected: 'shorten' },
    ]);
  });

  it('ignores a move under a point, a row repriced since the move, a sharp book and another event', () => {
    const small = { ...totalUp, toLine: 221 };
    expect(staleDerivatives(small, [row({})], T0 + 120_000, threshold60)).toEqual([]);
    const rows = [row({ id: 'repriced', oddsChangedAt: T0 }), row({ id: 'sharp', book: 'circa' }), row({ id: 'other', eventId: 'e2' })];
    expect(staleDerivatives(totalUp, rows, T0 + 120_000, threshold60)).toEqual([]);
  });

  it('leaves the main lines and markets that do not follow the move alone', () => {
    const rows = [
      row({ id: 'main-total', market: 'total_points', isMainLine: true }),
      row({ id: 'moneyline', market: 'moneyline', selection: 'home', participant: null }),
    ];
    expect(staleDerivatives(totalUp, rows, T0 + 120_000, threshold60)).toEqual([]);
  });
});

describe('expectedDirection', () => {
  it('after a higher total: every Over shortens and every Under lengthens (alternates, halves, team totals, props)', () => {
    expect(expectedDirection(totalUp, row({ market: 'total_points', isMainLine: false, selection: 'over' }))).toBe('shorten');
    expect(expectedDirection(totalUp, row({ market: '1st_half', selection: 'under' }))).toBe('lengthen');
    expect(expectedDirection(totalUp, row({ market: 'team_total', participant: 'away', selection: 'over' }))).toBe('shorten');
    expect(expectedDirection(totalUp, row({ market: 'player_prop', participant: 'LeBron James', selection: 'over' }))).toBe('shorten');
    expect(expectedDirection({ ...totalUp, toLine: 218.5 }, row({ selection: 'over' }))).toBe('lengthen');
  });

  it('after a spread moving towards home: home sides and the home team total Over shorten, the away ones lengthen', () => {
    expect(expectedDirection(spreadToHome, row({ market: 'point_spread', isMainLine: false, selection: 'home' }))).toBe('shorten');
    expect(expectedDirection(spreadToHome, row({ market: '1st_half', selection: 'away' }))).toBe('lengthen');
    expect(expectedDirection(spreadToHome, row({ market: 'team_total', participant: 'home', selection: 'over' }))).toBe('shorten');
    expect(expectedDirection(spreadToHome, row({ market: 'team_total', participant: 'away', selection: 'over' }))).toBe('lengthen');
    expect(expectedDirection(spreadToHome, row({ market: 'player_prop', participant: 'LeBron James' }))).toBeNull();
  });
});
