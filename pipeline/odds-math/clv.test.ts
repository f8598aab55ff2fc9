import { describe, expect, it } from 'vitest';
import { clvPercent } from './clv.js';
import { evPercent } from './ev.js';

describe('closing line value', () => {
  it('is (p * d - 1) * 100 with the closing fair probability: +150 taken, closed at 42% fair is +5%', () => {
    expect(clvPercent(0.42, 2.5)).toBe(5.000000000000004);
    expect(clvPercent(0.5, 1.9)).toBe(-5.000000000000004);
    expect(clvPercent(0.5, 2)).toBe(0);
  });

  it('is evPercent with the close as the fair line', () => {
    for (const [p, d] of [
      [0.42, 2.5],
      [0.55, 1.8],
      [0.1, 11],
    ] as const) {
      expect(clvPercent(p, d)).toBe(evPercent(p, d));
    }
  });

  it('takes the rounded edges 0 and 1 as they are', () => {
    expect(clvPercent(0, 3)).toBe(-100);
    expect(clvPercent(1, 1.5)).toBe(50);
  });

  it('throws a RangeError for a price that is not decimal odds', () => {
    expect(() => clvPercent(0.5, 1)).toThrow(RangeError);
  });
});
