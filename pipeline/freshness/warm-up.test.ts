import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { DEFAULT_FRESHNESS_POLICY } from './ledger.js';
import type { FreshnessPolicy } from './ledger.js';
import { LedgerFeed, POLICY, T0, tick } from './fixtures/ticks.js';

// Issue 31: a book first asked for before it had minSamples confirmation ages kept the floor
// until maxSamples / 16 (256) more arrived, not until the minSamples-th as docs/opportunities.md
// says; and a processor that sees a quarter of the board (one of the runtime's 4 partitions)
// gets a quarter of the ages, so its thresholds followed the book's cadence 4 times later.

const live = (players: readonly number[], ts: number): OddsTick[] =>
  players.map((i) =>
    tick({ market: 'player_prop', selection: 'over', line: 20.5, participant: `p${i}`, statCategory: 'points', isLive: true, ts }),
  );

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe('thresholds are recomputed when they can have moved', () => {
  it('ends the warm-up at the minSamples-th confirmation age', () => {
    const feed = new LedgerFeed(DEFAULT_FRESHNESS_POLICY).feed(live(range(0, 40), T0));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(10);
    // 29 ages of 40 s: still the floor.
    feed.feed(live(range(0, 29), T0 + 40_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(10);
    // The 30th, at the same time: 2 × 40 s (the 10 rows still waiting at 40 s change nothing).
    feed.feed(live([29], T0 + 40_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
  });

  /** 30 rows confirmed after 40 s: a threshold of 80 s, computed at T0 + 40 s. */
  function at80(policy: FreshnessPolicy): LedgerFeed {
    const feed = new LedgerFeed(policy).feed(live(range(0, 30), T0));
    feed.feed(live(range(0, 30), T0 + 40_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
    return feed;
  }

  it('follows a slower cadence once recomputeMs has passed, without waiting for maxSamples / 16 new ages', () => {
    // maxSamples / 16 = 62 ages; 30 come (at least minSamples, 3). 60 ages, 30 of them 100 s: the p95 is 100 s.
    const feed = at80(POLICY).feed(live(range(0, 30), T0 + 140_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(200);
    // Without the recompute by time (the rule before), 30 new ages are fewer than 62: still 80 s.
    const before = at80({ ...POLICY, recomputeMs: Infinity }).feed(live(range(0, 30), T0 + 140_000));
    expect(before.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
  });

  it('waits for minSamples new ages before a recompute by time', () => {
    // Two new ages of 100 s, 100 s later: not yet.
    const feed = at80(POLICY).feed(live(range(0, 2), T0 + 140_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
    // The third: 33 ages, 3 of them 100 s (over 5 %): 200 s.
    feed.feed(live([2], T0 + 140_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(200);
  });
});
