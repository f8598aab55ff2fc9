import { describe, expect, it } from 'vitest';
import type { ConfidenceInputs } from '../../schemas/index.js';
import {
  alonePoints,
  confidenceScore,
  keepsCompany,
  plausibilityPoints,
  referenceSharpnessPoints,
  whoMovedLastPoints,
} from './confidence.js';

describe('the confidence score, part by part', () => {
  it('gives 40 when the reference changed after the book, 0 when the book changed after it, 20 when simultaneous or unknown', () => {
    expect(whoMovedLastPoints(1_000, 2_000)).toBe(40);
    expect(whoMovedLastPoints(2_000, 1_000)).toBe(0);
    expect(whoMovedLastPoints(1_000, 1_000)).toBe(20);
    expect(whoMovedLastPoints(1_000, null)).toBe(20);
    expect(whoMovedLastPoints(null, 2_000)).toBe(20);
  });

  it('counts another book as company when its price is at most one point of implied probability worse', () => {
    // 2.10 is implied 47.62 %; 2.08 (48.08 %) is within a point, 2.05 (48.78 %) is not, 2.20 is better.
    expect(keepsCompany(2.1, 2.08)).toBe(true);
    expect(keepsCompany(2.1, 2.05)).toBe(false);
    expect(keepsCompany(2.1, 2.2)).toBe(true);
  });

  it('gives 30 times the share of other books not keeping the price company, 15 with no other book', () => {
    expect(alonePoints(4, 1)).toBe(22.5);
    expect(alonePoints(2, 2)).toBe(0);
    expect(alonePoints(3, 0)).toBe(30);
    expect(alonePoints(0, 0)).toBe(15);
  });

  it('scores the reference by its own hold: 20 at 2 % or less, 0 at 8 % or more, linear', () => {
    expect(referenceSharpnessPoints(1.5)).toBe(20);
    expect(referenceSharpnessPoints(5)).toBe(10);
    expect(referenceSharpnessPoints(9)).toBe(0);
  });

  it('gives 10 to an edge of 5 % or less, 0 to 25 % or more, linear', () => {
    expect(plausibilityPoints(3)).toBe(10);
    expect(plausibilityPoints(15)).toBe(5);
    expect(plausibilityPoints(30)).toBe(0);
  });
});

describe('the confidence score', () => {
  const inputs: ConfidenceInputs = {
    sharpCount: 1,
    marketWidth: 20,
    referenceHoldPercent: 2.5,
    bookCount: 4,
    bookChangedAt: 1_000,
    referenceChangedAt: 2_000,
    otherBooks: 2,
    otherBooksInCompany: 0,
  };

  it('adds the four parts into a whole number: 40 + 30 + 18.33 + 10 = 98', () => {
    expect(confidenceScore(inputs, 3)).toBe(98);
  });

  it('takes the EV of the method asked for: 40 + 30 + 18.33 + 5 = 93 at 15 %', () => {
    expect(confidenceScore(inputs, 15)).toBe(93);
  });

  it('ignores the first definition’s parts (references, width, breadth)', () => {
    expect(confidenceScore({ ...inputs, sharpCount: 3, marketWidth: 40, bookCount: 10 }, 3)).toBe(98);
  });

  it('scores a record written before its inputs existed with their middle points: 20 + 15 + 18.33 + 10 = 63', () => {
    expect(confidenceScore({ ...inputs, bookChangedAt: null, referenceChangedAt: null, otherBooks: 0, otherBooksInCompany: 0 }, 3)).toBe(
      63,
    );
  });
});
