import { describe, it, expect } from 'vitest';
import { americanToDecimal } from './conversions.js';
import { decimalToFractional, fractionalToDecimal } from './fractional.js';

// Hand-checkable examples (decimal = 1 + a/b): 5/2 is 3.5, evens 1/1 is 2.0, 1/4 is 1.25, and
// -110 (decimal 21/11) is 10/11.

describe('fractional odds in', () => {
  it.each([
    ['5/2', 3.5],
    ['1/1', 2],
    ['1/4', 1.25],
    ['11/8', 2.375],
    [' 6 / 4 ', 2.5],
  ])('%s is decimal %d', (fraction, decimal) => {
    expect(fractionalToDecimal(fraction)).toBe(decimal);
  });

  it.each(['0/1', '3/0', '2.5/1', '-1/2', 'evens', '', '5/2/1'])('refuses %j', (fraction) => {
    expect(() => fractionalToDecimal(fraction)).toThrow(RangeError);
  });
});

describe('fractional odds out', () => {
  it.each([
    [3.5, '5/2'],
    [2, '1/1'],
    [1.25, '1/4'],
    [2.375, '11/8'],
    [2.5, '3/2'],
    [americanToDecimal(-110), '10/11'],
    [1.91, '91/100'],
  ])('decimal %d is %s', (decimal, fraction) => {
    expect(decimalToFractional(decimal)).toBe(fraction);
  });

  it('takes the closest fraction within the denominator bound', () => {
    // decimal pi + 1 pays pi to 1; Python's Fraction(math.pi).limit_denominator gives 22/7 and 311/99.
    expect(decimalToFractional(Math.PI + 1, 10)).toBe('22/7');
    expect(decimalToFractional(Math.PI + 1, 100)).toBe('311/99');
  });

  it('round-trips every fraction with a denominator up to 100', () => {
    for (let b = 1; b <= 100; b += 7) {
      for (let a = 1; a <= 300; a += 13) {
        const back = decimalToFractional(fractionalToDecimal(`${String(a)}/${String(b)}`));
        expect(fractionalToDecimal(back)).toBeCloseTo(1 + a / b, 12);
      }
    }
  });

  it('refuses a decimal price of 1 or less and a bound below 1', () => {
    expect(() => decimalToFractional(1)).toThrow(RangeError);
    expect(() => decimalToFractional(2, 0)).toThrow(RangeError);
  });
});
