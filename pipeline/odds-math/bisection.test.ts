import { describe, it, expect } from 'vitest';
import { bisect } from './bisection.js';

describe('bisection', () => {
  it('finds sqrt 2 as the root of x^2 - 2 on [0, 2] to 1e-12', () => {
    expect(Math.abs(bisect((x) => x * x - 2, 0, 2) - Math.SQRT2)).toBeLessThan(1e-12);
  });

  it('works for decreasing functions too', () => {
    expect(bisect((x) => 1 - x, 0, 3)).toBeCloseTo(1, 12);
  });

  it('returns an endpoint that is already a root', () => {
    expect(bisect((x) => x, 0, 1)).toBe(0);
  });

  it('refuses a bracket without a sign change', () => {
    expect(() => bisect((x) => x * x + 1, -1, 1)).toThrow(RangeError);
  });
});
