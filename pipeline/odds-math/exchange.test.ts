import { describe, expect, it } from 'vitest';
import { backLayMidpoint, layAsBackDecimal, netBackDecimal } from './exchange.js';

describe('exchange prices', () => {
  it('takes commission off the winnings of a back bet', () => {
    expect(netBackDecimal(3, 5)).toBeCloseTo(2.9, 12);
    expect(netBackDecimal(1.5, 2)).toBeCloseTo(1.49, 12);
    expect(netBackDecimal(4, 0)).toBe(4);
  });

  it('prices a lay bet as a back bet on the outcome not happening, commission off what the layer wins', () => {
    // Lay at 3.0: risk 2 to win 1 less 5 %: decimal 1 + 0.95 / 2.
    expect(layAsBackDecimal(3, 5)).toBeCloseTo(1.475, 12);
    expect(layAsBackDecimal(2, 0)).toBe(2);
  });

  it('reads the fair probability as the midpoint of what back and lay imply, with the spread between them', () => {
    const m = backLayMidpoint(2, 2.5);
    expect(m.probability).toBeCloseTo(0.45, 12);
    expect(m.spread).toBeCloseTo(0.1, 12);
  });

  it('refuses prices and rates that cannot be', () => {
    expect(() => netBackDecimal(1, 5)).toThrow(RangeError);
    expect(() => netBackDecimal(2, 100)).toThrow(RangeError);
    expect(() => layAsBackDecimal(2, -1)).toThrow(RangeError);
  });
});
