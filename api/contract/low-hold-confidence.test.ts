/**
 * A low-hold row's `confidence` is the freshness of its prices by the record's own clock (the
 * threshold of the price that goes stale first, as its `possibly_stale` uses): it used the fixed
 * 60-s pre-match limit, so a row of a book that confirms every few minutes showed confidence 0
 * while it was not stale.
 */
import { describe, expect, it } from 'vitest';
import type { LowHoldOpportunity } from '../../schemas/index.js';
import { DEFAULT_PHANTOM_POLICY } from '../../pipeline/opportunities/index.js';
import { Catalog } from '../views/catalog.js';
import { T0, lowHold } from './fixtures/low-hold.js';
import { presentLowHold } from './opportunities.js';

const catalog = new Catalog();
const confidenceAt = (o: LowHoldOpportunity, ageSeconds: number): [number, boolean] => {
  const row = presentLowHold(catalog, o, T0 + ageSeconds * 1000, DEFAULT_PHANTOM_POLICY);
  return [row.confidence, row.possibly_stale];
};

describe('low-hold confidence', () => {
  it('follows the book’s threshold: 90 at two minutes, 50 at the threshold and still fresh, 0 at twice it', () => {
    expect(confidenceAt(lowHold, 0)).toEqual([100, false]);
    expect(confidenceAt(lowHold, 120)).toEqual([90, false]);
    expect(confidenceAt(lowHold, 600)).toEqual([50, false]);
    expect(confidenceAt(lowHold, 601)).toEqual([50, true]);
    expect(confidenceAt(lowHold, 1200)).toEqual([0, true]);
  });

  it('reads a record written before the per-book clock with the fixed 60-s limit: 50 at a minute', () => {
    const old: LowHoldOpportunity = { ...lowHold, freshUntil: null, staleAfterSeconds: null };
    expect(confidenceAt(old, 60)).toEqual([50, false]);
    expect(confidenceAt(old, 120)).toEqual([0, true]);
  });
});
