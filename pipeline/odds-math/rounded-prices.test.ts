import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { americanToDecimal, americanToProbability } from './conversions.js';
import { roundedDecimalOdds, roundedImpliedProbability } from './rounded-prices.js';

describe('rounded prices', () => {
  it('gives decimal odds to 4 places and the implied probability to 6', () => {
    expect([roundedDecimalOdds(-110), roundedImpliedProbability(-110)]).toEqual([1.9091, 0.52381]);
    expect([roundedDecimalOdds(-105), roundedImpliedProbability(-105)]).toEqual([1.9524, 0.512195]);
    expect([roundedDecimalOdds(150), roundedImpliedProbability(150)]).toEqual([2.5, 0.4]);
    expect([roundedDecimalOdds(-333), roundedImpliedProbability(-333)]).toEqual([1.3003, 0.769053]);
    expect([roundedDecimalOdds(10000), roundedImpliedProbability(10000)]).toEqual([101, 0.009901]);
    expect([roundedDecimalOdds(-10000), roundedImpliedProbability(-10000)]).toEqual([1.01, 0.990099]);
  });

  it('gives +100 and -100 the same numbers', () => {
    expect([roundedDecimalOdds(100), roundedImpliedProbability(100)]).toEqual([2, 0.5]);
    expect([roundedDecimalOdds(-100), roundedImpliedProbability(-100)]).toEqual([2, 0.5]);
  });

  it('is the unrounded conversion rounded half up at that many places', () => {
    const american = fc.oneof(fc.integer({ min: -100_000, max: -100 }), fc.integer({ min: 100, max: 100_000 }));
    fc.assert(
      fc.property(american, (a) => {
        expect(roundedDecimalOdds(a)).toBe(Math.round(americanToDecimal(a) * 10 ** 4) / 10 ** 4);
        expect(roundedImpliedProbability(a)).toBe(Math.round(americanToProbability(a) * 10 ** 6) / 10 ** 6);
      }),
    );
  });

  it('throws a RangeError for a price that is not American odds', () => {
    expect(() => roundedDecimalOdds(50)).toThrow(RangeError);
    expect(() => roundedImpliedProbability(Number.NaN)).toThrow(RangeError);
  });
});
