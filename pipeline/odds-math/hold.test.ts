import { describe, it, expect } from 'vitest';
import { americanToDecimal } from './conversions.js';
import { hold, impliedProbabilities, impliedSum, overround } from './hold.js';

// Worked examples:
// - Ganchrow, SBR forum "Vig Formula" (http://forum.sbrforum.com/231636-post6.html): theoretical
//   hold = 1 - 1/overround; +200/-220 -> 2.041%, -150/+340/+400 -> 2.655%.
// - bettorstack.com, "No-vig calculator" (https://bettorstack.com/no-vig-calculator/):
//   -110/-110 implies 52.38% + 52.38% = 104.76%, a 4.76% vig (overround).

const fromAmerican = (prices: number[]): number[] => prices.map(americanToDecimal);

describe('overround', () => {
  it('-110/-110 carries a 4.76% overround (bettorstack.com)', () => {
    expect(overround(fromAmerican([-110, -110]))).toBeCloseTo(0.0476, 4);
  });

  it('is zero for an even-money pair', () => {
    expect(overround([2, 2])).toBe(0);
  });

  it('is negative when best prices across books pay out more than is staked', () => {
    expect(overround([2.1, 2.1])).toBeCloseTo(2 / 2.1 - 1, 12);
  });
});

describe('hold', () => {
  it('+200/-220 holds 2.041% (Ganchrow, SBR)', () => {
    expect(hold(fromAmerican([200, -220])) * 100).toBeCloseTo(2.041, 3);
  });

  it('-150/+340/+400 holds 2.655% (Ganchrow, SBR)', () => {
    expect(hold(fromAmerican([-150, 340, 400])) * 100).toBeCloseTo(2.655, 3);
  });

  it('-110/-110 holds 4.545%, less than its 4.76% overround', () => {
    expect(hold(fromAmerican([-110, -110]))).toBeCloseTo(1 / 22, 12);
  });
});

describe('implied probabilities', () => {
  it('are the reciprocals of the prices, in order, margin included', () => {
    expect(impliedProbabilities([2.5, 1.6])).toEqual([0.4, 0.625]);
    expect(impliedSum([2.5, 1.6])).toBe(1.025);
  });

  it('reject a one-outcome market and invalid prices', () => {
    expect(() => impliedProbabilities([1.9])).toThrow(RangeError);
    expect(() => impliedProbabilities([1.9, 1])).toThrow(RangeError);
    expect(() => overround([1.9, Number.NaN])).toThrow(RangeError);
  });
});
