import { describe, expect, it } from 'vitest';
import type { Opportunity } from '../../schemas/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { SYNTHETIC_T0, syntheticBoard } from './fixtures/synthetic-board.js';
import { fingerprint } from './lifecycle.js';
import { OpportunityProcessor } from './processor.js';
import type { OpportunityInput } from './processor.js';

// Issue 31: the freshness ledger recomputed a book's threshold when it was asked for, so a
// record's stale clock (staleAfterSeconds, freshUntil) depended on where the batches ended and
// on when records were built: a processor restarted on the same snapshot changelog (replayed in
// one batch) or owning the partition after a rebalance published 64 s where an uninterrupted run
// had 60 s (test/kafka-processes.e2e). Thresholds now move only at steps of observed time, and a
// batch builds what came before a step on the thresholds before it.

/** Floors of 1 s, so the books' measured cadences (a few seconds on this board) set the thresholds. */
const OPTIONS = { staleAfterSeconds: 1, liveStaleAfterSeconds: 1 };

/** The synthetic board's events and changes, as one partition's inputs in changelog order. */
function changelog(): OpportunityInput[] {
  const { events, ticks } = syntheticBoard({ events: 20, steps: 12_000 });
  const snapshot = new SnapshotProcessor();
  const inputs: OpportunityInput[] = events.map((event) => ({ type: 'event', event }));
  for (const t of ticks) {
    const change = snapshot.handle(t, t.ts);
    if (change) inputs.push({ type: 'odds', change });
  }
  return inputs;
}

/**
 * The active records after the inputs in batches of `size`, the processor handed a wall clock
 * `lag` ms behind or ahead of the data and asked for its records after every batch; `restartAt`
 * replays everything before it into a fresh processor in one batch (a restore) and goes on there.
 */
function run(inputs: readonly OpportunityInput[], size: number, lag: number, restartAt = -1): Map<string, Opportunity> {
  const published = new Map<string, Opportunity>();
  let processor = new OpportunityProcessor(OPTIONS);
  for (let i = 0; i < inputs.length; i += size) {
    if (i === restartAt) {
      processor = new OpportunityProcessor(OPTIONS);
      processor.handleBatch(inputs.slice(0, i), SYNTHETIC_T0 + i * 5 + lag);
    }
    const batch = inputs.slice(i, i + size);
    for (const c of processor.handleBatch(batch, SYNTHETIC_T0 + i * 5 + lag)) {
      if (c.type === 'expire') published.delete(c.opportunity.id);
      else published.set(c.opportunity.id, c.opportunity);
    }
    processor.active();
  }
  return published;
}

const fingerprints = (records: Map<string, Opportunity>): Map<string, string> =>
  new Map([...records].map(([id, o]) => [id, fingerprint(o)]));

describe('a partition’s records do not depend on its batches', () => {
  const inputs = changelog();
  const oneAtATime = run(inputs, 1, 0);

  it('gives every record the same stale clock in one batch, in many, and after a restore mid-stream', () => {
    const expected = fingerprints(oneAtATime);
    expect(fingerprints(run(inputs, 7, 2_000))).toEqual(expected);
    expect(fingerprints(run(inputs, 500, -3_000))).toEqual(expected);
    expect(fingerprints(run(inputs, inputs.length, 60_000))).toEqual(expected);
    expect(fingerprints(run(inputs, 250, 1_000, 5_000))).toEqual(expected);
  });

  it('holds records whose thresholds the books’ cadences set, not the floor', () => {
    const limits = new Map<number, number>();
    for (const o of oneAtATime.values()) limits.set(o.staleAfterSeconds ?? 0, (limits.get(o.staleAfterSeconds ?? 0) ?? 0) + 1);
    // 485 records on 13 thresholds between 46.9 and 56.7 s (limit: records).
    expect(Object.fromEntries([...limits].sort((a, b) => a[0] - b[0]))).toEqual({
      46.9: 47,
      49.1: 21,
      49.8: 26,
      49.9: 88,
      50.3: 90,
      50.9: 24,
      52.3: 59,
      53.5: 32,
      54.8: 20,
      55.2: 16,
      55.4: 14,
      56.2: 25,
      56.7: 23,
    });
  });
});
