import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  americanToDecimal,
  americanToProbability,
  decimalToAmerican,
  decimalToAmericanUnsnapped,
  decimalToProbability,
  probabilityToAmerican,
  probabilityToDecimal,
} from './conversions.js';

// Worked examples:
// - betting-tool.com, "Moneyline Betting Tool" (https://betting-tool.com/odds-and-conversion/moneyline-calculator/):
//   +150 -> 2.50, -150 -> 1.667, -150 ~ 60%.
// - beatthebookie.org, "Moneyline to Decimal Odds" (http://www.beatthebookie.org/category/uncategorized/page/2/):
//   +300 -> 4.0, -200 -> 1.5, decimal 4.0 -> +300, decimal 1.4 -> -250.
// - calczero.com, "Implied probability" (https://calczero.com/sports/implied-probability.html):
//   -150 -> 60%, +200 -> 33.33%, -110 -> 52.38%.

const americanOutsideEven = fc.oneof(fc.integer({ min: -100_000, max: -101 }), fc.integer({ min: 100, max: 100_000 }));

describe('American to decimal', () => {
  it('+150 is 2.50 and -150 is 1.667 (betting-tool.com)', () => {
    expect(americanToDecimal(150)).toBe(2.5);
    expect(americanToDecimal(-150)).toBeCloseTo(1.6667, 4);
  });

  it('+300 is 4.0 and -200 is 1.5 (beatthebookie.org)', () => {
    expect(americanToDecimal(300)).toBe(4);
    expect(americanToDecimal(-200)).toBe(1.5);
  });

  it('+100 and -100 are both exactly 2.0', () => {
    expect(americanToDecimal(100)).toBe(2);
    expect(americanToDecimal(-100)).toBe(2);
  });

  it('-110 is 1.90909...', () => {
    expect(americanToDecimal(-110)).toBeCloseTo(1 + 100 / 110, 12);
  });
});

describe('decimal to American', () => {
  it('4.0 is +300 and 1.4 is -250 (beatthebookie.org)', () => {
    expect(decimalToAmerican(4)).toBe(300);
    expect(decimalToAmerican(1.4)).toBe(-250);
  });

  it('2.0 is +100, never -100', () => {
    expect(decimalToAmerican(2)).toBe(100);
  });

  it('a price just under 2.0 that rounds to -100 is reported as +100', () => {
    expect(decimalToAmerican(1.999)).toBe(100);
  });

  it('rounds to the nearest whole number: 1.91 is -110, 1.95 is -105, 2.87 is +187', () => {
    expect(decimalToAmerican(1.91)).toBe(-110);
    expect(decimalToAmerican(1.95)).toBe(-105);
    expect(decimalToAmerican(2.87)).toBe(187);
  });

  it('rounds halves away from zero despite float noise: 2.005 is +101, 1.8 is -125', () => {
    // (2.005 - 1) * 100 is 100.49999999999999 in binary floating point.
    expect(decimalToAmerican(2.005)).toBe(101);
    expect(decimalToAmerican(1.8)).toBe(-125);
  });
});

describe("decimal to American, unsnapped (the feed's conversion of wire prices)", () => {
  it('agrees with decimalToAmerican away from the edges', () => {
    for (const d of [4, 1.4, 2, 1.91, 1.95, 2.87, 1.8, 1.5, 2.5, 21, 101]) {
      expect(decimalToAmericanUnsnapped(d)).toBe(decimalToAmerican(d));
    }
    expect(decimalToAmericanUnsnapped(101)).toBe(10000);
  });

  it('rounds the raw float: 2.005 is +100 where decimalToAmerican snaps it to +101', () => {
    // (2.005 - 1) * 100 is 100.49999999999999 in binary floating point.
    expect(decimalToAmericanUnsnapped(2.005)).toBe(100);
    expect(decimalToAmerican(2.005)).toBe(101);
  });

  it('gives -100 just under 2.0, where decimalToAmerican reports even money as +100', () => {
    expect(decimalToAmericanUnsnapped(1.999)).toBe(-100);
    expect(decimalToAmerican(1.999)).toBe(100);
    expect(decimalToAmericanUnsnapped(1.9999999)).toBe(-100);
  });

  it('gives null for a price that is not decimal odds, where decimalToAmerican throws', () => {
    for (const bad of [1, 0.5, 0, -2, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(decimalToAmericanUnsnapped(bad)).toBeNull();
      expect(() => decimalToAmerican(bad)).toThrow(RangeError);
    }
  });
});

describe('implied probability', () => {
  it('-150 is 60%, +200 is 33.33%, -110 is 52.38% (calczero.com)', () => {
    expect(americanToProbability(-150)).toBe(0.6);
    expect(americanToProbability(200)).toBeCloseTo(1 / 3, 12);
    expect(americanToProbability(-110)).toBeCloseTo(0.5238, 4);
  });

  it('+100 and -100 are both 50%', () => {
    expect(americanToProbability(100)).toBe(0.5);
    expect(americanToProbability(-100)).toBe(0.5);
  });

  it('probability 0.5 is +100 and decimal 2.0', () => {
    expect(probabilityToAmerican(0.5)).toBe(100);
    expect(probabilityToDecimal(0.5)).toBe(2);
  });

  it('probability 0.6 is -150 and 0.25 is +300', () => {
    expect(probabilityToAmerican(0.6)).toBe(-150);
    expect(probabilityToAmerican(0.25)).toBe(300);
  });

  it('decimal 2.5 is 40%', () => {
    expect(decimalToProbability(2.5)).toBe(0.4);
  });
});

describe('invalid input', () => {
  it('American strictly between -100 and +100 throws a RangeError', () => {
    for (const bad of [0, 50, -99, 99.9, -100.0 + 1e-9]) {
      expect(() => americanToDecimal(bad)).toThrow(RangeError);
      expect(() => americanToProbability(bad)).toThrow(RangeError);
    }
  });

  it('decimal at or below 1 throws a RangeError', () => {
    for (const bad of [1, 0.5, 0, -2]) {
      expect(() => decimalToAmerican(bad)).toThrow(RangeError);
      expect(() => decimalToProbability(bad)).toThrow(RangeError);
    }
  });

  it('probability outside (0, 1) throws a RangeError', () => {
    for (const bad of [0, 1, -0.1, 1.5]) {
      expect(() => probabilityToAmerican(bad)).toThrow(RangeError);
      expect(() => probabilityToDecimal(bad)).toThrow(RangeError);
    }
  });

  it('NaN and infinities throw a RangeError with a message naming the value', () => {
    expect(() => americanToDecimal(Number.NaN)).toThrow(/American odds.*NaN/);
    expect(() => decimalToAmerican(Number.POSITIVE_INFINITY)).toThrow(/decimal odds.*Infinity/);
    expect(() => probabilityToDecimal(Number.NaN)).toThrow(/probability.*NaN/);
  });
});

describe('round trips', () => {
  it('American -> decimal -> American is the identity for whole prices outside (-100, 100)', () => {
    fc.assert(
      fc.property(americanOutsideEven, (american) => {
        expect(decimalToAmerican(americanToDecimal(american))).toBe(american);
      }),
    );
  });

  it('American -> probability -> American is the identity for whole prices outside (-100, 100)', () => {
    fc.assert(
      fc.property(americanOutsideEven, (american) => {
        expect(probabilityToAmerican(americanToProbability(american))).toBe(american);
      }),
    );
  });

  it('decimal -> American -> decimal moves the price by at most the half-cent rounding (0.005)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.001, max: 1000, noNaN: true }), (decimal) => {
        const back = americanToDecimal(decimalToAmerican(decimal));
        expect(Math.abs(back - decimal)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });

  it('decimal and probability are exact reciprocals', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.001, max: 1000, noNaN: true }), (decimal) => {
        expect(probabilityToDecimal(decimalToProbability(decimal))).toBeCloseTo(decimal, 9);
      }),
    );
  });
});
