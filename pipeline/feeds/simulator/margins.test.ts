import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from '../../../schemas/index.js';
import { LIVE_WIDENING, bookProfiles } from './books.js';

describe("the simulated books' margins", () => {
  it('narrow before the game: the recorded margin where the recordings measured the book, else the in-play one over the recorded ratio', () => {
    const [pinnacle, fanduel, betus] = bookProfiles(SPORTSBOOKS.filter((b) => ['pinnacle', 'fanduel', 'betus'].includes(b.id)));
    // 1.365 at the median over the eight recorded books that price in play (`npx tsx bench/book-margins-table.ts`).
    expect(LIVE_WIDENING).toBe(1.37);
    expect(pinnacle?.prematchOverround).toBeCloseTo(0.02 / 1.37, 12);
    // FanDuel 4.76 % before the game at the recorded median, 6.88 % in play; BetUS 4.62 % before, and no live odds.
    expect([fanduel?.prematchOverround, fanduel?.overround]).toEqual([0.0375, 0.045]);
    expect([betus?.prematchOverround, betus?.overround]).toEqual([0.0284, 0.08]);
  });
});
