import { describe, expect, it } from 'vitest';
import type { FuturesQuote } from '../../schemas/index.js';
import { FUTURES_VERSIONS_MS, FuturesBoard } from './futures-board.js';

/** The fields the board reads; the rest of a quote plays no part here. */
const quote = (futureId: string, book: string, priceAmerican: number): FuturesQuote =>
  ({ futureId, book, ts: 0, selections: [{ selectionId: 'boston-celtics', priceAmerican }] }) as unknown as FuturesQuote;

describe('FuturesBoard versions', () => {
  it('lets go of a board version no delayed read can reach, without waiting for that board to change again', () => {
    let now = 0;
    const board = new FuturesBoard(() => now);
    board.applyQuote(quote('nba-title', 'fanduel', 150), 'nba-title|fanduel');
    board.applyQuote(quote('nhl-title', 'fanduel', 900), 'nhl-title|fanduel');
    now = 300_000;
    board.applyQuote(quote('nba-title', 'fanduel', 140), 'nba-title|fanduel');
    // The version of 0 s stands for reads up to 300 s: a 60 s delayed read still needs it.
    expect(board.versionCount).toBe(3);
    expect(board.boards('nba-title', 60_000)[0]?.selections[0]?.priceAmerican).toBe(150);
    // Another market's round, once the 300 s version is older than every delay: nba-title's first version goes.
    now = 300_000 + FUTURES_VERSIONS_MS;
    board.applyQuote(quote('nhl-title', 'fanduel', 800), 'nhl-title|fanduel');
    expect(board.versionCount).toBe(3);
    expect(board.boards('nba-title', 60_000)[0]?.selections[0]?.priceAmerican).toBe(140);
    expect(board.boards('nba-title', 0)[0]?.selections[0]?.priceAmerican).toBe(140);
    expect(board.boards('nhl-title', 60_000)[0]?.selections[0]?.priceAmerican).toBe(900);
  });
});
