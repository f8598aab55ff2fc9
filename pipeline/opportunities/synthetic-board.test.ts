import { describe, expect, it } from 'vitest';
import { syntheticBoard } from './fixtures/synthetic-board.js';

describe('the synthetic board at a chosen number of books', () => {
  it('is the default board when asked for its 13 books, so the golden digests stand', () => {
    expect(syntheticBoard({ events: 5, steps: 300, books: 13 })).toEqual(syntheticBoard({ events: 5, steps: 300 }));
  });

  it('cuts soft books from the end of the list or adds made-up ones, the sharp books always in', () => {
    const booksOf = (books: number): string[] =>
      [...new Set(syntheticBoard({ events: 2, steps: 2_000, books }).ticks.map((t) => t.book))].sort();
    expect(booksOf(4)).toEqual(['bookmaker', 'circa', 'draftkings', 'pinnacle']);
    const fifty = booksOf(50);
    expect(fifty.length).toBe(50);
    expect(fifty).toContain('soft-49');
    expect(fifty).not.toContain('soft-50');
  });

  it('refuses a board without a soft book', () => {
    expect(() => syntheticBoard({ books: 3 })).toThrow('a synthetic board needs at least 4 books, not 3');
  });
});
