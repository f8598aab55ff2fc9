import { describe, expect, it } from 'vitest';
import type { MiddleOpportunity } from '../../schemas/index.js';
import { Harness, event, only, spread, totals } from './fixtures/builders.js';

const nfl = event({ sport: 'football', league: 'nfl', homeTeamId: 'kansas-city-chiefs', awayTeamId: 'buffalo-bills' });

/** P(a < X < b) for X normal, by Simpson's rule: independent of odds-math's erf. */
function normalMass(a: number, b: number, mean: number, sigma: number): number {
  const n = 2000;
  const h = (b - a) / n;
  const f = (x: number): number => Math.exp(-(((x - mean) / sigma) ** 2) / 2) / (sigma * Math.sqrt(2 * Math.PI));
  let s = f(a) + f(b);
  for (let i = 1; i < n; i++) s += f(a + i * h) * (i % 2 === 0 ? 2 : 4);
  return (s * h) / 3;
}

describe('middles', () => {
  it('pairs an Over at a low line with an Under at a higher line at another book', () => {
    const h = new Harness();
    h.event(nfl);
    h.ticks([...totals('draftkings', 44.5, -110, -110), ...totals('fanduel', 47.5, -110, -110)]);
    const o = only(h.active('middle')) as MiddleOpportunity;
    expect(o.legs.map((l) => [l.book, l.selection, l.line, l.stakeShare])).toEqual([
      ['draftkings', 'over', 44.5, 0.5],
      ['fanduel', 'under', 47.5, 0.5],
    ]);
    expect([o.lowerBound, o.upperBound, o.windowSize, o.windowOutcomes]).toEqual([44.5, 47.5, 3, [45, 46, 47]]);
    expect(o.model).toEqual({ mean: 46, sigma: 13.5 });
    // Whole scores: the window 45..47 is the mass of [44.5, 47.5] after the continuity correction.
    expect(o.hitProbability).toBeCloseTo(normalMass(44.5, 47.5, 46, 13.5), 6);
    const miss = (0.5 * (1 + 100 / 110) - 1) * 100;
    const both = (2 * 0.5 * (1 + 100 / 110) - 1) * 100;
    expect(o.missProfitPercent).toBeCloseTo(miss, 4);
    expect(o.worstCaseProfitPercent).toBeCloseTo(miss, 4);
    expect(o.maxProfitPercent).toBeCloseTo(both, 4);
    expect(o.evPercent).toBeCloseTo(miss + o.hitProbability * (both - miss), 3);
  });

  it('finds the spread window on the home margin', () => {
    const h = new Harness();
    h.event(nfl);
    h.ticks([...spread('draftkings', -2.5, -110, -110), ...spread('fanduel', -3.5, -105, -115)]);
    const o = only(h.active('middle')) as MiddleOpportunity;
    // DraftKings home -2.5 covers when the home side wins by 3+, FanDuel away +3.5 when it wins by 3 or less.
    expect(o.legs.map((l) => [l.book, l.selection, l.line])).toEqual([
      ['draftkings', 'home', -2.5],
      ['fanduel', 'away', 3.5],
    ]);
    expect([o.lowerBound, o.upperBound, o.windowOutcomes]).toEqual([2.5, 3.5, [3]]);
    expect(o.model).toEqual({ mean: 3, sigma: 13.86 });
    expect(o.hitProbability).toBeCloseTo(normalMass(2.5, 3.5, 3, 13.86), 6);
  });

  it('needs a whole-number result inside the window, two books, and no quarter lines', () => {
    const h = new Harness();
    h.event(nfl);
    // 44.5 / 45: only a push at 45; same book at two lines; Asian quarter lines.
    h.ticks([...totals('draftkings', 44.5, -110, -110), ...totals('fanduel', 45, -110, -110), ...totals('fanduel', 49.5, -110, -110)]);
    h.ticks([...totals('betmgm', 2.25, -110, -110), ...totals('caesars', 3.75, -110, -110)]);
    const pairs = (h.active('middle') as MiddleOpportunity[]).map((o) => o.legs.map((l) => `${l.book}:${l.selection}:${l.line}`).join(' '));
    expect(pairs.sort()).toEqual(['draftkings:over:44.5 fanduel:under:49.5']);
  });
});
