import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { evPercent } from './ev.js';
import { kellyPercent, simultaneousKelly } from './kelly.js';

// Worked examples:
// - Wikipedia, "Kelly criterion" (https://en.wikipedia.org/wiki/Kelly_criterion): a 60% chance at
//   even odds (b = 1) -> bet 20% of the bankroll (f* = 0.6 - 0.4/1).
// - Perl module Algorithm::Kelly (https://github.com/dnmfarrell/algorithm-kelly):
//   optimal_f(0.5, 2) = 0.25, i.e. 50% at net odds 2 (decimal 3.0) -> 25%.

describe('Kelly stake', () => {
  it('of p = 0.6 at even money is 20% (Wikipedia)', () => {
    expect(kellyPercent(0.6, 2)).toBeCloseTo(20, 10);
  });

  it('of p = 0.5 at decimal 3.0 is 25% (Algorithm::Kelly)', () => {
    expect(kellyPercent(0.5, 3)).toBeCloseTo(25, 10);
  });

  it('is returned raw when negative: p = 0.4 at even money is -20%, not 0', () => {
    expect(kellyPercent(0.4, 2)).toBeCloseTo(-20, 10);
  });

  it('is zero at the fair price', () => {
    expect(kellyPercent(0.25, 4)).toBe(0);
  });

  it('rejects invalid probabilities and prices', () => {
    expect(() => kellyPercent(0, 2)).toThrow(RangeError);
    expect(() => kellyPercent(0.5, 0.5)).toThrow(RangeError);
  });

  it('equals the EV divided by the net odds, so it has the sign of the EV', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.double({ min: 1.001, max: 100, noNaN: true }), (p, d) => {
        expect(kellyPercent(p, d)).toBeCloseTo(evPercent(p, d) / (d - 1), 6);
      }),
    );
  });

  it('never stakes more than the whole bankroll', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.double({ min: 1.001, max: 100, noNaN: true }), (p, d) => {
        expect(kellyPercent(p, d)).toBeLessThan(100);
      }),
    );
  });
});

describe('simultaneous Kelly over mutually exclusive outcomes (Smoczynski & Tomkins 2010)', () => {
  // Hand-derived, not a published example (the paper's own numbers could not be checked
  // offline). p = [0.5, 0.3, 0.2] at [2.2, 3.6, 3.5]: expected returns 1.1, 1.08, 0.7. The first
  // joins (1.1 > 1), R = 0.5 / (1 - 5/11) = 11/12; the second (1.08 > 11/12),
  // R = 0.2 / (1 - 5/11 - 5/18) = 39.6/53; the third does not (0.7 < 0.747). Stakes
  // 0.5 - R/2.2 = 17/106 and 0.3 - R/3.6 = 49/530, and 1 - 67/265 = R is kept back.
  it('stakes 17/106 and 49/530 on the first two of three outcomes and nothing on the third', () => {
    const stakes = simultaneousKelly([0.5, 0.3, 0.2], [2.2, 3.6, 3.5]);
    expect(stakes[0]).toBeCloseTo(17 / 106, 12);
    expect(stakes[1]).toBeCloseTo(49 / 530, 12);
    expect(stakes[2]).toBe(0);
  });

  it('is the plain Kelly stake for one outcome (Wikipedia: 60% at evens, 20%)', () => {
    expect(simultaneousKelly([0.6], [2])[0]).toBeCloseTo(kellyPercent(0.6, 2) / 100, 12);
    expect(simultaneousKelly([0.6, 0.4], [2, 2])).toEqual([expect.closeTo(0.2, 12), 0]);
  });

  it('maximises expected log wealth: nudging any stake lowers it', () => {
    const p = [0.5, 0.3, 0.2];
    const d = [2.2, 3.6, 3.5];
    const growth = (f: number[]): number => {
      const kept = 1 - f.reduce((s, x) => s + x, 0);
      return p.reduce((g, pi, i) => g + pi * Math.log(kept + (f[i] ?? 0) * (d[i] ?? 1)), 0);
    };
    const best = simultaneousKelly(p, d);
    for (let i = 0; i < 3; i++) {
      for (const step of [-1e-3, 1e-3]) {
        const nudged = best.map((f, j) => (j === i ? Math.max(0, f + step) : f));
        expect(growth(nudged)).toBeLessThanOrEqual(growth(best) + 1e-15);
      }
    }
  });

  it('stakes everything in proportion to p on prices whose inverses sum below 1', () => {
    const stakes = simultaneousKelly([0.5, 0.5], [2.1, 2.1]);
    expect(stakes).toEqual([0.5, 0.5]);
  });

  it('refuses probabilities summing above 1 and mismatched lengths', () => {
    expect(() => simultaneousKelly([0.6, 0.6], [2, 2])).toThrow(RangeError);
    expect(() => simultaneousKelly([0.5], [2, 2])).toThrow(RangeError);
  });
});
