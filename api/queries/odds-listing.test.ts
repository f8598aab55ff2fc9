/**
 * A listing's parsed filters and cursor fingerprint are kept per distinct query (odds-listing.ts):
 * the same query gets the same parse back, any other parameter, tier or sort gets its own, the
 * fingerprint is the one cursors carried before, refusals are never kept, and client input
 * cannot grow the store past its bound.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { Catalog } from '../views/catalog.js';
import { queryFingerprint } from './cursor.js';
import { LISTINGS_KEPT, listingOf } from './odds-listing.js';
import { parseOddsFilters } from './parse-filters.js';

const spreads = { sport: 'basketball,football', market: 'point_spread', sportsbook: 'pinnacle,draftkings' };

describe('listings kept per query', () => {
  it('give the same query the very same parsed filters, equal to a fresh parse', () => {
    const catalog = new Catalog();
    const first = listingOf(catalog, 'sharp', { ...spreads }, undefined);
    expect(listingOf(catalog, 'sharp', { ...spreads }, undefined)).toBe(first);
    expect(first.filters).toEqual(parseOddsFilters(spreads, catalog, 'sharp'));
  });

  it('carry the fingerprint cursors were issued with before listings were kept', () => {
    const catalog = new Catalog();
    const all = {
      sport: 'basketball,football',
      league: undefined,
      sportsbook: 'pinnacle,draftkings',
      add_sportsbook: undefined,
      market: 'point_spread',
      event: undefined,
      live: undefined,
      team: undefined,
      date: undefined,
      q: undefined,
      min_odds: undefined,
      max_odds: undefined,
    };
    expect(listingOf(catalog, 'pro', spreads, '-odds_decimal').fingerprint).toBe(
      queryFingerprint({ ...all, sort: '-odds_decimal', tier: 'pro' }),
    );
    expect(listingOf(catalog, 'pro', spreads, '-odds_decimal').fingerprint).toBe('24An6WjsEn');
  });

  it('keep another tier, sort or parameter type apart', () => {
    const catalog = new Catalog();
    const base = listingOf(catalog, 'sharp', { live: true }, undefined);
    expect(listingOf(catalog, 'enterprise', { live: true }, undefined)).not.toBe(base);
    expect(listingOf(catalog, 'sharp', { live: true }, 'sportsbook')).not.toBe(base);
    expect(listingOf(catalog, 'sharp', { live: false }, undefined).filters.event.live).toBe(false);
    expect(listingOf(catalog, 'sharp', { q: 'true' }, undefined).filters.event.live).toBe(undefined);
    expect(listingOf(catalog, 'sharp', { live: true }, undefined)).toBe(base);
  });

  it('refuse an unknown id on every request and keep nothing for it', () => {
    const catalog = new Catalog();
    for (let i = 0; i < 2; i++) {
      expect(() => listingOf(catalog, 'sharp', { sport: 'quidditch' }, undefined)).toThrow(ApiError);
    }
  });

  it(`hold at most ${LISTINGS_KEPT} queries: the oldest is parsed again, and an over-long one is never kept`, () => {
    const catalog = new Catalog();
    const first = listingOf(catalog, 'sharp', { q: 'team 0' }, undefined);
    for (let i = 1; i < LISTINGS_KEPT; i++) listingOf(catalog, 'sharp', { q: `team ${i}` }, undefined);
    expect(listingOf(catalog, 'sharp', { q: 'team 0' }, undefined)).toBe(first);
    listingOf(catalog, 'sharp', { q: `team ${LISTINGS_KEPT}` }, undefined);
    const again = listingOf(catalog, 'sharp', { q: 'team 0' }, undefined);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    const long = { q: 'x'.repeat(3000) };
    expect(listingOf(catalog, 'sharp', long, undefined)).not.toBe(listingOf(catalog, 'sharp', long, undefined));
  });
});
