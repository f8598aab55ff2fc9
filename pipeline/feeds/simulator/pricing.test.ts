import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanToProbability } from '../../odds-math/index.js';
import { negate, priceOutcomes, probabilityToAmerican, snapToGrid } from './pricing.js';

describe('probabilityToAmerican', () => {
  it('prices even money as +100, never -100', () => {
    expect(probabilityToAmerican(0.5, 1)).toBe(100);
    expect(probabilityToAmerican(0.5, 5)).toBe(100);
    expect(probabilityToAmerican(0.5001, 5)).toBe(-105);
  });

  it("rounds in the book's favour to its increment", () => {
    expect(probabilityToAmerican(0.5238, 1)).toBe(-110);
    expect(probabilityToAmerican(0.51, 1)).toBe(-105);
    expect(probabilityToAmerican(0.51, 5)).toBe(-105);
    expect(probabilityToAmerican(0.52, 10)).toBe(-110);
    expect(probabilityToAmerican(0.4, 1)).toBe(150);
    expect(probabilityToAmerican(0.41, 5)).toBe(140);
    expect(probabilityToAmerican(0.12, 5)).toBe(725);
    expect(probabilityToAmerican(0.001, 5)).toBe(10_000);
    expect(probabilityToAmerican(0.999, 1)).toBe(-10_000);
  });

  it('never returns a price between -100 and +100, for any probability and increment', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(1, 5, 10), (p, cents) => {
        const a = probabilityToAmerican(p, cents);
        return Number.isInteger(a) && (a >= 100 || a < -100);
      }),
    );
  });

  it('never pays more than the probability is worth', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.011, max: 0.989, noNaN: true }), fc.constantFrom(1, 5, 10), (p, cents) => {
        return americanToProbability(probabilityToAmerican(p, cents)) >= p - 1e-9;
      }),
    );
  });
});

describe('priceOutcomes', () => {
  it('builds the overround into the prices and tilts from the last outcome to the first', () => {
    const out: number[] = [];
    // A 2% book on a coin flip: -104.1 each side, rounded against the bettor.
    priceOutcomes([0.5, 0.5], 2, 0.02, 0, 1, out);
    expect(out).toEqual([-105, -105]);
    priceOutcomes([0.5, 0.5], 2, 0.0476, 0, 5, out);
    expect(out).toEqual([-110, -110]);
    priceOutcomes([0.5, 0.5], 2, 0.02, 0.02, 1, out);
    expect(out).toEqual([-113, 104]);
    priceOutcomes([0.45, 0.27, 0.28], 3, 0.03, 0, 1, out);
    expect(out).toEqual([115, 259, 246]);
  });
});

describe('lines', () => {
  it('snaps to the grid without negative zero', () => {
    expect(snapToGrid(-3.6, 0.5, 0)).toBe(-3.5);
    expect(snapToGrid(2.6, 1, 0.5)).toBe(2.5);
    expect(snapToGrid(2.1, 0.25, 0)).toBe(2);
    expect(Object.is(snapToGrid(-0.1, 0.5, 0), 0)).toBe(true);
    expect(Object.is(negate(0), 0)).toBe(true);
    expect(negate(-3.5)).toBe(3.5);
  });
});
