import { describe, expect, it } from 'vitest';
import { LEAGUES, type FeedRecord, type RawSplits, type RawTick, isRawSplits } from '../../../schemas/index.js';
import type { Clock } from '../../clock.js';
import { SimulatorFeed, type SimulatorFeedOptions, syntheticTeams } from './index.js';

const NOVEMBER = Date.UTC(2026, 10, 21, 4, 35);
const CATALOG = {
  teams: syntheticTeams(LEAGUES),
  leagues: LEAGUES.filter((l) => l.id === 'nba' || l.id === 'epl'),
};

/** A clock that moves 100 ms each time it is read: every step of the feed sees 100 ms pass. */
function steppingClock(): Clock {
  let t = NOVEMBER;
  return { now: () => (t += 100) };
}

function feed(options: SimulatorFeedOptions = {}): SimulatorFeed {
  // Splits and futures are off unless a test asks: the other tests count ticks.
  return new SimulatorFeed({
    clock: steppingClock(),
    catalog: CATALOG,
    intervalMs: 1,
    splitsIntervalMs: 0,
    futuresIntervalMs: 0,
    ...options,
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the feed until `emits` calls of emit, then stops it; returns the batches. */
async function collect(f: SimulatorFeed, emits: number, onEmit?: () => Promise<void>): Promise<RawTick[][]> {
  const batches: RawTick[][] = [];
  let done = (): void => undefined;
  const enough = new Promise<void>((r) => (done = r));
  await f.start(async (records) => {
    batches.push(records.filter((r): r is RawTick => !isRawSplits(r)));
    if (onEmit !== undefined) await onEmit();
    if (batches.length >= emits) done();
  });
  await enough;
  await f.stop();
  return batches;
}

describe('SimulatorFeed', () => {
  it('emits a round of splits right after the board, then one every splitsIntervalMs, after the ticks of the step', async () => {
    // The stepping clock moves 100 ms per read: a 1 s interval is a round every ten or so steps.
    const f = feed({ ticksPerSecond: 1_000, splitsIntervalMs: 1_000 });
    const board = f.simulator.snapshot().length;
    const rounds: RawSplits[][] = [];
    let ticks = 0;
    let done = (): void => undefined;
    const enough = new Promise<void>((r) => (done = r));
    await f.start(async (records: readonly FeedRecord[]) => {
      const splits = records.filter(isRawSplits);
      if (splits.length > 0) {
        expect(splits).toHaveLength(records.length);
        rounds.push(splits);
      } else ticks += records.length;
      if (rounds.length >= 3) done();
    });
    await enough;
    await f.stop();
    expect(ticks).toBeGreaterThan(board);
    const times = rounds.map((r) => r[0]?.ts ?? 0);
    expect(rounds.every((r) => r.every((s) => s.ts === r[0]?.ts))).toBe(true);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(gaps.every((g) => g >= 1_000 && g < 1_500)).toBe(true);
    expect(new Set(rounds[0]?.map((s) => s.book))).toEqual(new Set(['draftkings', 'circa']));
  });

  it('emits the full board first, then changes, in batches of at most maxBatch', async () => {
    const f = feed({ maxBatch: 500, ticksPerSecond: 5_000 });
    const board = f.simulator.snapshot();
    const batches = await collect(f, Math.ceil(board.length / 500) + 10);
    const first = batches.slice(0, Math.ceil(board.length / 500)).flat();
    expect(first).toEqual(board);
    expect(board.length).toBeGreaterThan(3_000);
    expect(batches.every((b) => b.length > 0 && b.length <= 500)).toBe(true);
    const later = batches.slice(Math.ceil(board.length / 500)).flat();
    expect(later.every((t) => t.ts > NOVEMBER)).toBe(true);
  });

  it('emits about ticksPerSecond times the elapsed time', async () => {
    const f = feed({ ticksPerSecond: 1_000, maxBatch: 100_000 });
    const batches = await collect(f, 41);
    const sizes = batches.slice(1).map((b) => b.length);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(90);
    expect(mean).toBeLessThan(110);
  });

  it('waits for each emit before the next one (backpressure)', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const f = feed({ ticksPerSecond: 2_000, maxBatch: 300 });
    const batches = await collect(f, 30, async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await sleep(2);
      inFlight--;
    });
    expect(batches.length).toBeGreaterThanOrEqual(30);
    expect(maxInFlight).toBe(1);
  });

  it('stops after the emit in flight and emits nothing afterwards', async () => {
    const f = feed({ ticksPerSecond: 1_000 });
    let calls = 0;
    let finished = 0;
    await f.start(async () => {
      calls++;
      await sleep(5);
      finished++;
    });
    await sleep(20);
    await f.stop();
    expect(finished).toBe(calls);
    const after = calls;
    await sleep(20);
    expect(calls).toBe(after);
  });

  it('reports a failing emit through onError and stops', async () => {
    const errors: unknown[] = [];
    const f = feed({ onError: (e) => errors.push(e), maxBatch: 100_000 });
    let calls = 0;
    await f.start(async () => {
      calls++;
      if (calls === 2) throw new Error('bus down');
    });
    await sleep(30);
    expect(errors).toEqual([new Error('bus down')]);
    expect(calls).toBe(2);
    await f.stop();
  });

  it('rejects start when the board cannot be emitted', async () => {
    const f = feed();
    await expect(f.start(() => Promise.reject(new Error('no bus')))).rejects.toThrow('no bus');
    await f.stop();
  });

  it('refuses a rate that is not positive', () => {
    expect(() => feed({ ticksPerSecond: 0 })).toThrow(RangeError);
  });
});
