import { describe, expect, it } from 'vitest';
import { LEAGUES, type LeagueDef } from '../../../schemas/index.js';
import { type GameState, fairHomeCover, fairMoneyline, nextLine, scalesFor, sideGrid, totalGrid } from './fair.js';

function league(id: string): LeagueDef {
  const l = LEAGUES.find((x) => x.id === id);
  if (l === undefined) throw new Error(`no league ${id}`);
  return l;
}

const even: GameState = { margin: 0, total: 2.5, marginScale: 0.87, totalScale: 0.87, drawBase: 0.28 };

describe('fair probabilities', () => {
  it('gives a three-way moneyline that sums to one, draws likeliest in an even match', () => {
    const out: number[] = [];
    expect(fairMoneyline(even, 0, out)).toBe(3);
    expect(out[0]).toBeCloseTo(0.36, 10);
    expect(out[1]).toBeCloseTo(0.28, 10);
    expect((out[0] ?? 0) + (out[1] ?? 0) + (out[2] ?? 0)).toBeCloseTo(1, 12);
    fairMoneyline(even, 1.5, out);
    expect(out[1]).toBeLessThan(0.28);
    expect(out[0]).toBeGreaterThan(out[2] ?? 1);
  });

  it('covers a handicap equal to the expected margin half of the time', () => {
    const nba: GameState = { ...even, ...scalesFor(league('nba')), drawBase: 0, margin: 4 };
    expect(fairHomeCover(nba, 4, 1, -4)).toBeCloseTo(0.5, 12);
    expect(fairHomeCover(nba, 4, 1, -3.5)).toBeGreaterThan(0.5);
    expect(fairHomeCover(nba, 4, 0.5, -2)).toBeCloseTo(0.5, 12);
  });
});

describe('nextLine', () => {
  const spread = sideGrid(league('nba'), 1);
  it('hangs the nearest grid line first, then moves only past the threshold', () => {
    expect(nextLine(null, 3.6, spread, 6.6)).toBe(3.5);
    expect(nextLine(3.5, 4.1, spread, 6.6)).toBe(3.5);
    expect(nextLine(3.5, 4.3, spread, 6.6)).toBe(4.5);
    expect(nextLine(3.5, 2.7, spread, 6.6)).toBe(2.5);
  });

  it('keeps puck and run lines at +-1.5 on the favourite', () => {
    const puck = sideGrid(league('nhl'), 1);
    expect(puck).toEqual({ step: 1.5, offset: 0, fixed: true });
    expect(nextLine(null, -0.4, puck, 1.3)).toBe(-1.5);
    expect(nextLine(-1.5, 0.05, puck, 1.3)).toBe(-1.5);
    expect(nextLine(-1.5, 0.3, puck, 1.3)).toBe(1.5);
  });

  it('puts whole-number totals on the half so they never push', () => {
    const rounds = totalGrid(league('ufc'), 1);
    expect(nextLine(null, 2.9, rounds, 1)).toBe(2.5);
    expect(nextLine(null, 0.1, rounds, 1)).toBe(0.5);
  });
});
