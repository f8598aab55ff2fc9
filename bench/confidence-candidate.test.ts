import { describe, expect, it } from 'vitest';
import { alonePoints, candidateConfidence, referenceSharpnessPoints, whoMovedLastPoints } from './confidence-candidate.js';

describe('the candidate confidence (a second definition, graded once on the recordings)', () => {
  it('gives full points when the reference moved after the book, none when the book moved after it', () => {
    expect(whoMovedLastPoints(1_000, 2_000)).toBe(40);
    expect(whoMovedLastPoints(2_000, 1_000)).toBe(0);
    expect(whoMovedLastPoints(1_000, 1_000)).toBe(20);
    expect(whoMovedLastPoints(1_000, null)).toBe(20);
  });

  it('gives points for the share of other books not offering about the same price', () => {
    // 2.10 is implied 47.6 %; 2.08 (48.1 %) keeps it company within a point, 1.95 (51.3 %) does not.
    expect(alonePoints(2.1, [2.08, 1.95, 1.95, 1.95])).toBe(22.5);
    expect(alonePoints(2.1, [2.1, 2.2])).toBe(0);
    expect(alonePoints(2.1, [])).toBe(15);
  });

  it('scores the reference by its own hold', () => {
    expect(referenceSharpnessPoints(2)).toBe(20);
    expect(referenceSharpnessPoints(5)).toBe(10);
    expect(referenceSharpnessPoints(9)).toBe(0);
  });

  it('adds the four parts into a whole number', () => {
    const score = candidateConfidence({
      evPercent: 3,
      priceDecimal: 2.1,
      bookChangedAt: 1_000,
      referenceChangedAt: 2_000,
      otherPrices: [1.95, 1.95],
      referenceHoldPercent: 2.5,
    });
    // 40 + 30 + 18.33 + 10
    expect(score).toBe(98);
  });
});
