import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from '../schemas/index.js';
import { allowedBooks, lowestTierWith } from './tiers.js';

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
