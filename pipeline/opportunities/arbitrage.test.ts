import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, LowHoldOpportunity } from '../../schemas/index.js';
import { Harness, event, ml, only, totals } from './fixtures/builders.js';

const dec = (a: number): number => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

describe('arbitrage', () => {
  const h = new Harness();
  h.event(event());
  h.ticks([...ml('fanduel', 110, -130), ...ml('caesars', -125, 105), ...ml('draftkings', 108, -128)]);
  const arbs = h.active('arbitrage') as ArbitrageOpportunity[];

  it('pairs the best prices of two books when their implied probabilities sum below 1', () => {
    const best = arbs.reduce((a, b) => (a.profitPercent >= b.profitPercent ? a : b));
    const s = 1 / dec(110) + 1 / dec(105);
    expect(best.legs.map((l) => [l.book, l.selection, l.priceAmerican])).toEqual([
      ['fanduel', 'home', 110],
      ['caesars', 'away', 105],
    ]);
    expect(best.profitPercent).toBeCloseTo((1 / s - 1) * 100, 4);
    expect(best.impliedSum).toBeCloseTo(s, 8);
    expect(best.legs.map((l) => l.stakeShare)).toEqual([+(1 / dec(110) / s).toFixed(6), +(1 / dec(105) / s).toFixed(6)]);
    expect(best.line).toBeNull();
  });

  it('lists every combination of books that is an arbitrage, one situation', () => {
    expect(arbs.map((a) => a.legs.map((l) => l.book).join('+')).sort()).toEqual(['draftkings+caesars', 'fanduel+caesars']);
    expect(new Set(arbs.map((a) => a.situation)).size).toBe(1);
    expect(new Set(arbs.map((a) => a.id)).size).toBe(2);
  });

  it("ignores one book's market beating itself", () => {
    const solo = new Harness();
    solo.event(event());
    solo.ticks(ml('betmgm', 105, 105));
    expect(solo.active('arbitrage')).toEqual([]);
    expect((only(solo.active('low_hold')) as LowHoldOpportunity).holdPercent).toBeCloseTo((1 - 1 / (2 / dec(105))) * 100, 4);
  });
});

describe('low-hold', () => {
  it('reports a market whose best-price hold is at most 2 %, with the hold as 1 - 1/sum', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...totals('pinnacle', 220.5, -104, -104), ...totals('draftkings', 220.5, -110, -110)]);
    const o = only(h.active('low_hold')) as LowHoldOpportunity;
    expect(o.legs.map((l) => [l.book, l.selection, l.line])).toEqual([
      ['pinnacle', 'over', 220.5],
      ['pinnacle', 'under', 220.5],
    ]);
    expect(o.holdPercent).toBeCloseTo((1 - 204 / 208) * 100, 4);
    expect(o.line).toBe(220.5);
  });

  it('takes the threshold from the options', () => {
    const h = new Harness({ lowHoldPercent: 5 });
    h.event(event());
    h.ticks(totals('draftkings', 220.5, -110, -110));
    expect((only(h.active('low_hold')) as LowHoldOpportunity).holdPercent).toBe(4.5455);
  });

  it('keeps the best market over every book, and the best within each book scope', () => {
    const ticks = [...totals('pinnacle', 220.5, 100, -102), ...totals('circa', 220.5, -101, -101), ...totals('lowvig', 220.5, -102, 100)];
    const plain = new Harness();
    plain.event(event());
    plain.ticks(ticks);
    const holds = (h: Harness): [string, number][] =>
      (h.active('low_hold') as LowHoldOpportunity[])
        .map((o): [string, number] => [o.legs.map((l) => l.book).join('+'), o.holdPercent])
        .sort();
    expect(holds(plain)).toEqual([['pinnacle+lowvig', 0]]);
    const scoped = new Harness({ bookScopes: [['circa', 'lowvig']] });
    scoped.event(event());
    scoped.ticks(ticks);
    expect(holds(scoped)).toEqual([
      ['circa+lowvig', +((1 - 1 / (1 / dec(-101) + 1 / dec(100))) * 100).toFixed(4)],
      ['pinnacle+lowvig', 0],
    ]);
  });
});
