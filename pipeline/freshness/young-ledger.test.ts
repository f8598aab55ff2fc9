import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { censoredPercentile, percentile } from './ledger.js';
import { LedgerFeed, T0, tick } from './fixtures/ticks.js';

// Issue 31: a ledger T seconds old has seen only confirmation ages shorter than T, so during the
// first minutes a slow book's threshold read the ledger's age rather than the book's cadence,
// and only ever rose. The rows not yet confirmed since first seen are ages still running: each
// says its age is at least what it has waited so far.

/** `n` live rows of `book`, one per player, all set or confirmed at `ts`. */
function rows(book: string, players: readonly number[], ts: number): OddsTick[] {
  return players.map((i) =>
    tick({ book, market: 'player_prop', selection: 'over', line: 20.5, participant: `p${i}`, statCategory: 'points', isLive: true, ts }),
  );
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** A price of another book: only moves the ledger's clock to `ts`. */
const clockAt = (ts: number): OddsTick[] => rows('otherbook', [0], ts);

describe('a young ledger', () => {
  it('counts the rows its book has not confirmed since they were first seen as ages at least as long as their wait', () => {
    const feed = new LedgerFeed().feed(rows('slowbook', range(40), T0));
    // 36 rows confirmed after 30 s; 4 still waiting at the step of 100 s.
    feed.feed([...rows('slowbook', range(36), T0 + 30_000), ...clockAt(T0 + 100_000)]);
    const live = feed.ledger.report(T0 + 100_000).books.find((b) => b.book === 'slowbook')?.live;
    // The ages seen say 30 s; 4 of 40 rows (more than 5 %, and as many as minSamples) have waited 100 s: the p95 is at least 100 s.
    expect(live?.confirmationAgeSeconds).toEqual({ count: 36, p50: 30, p95: 30, p99: 30 });
    expect(feed.ledger.staleAfterSeconds('slowbook', true)).toBe(200);

    // Confirmed at last, after 130 s: ended ages only, from the next step on (they are 4 new
    // ages, at least minSamples).
    feed.feed([...rows('slowbook', [36, 37, 38, 39], T0 + 130_000), ...clockAt(T0 + 140_000)]);
    expect(feed.ledger.staleAfterSeconds('slowbook', true)).toBe(260);
  });

  it('does not take a book that stopped confirming for a slow one', () => {
    // Every row confirmed once after 30 s, then nothing from the book for over six minutes.
    const feed = new LedgerFeed().feed([...rows('deadbook', range(20), T0), ...rows('deadbook', range(20), T0 + 30_000)]);
    feed.feed(clockAt(T0 + 400_000));
    expect(feed.ledger.staleAfterSeconds('deadbook', true)).toBe(60);
  });
});

describe('censoredPercentile', () => {
  const tens = (n: number): number[] => Array.from({ length: n }, () => 10);

  it('is the nearest-rank percentile when nothing is running', () => {
    const lists = [[5], range(20).map((i) => i + 1), [3, 3, 3, 9]];
    for (const list of lists) for (const q of [0.5, 0.95, 0.99]) expect(censoredPercentile(list, [], q)).toBe(percentile(list, q));
  });

  it('is not lowered by running ages shorter than the ended ones', () => {
    expect(censoredPercentile([...tens(19), 100], [1, 2, 3, 4, 5], 0.95)).toBe(10);
  });

  it('is at least the longest running age when more than 1 - q of the estimate runs past every ended age', () => {
    expect(censoredPercentile(tens(18), [100, 100], 0.95)).toBe(100);
    expect(censoredPercentile(tens(19), [100], 0.95)).toBe(10);
  });

  it('is the longest ended age when fewer than minTail run past it', () => {
    // Two of twenty rows a book sits on are not yet a slow book.
    expect(censoredPercentile([...tens(17), 20], [100, 100], 0.95, 3)).toBe(20);
    expect(censoredPercentile([...tens(17), 20], [100, 100, 100], 0.95, 3)).toBe(100);
  });

  it('spreads a running age over the ended ages longer than it (Kaplan-Meier)', () => {
    // After 10 s, 11 of 20 still run; the 10 running at 20 s share the fate of the one that ended at 50 s.
    expect(
      censoredPercentile(
        [...tens(9), 50],
        Array.from({ length: 10 }, () => 20),
        0.5,
      ),
    ).toBe(50);
  });

  it('has no answer without an ended age', () => {
    expect(censoredPercentile([], [100], 0.95)).toBeNull();
  });
});
