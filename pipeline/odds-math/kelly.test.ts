import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { evPercent } from './ev.js';
import { kellyPercent } from './kelly.js';

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
