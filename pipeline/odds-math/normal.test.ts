import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { normalCdf } from './normal.js';

// Reference values from Python's math.erfc (Phi(z) = erfc(-z / sqrt 2) / 2), which agree with the
// printed tables (e.g. Phi(1) = 0.8413, Phi(1.96) = 0.9750).
const REFERENCE: [number, number][] = [
  [-8, 6.220960574271819e-16],
  [-5, 2.866515718791946e-7],
  [-3.6, 0.000159108590157534],
  [-3.5, 0.00023262907903552504],
  [-2, 0.02275013194817922],
  [-1, 0.15865525393145707],
  [-0.3, 0.3820885778110474],
  [0, 0.5],
  [1, 0.8413447460685429],
  [1.96, 0.9750021048517795],
  [3.5, 0.9997673709209645],
  [6, 0.9999999990134123],
];

describe('standard normal distribution function', () => {
  for (const [z, expected] of REFERENCE) {
    it(`Phi(${String(z)}) is ${String(expected)}`, () => {
      expect(Math.abs(normalCdf(z) - expected)).toBeLessThan(1e-14);
    });
  }

  it('is symmetric: Phi(z) + Phi(-z) = 1', () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (z) => {
        expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 14);
      }),
    );
  });

  it('is non-decreasing', () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (z, step) => {
        expect(normalCdf(z + step)).toBeGreaterThanOrEqual(normalCdf(z));
      }),
    );
  });
});
