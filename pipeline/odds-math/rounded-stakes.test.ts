import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundedStakes } from './rounded-stakes.js';

describe('roundedStakes', () => {
  it('splits the bankroll in proportion to 1/decimal, in cents that add up exactly', () => {
    expect(roundedStakes([2.05, 2], 1000)).toEqual([
      { stake: 493.83, payout: 1012.35 },
      { stake: 506.17, payout: 1012.34 },
    ]);
  });

  it('gives the cents left over to the largest remainders: 2.5 / 3.4 / 3.1 on 10', () => {
    // Exact shares in cents: 393.43, 289.28, 317.28; the floors leave one cent for the first.
    expect(roundedStakes([2.5, 3.4, 3.1], 10)).toEqual([
      { stake: 3.94, payout: 9.85 },
      { stake: 2.89, payout: 9.83 },
      { stake: 3.17, payout: 9.83 },
    ]);
  });

  it('breaks equal remainders towards the earlier outcome', () => {
    expect(roundedStakes([3, 3, 3], 100)).toEqual([
      { stake: 33.34, payout: 100.02 },
      { stake: 33.33, payout: 99.99 },
      { stake: 33.33, payout: 99.99 },
    ]);
  });

  it('can leave an outcome at zero when the bankroll is a cent', () => {
    expect(roundedStakes([1.5, 4], 0.01)).toEqual([
      { stake: 0.01, payout: 0.02 },
      { stake: 0, payout: 0 },
    ]);
  });

  it('always adds up to the bankroll to the cent', () => {
    const price = fc.double({ min: 1.01, max: 50, noNaN: true });
    fc.assert(
      fc.property(fc.array(price, { minLength: 2, maxLength: 4 }), fc.integer({ min: 100, max: 1_000_000_000 }), (prices, cents) => {
        const stakes = roundedStakes(prices, cents / 100);
        expect(Math.round(stakes.reduce((s, x) => s + x.stake * 100, 0))).toBe(cents);
      }),
    );
  });

  it('throws a RangeError for a price that is not decimal odds or a bankroll that is not positive', () => {
    expect(() => roundedStakes([2, 1], 100)).toThrow(RangeError);
    expect(() => roundedStakes([2, 2], 0)).toThrow(RangeError);
    expect(() => roundedStakes([2, 2], Number.NaN)).toThrow(RangeError);
  });
});
