import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { DEFAULT_FRESHNESS_POLICY } from './ledger.js';
import type { FreshnessPolicy } from './ledger.js';
import { LedgerFeed, POLICY, T0, tick } from './fixtures/ticks.js';

// Issue 31: a book first asked for before it had minSamples confirmation ages kept the floor
// until maxSamples / 16 (256) more arrived, not until the minSamples-th as docs/opportunities.md
// says; and a processor that sees a quarter of the board (one of the runtime's 4 partitions)
// gets a quarter of the ages, so its thresholds followed the book's cadence 4 times later.
// Thresholds are recomputed when the observed time enters a new step of recomputeMs (10 s
// here), from the rows observed before it.

const live = (players: readonly number[], ts: number): OddsTick[] =>
  players.map((i) =>
    tick({ market: 'player_prop', selection: 'over', line: 20.5, participant: `p${i}`, statCategory: 'points', isLive: true, ts }),
  );

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** A price of another book: only moves the ledger's observed time to `ts`. */
const clockAt = (ts: number): OddsTick[] => [tick({ book: 'otherbook', ts })];

describe('thresholds are recomputed when they can have moved', () => {
  it('ends the warm-up at the first step after the minSamples-th confirmation age', () => {
    const feed = new LedgerFeed(DEFAULT_FRESHNESS_POLICY).feed(live(range(0, 40), T0));
    // 29 ages of 40 s, and the next step (50 s): still the floor.
    feed.feed([...live(range(0, 29), T0 + 40_000), ...clockAt(T0 + 50_000)]);
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(10);
    // The 30th, late (observed at 40 s, after the step of 50 s): the floor until the step of 60 s,
    // then 2 × 40 s (the 10 rows still waiting, 60 s by then, are fewer than minSamples).
    feed.feed(live([29], T0 + 40_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(10);
    feed.feed(clockAt(T0 + 60_000));
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
  });

  /** 30 rows confirmed after 40 s: a threshold of 80 s, from the step of 50 s. */
  function at80(policy: FreshnessPolicy): LedgerFeed {
    const feed = new LedgerFeed(policy).feed(live(range(0, 30), T0));
    feed.feed([...live(range(0, 30), T0 + 40_000), ...clockAt(T0 + 50_000)]);
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
    return feed;
  }

  it('follows a slower cadence at the next step, without waiting for maxSamples / 16 new ages', () => {
    // maxSamples / 16 = 62 ages; 30 come (at least minSamples, 3). 60 ages, 30 of them 100 s: the p95 is 100 s.
    const feed = at80(POLICY).feed([...live(range(0, 30), T0 + 140_000), ...clockAt(T0 + 150_000)]);
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(200);
    // Not before the step: the rows of the step of 140 s count from the step of 150 s.
    const within = at80(POLICY).feed([...live(range(0, 30), T0 + 140_000), ...clockAt(T0 + 149_999)]);
    expect(within.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
  });

  it('waits for minSamples new ages before a recompute', () => {
    // Two new ages of 100 s, and a step: not yet.
    const feed = at80(POLICY).feed([...live(range(0, 2), T0 + 140_000), ...clockAt(T0 + 150_000)]);
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(80);
    // The third, observed at 140 s too, and the next step: 33 ages, 3 of them 100 s (over 5 %): 200 s.
    feed.feed([...live([2], T0 + 140_000), ...clockAt(T0 + 160_000)]);
    expect(feed.ledger.staleAfterSeconds('pinnacle', true)).toBe(200);
  });
});
