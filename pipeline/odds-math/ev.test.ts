import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { evPercent } from './ev.js';

// Worked examples:
// - bettingmaths.co.uk, "What Is Expected Value in Betting?"
//   (https://www.bettingmaths.co.uk/guides/expected-value-betting/): 45% at 2.50 -> EV ROI 12.50%.
// - smartbetlab.io, "Expected value in betting"
//   (https://smartbetlab.io/guides/expected-value-in-betting): 55% at 2.00 -> +0.10 per unit,
//   55% at 1.80 -> -0.01 per unit.
// - gss-analytics.com, "Expected value betting explained"
//   (https://gss-analytics.com/blog/expected-value-betting-explained/): 52% at 2.10 -> +9.2%,
//   45% at 2.10 -> -5.5%.

describe('expected value', () => {
  it('of 45% at 2.50 is +12.5% (bettingmaths.co.uk)', () => {
    expect(evPercent(0.45, 2.5)).toBeCloseTo(12.5, 10);
  });

  it('of 55% at 2.00 is +10% and at 1.80 is -1% (smartbetlab.io)', () => {
    expect(evPercent(0.55, 2)).toBeCloseTo(10, 10);
    expect(evPercent(0.55, 1.8)).toBeCloseTo(-1, 10);
  });

  it('of 52% at 2.10 is +9.2% and of 45% is -5.5% (gss-analytics.com)', () => {
    expect(evPercent(0.52, 2.1)).toBeCloseTo(9.2, 10);
    expect(evPercent(0.45, 2.1)).toBeCloseTo(-5.5, 10);
  });

  it('is zero at the fair price', () => {
    expect(evPercent(0.5, 2)).toBe(0);
  });

  it('rejects invalid probabilities and prices', () => {
    expect(() => evPercent(1, 2)).toThrow(RangeError);
    expect(() => evPercent(0.5, 1)).toThrow(RangeError);
  });

  it('has the sign of fair probability minus implied probability', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.double({ min: 1.001, max: 100, noNaN: true }), (p, d) => {
        fc.pre(Math.abs(p * d - 1) > 1e-12);
        expect(Math.sign(evPercent(p, d))).toBe(Math.sign(p - 1 / d));
      }),
    );
  });
});
