import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from './reference/index.js';
import { TIERS, TIER_MINIMUMS, TIER_ORDER, allowedBooks, lowestTierWith, selectBooks, tierAtLeast, tierWithMoreBooks } from './tiers.js';

describe('allowedBooks', () => {
  it('gives the free tier the fixed pair', () => {
    expect([...allowedBooks('free', SPORTSBOOKS)]).toEqual(['draftkings', 'fanduel']);
  });
  it('gives hobby five books, the free pair first', () => {
    expect([...allowedBooks('hobby', SPORTSBOOKS)]).toEqual(['draftkings', 'fanduel', 'betonlineag', 'betmgm', 'caesars']);
  });
  it('gives pro fifteen books including the sharp ones', () => {
    const pro = allowedBooks('pro', SPORTSBOOKS);
    expect(pro.size).toBe(15);
    expect(pro.has('pinnacle')).toBe(true);
  });
  it('gives sharp and enterprise every book', () => {
    expect(allowedBooks('sharp', SPORTSBOOKS).size).toBe(SPORTSBOOKS.length);
    expect(allowedBooks('enterprise', SPORTSBOOKS).size).toBe(SPORTSBOOKS.length);
  });
});

describe('lowestTierWith', () => {
  it('names the cheapest tier that has a feature', () => {
    expect([lowestTierWith('ev'), lowestTierWith('arbitrage'), lowestTierWith('gamestate')]).toEqual(['pro', 'hobby', 'enterprise']);
  });
});

describe('selectBooks', () => {
  it('serves the default set without a request, and exactly the asked books within the tier', () => {
    expect(selectBooks('hobby', SPORTSBOOKS)).toEqual({ ok: true, books: allowedBooks('hobby', SPORTSBOOKS) });
    expect(selectBooks('hobby', SPORTSBOOKS, new Set(['espnbet']))).toEqual({ ok: true, books: new Set(['espnbet']) });
    expect(selectBooks('pro', SPORTSBOOKS, new Set(['bovada']), new Set(['pinnacle']))).toEqual({
      ok: true,
      books: new Set(['bovada', 'pinnacle']),
    });
  });
  it('names the tier a book needs, and the tier that serves more books', () => {
    expect(selectBooks('free', SPORTSBOOKS, new Set(['pinnacle']))).toEqual({ ok: false, reason: 'tier', book: 'pinnacle', needs: 'pro' });
    expect(selectBooks('hobby', SPORTSBOOKS, undefined, new Set(['bet365']))).toEqual({
      ok: false,
      reason: 'count',
      asked: 6,
      max: 5,
      needs: 'pro',
    });
    expect(tierWithMoreBooks('pro')).toBe('sharp');
  });
  it('lets sharp and enterprise add anything', () => {
    expect(selectBooks('sharp', SPORTSBOOKS, undefined, new Set(['betfair_ex_eu']))).toMatchObject({ ok: true });
  });
});

describe('the tier policy', () => {
  it('orders the tiers once, cheapest first', () => {
    expect(TIER_ORDER).toEqual(['free', 'hobby', 'pro', 'sharp', 'enterprise']);
    expect([tierAtLeast('pro', 'pro'), tierAtLeast('sharp', 'pro'), tierAtLeast('hobby', 'pro')]).toEqual([true, true, false]);
  });
  it('holds the minimums and windows of COMPAT §6 and §8', () => {
    expect(TIER_MINIMUMS).toEqual({
      closingLines: 'pro',
      closingHistory: 'sharp',
      clvHistory: 'sharp',
      futuresTools: 'pro',
      fairLine: 'pro',
      betLedger: 'pro',
    });
    expect(TIER_ORDER.map((t) => TIERS[t].clvWindowDays)).toEqual([7, 30, 90, 365, null]);
    expect(TIERS.sharp.closingHistoryDays).toBe(30);
  });
  it('caps the bets an account holds in its ledger, none below the tier that has the ledger', () => {
    expect(TIER_ORDER.map((t) => TIERS[t].maxBets)).toEqual([0, 0, 10_000, 50_000, 250_000]);
  });
});
