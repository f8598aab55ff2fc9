import { describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { SnapshotSampler, snapshotGaps } from './snapshot-sampler.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const tick = (over: Partial<RawTick>): RawTick => ({
  book: 'draftkings',
  bookEventId: 'dk-1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Miami Heat',
  startTime: T0 + 3_600_000,
  isLive: false,
  market: 'moneyline',
  outcome: 'Boston Celtics',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -150,
  status: 'open',
  ts: T0,
  selectionId: null,
  ...over,
});

describe('SnapshotSampler', () => {
  it("shows each price where it ended up since the phase's last snapshot, observed at the snapshot", () => {
    const s = new SnapshotSampler();
    s.add([
      tick({ priceAmerican: -150, ts: T0 }),
      tick({ priceAmerican: -160, ts: T0 + 1000 }),
      tick({ outcome: 'Miami Heat', priceAmerican: 130 }),
    ]);
    expect(s.take('prematch', T0 + 60_000).map((t) => [t.outcome, t.priceAmerican, t.observedAt])).toEqual([
      ['Boston Celtics', -160, T0 + 60_000],
      ['Miami Heat', 130, T0 + 60_000],
    ]);
    expect(s.take('prematch', T0 + 120_000)).toEqual([]);
  });

  it('keeps the phases apart: a price that went live shows only in the live snapshot', () => {
    const s = new SnapshotSampler();
    s.add([tick({ priceAmerican: -150 }), tick({ priceAmerican: -400, isLive: true, ts: T0 + 5000 })]);
    expect(s.take('prematch', T0 + 60_000)).toEqual([]);
    expect(s.take('live', T0 + 60_000).map((t) => t.priceAmerican)).toEqual([-400]);
  });
});

describe('SnapshotSampler with collection delays', () => {
  const delayed = (delays: Record<string, number>): SnapshotSampler =>
    new SnapshotSampler({ delay: (_phase, _at, book) => delays[book] ?? 0, maxDelayMs: 60_000 });

  it('shows each book as it stood its collection delay before the snapshot', () => {
    const s = delayed({ draftkings: 30_000, fanduel: 5_000 });
    s.add([
      tick({ priceAmerican: -150, ts: T0 }),
      tick({ book: 'fanduel', bookEventId: 'fd-1', priceAmerican: -145, ts: T0 }),
      tick({ priceAmerican: -170, ts: T0 + 50_000 }),
      tick({ book: 'fanduel', bookEventId: 'fd-1', priceAmerican: -175, ts: T0 + 50_000 }),
    ]);
    expect(s.take('prematch', T0 + 60_000).map((t) => [t.book, t.priceAmerican, t.ts, t.observedAt])).toEqual([
      ['draftkings', -150, T0, T0 + 60_000],
      ['fanduel', -175, T0 + 50_000, T0 + 60_000],
    ]);
    expect(s.take('prematch', T0 + 120_000).map((t) => [t.book, t.priceAmerican])).toEqual([['draftkings', -170]]);
  });

  it('leaves out a line the source had not yet seen, and never takes a line back to an older price', () => {
    const delays: Record<string, number> = { draftkings: 10_000 };
    const s = new SnapshotSampler({ delay: (_p, _at, book) => delays[book] ?? 0, maxDelayMs: 60_000 });
    s.add([tick({ priceAmerican: -150, ts: T0 + 55_000 })]);
    expect(s.take('prematch', T0 + 60_000)).toEqual([]);
    s.add([tick({ priceAmerican: -170, ts: T0 + 100_000 })]);
    expect(s.take('prematch', T0 + 120_000).map((t) => t.priceAmerican)).toEqual([-170]);
    delays['draftkings'] = 50_000;
    expect(s.take('prematch', T0 + 130_000)).toEqual([]);
  });
});

describe('snapshotGaps', () => {
  it("is the gap before each snapshot that carried the phase's prices", () => {
    const snaps = [
      { at: 0, phases: new Set(['prematch'] as const) },
      { at: 60, phases: new Set(['prematch', 'live'] as const) },
      { at: 75, phases: new Set(['live'] as const) },
      { at: 135, phases: new Set(['prematch'] as const) },
    ];
    expect(snapshotGaps(snaps, 'live')).toEqual([60, 15]);
    expect(snapshotGaps(snaps, 'prematch')).toEqual([60, 60]);
  });
});

describe('SnapshotSampler with collection times', () => {
  const stamped = (delayMs: number): SnapshotSampler =>
    new SnapshotSampler({ delay: () => delayMs, maxDelayMs: 60_000, collectionTimes: true });

  it('times each price when the source collected it, and confirms an unchanged open line at every snapshot', () => {
    const s = stamped(20_000);
    s.add([tick({ priceAmerican: -150, ts: T0 })]);
    expect(s.take('prematch', T0 + 60_000).map((t) => [t.priceAmerican, t.ts, t.observedAt])).toEqual([[-150, T0 + 40_000, T0 + 60_000]]);
    expect(s.take('prematch', T0 + 120_000).map((t) => [t.priceAmerican, t.ts, t.observedAt])).toEqual([
      [-150, T0 + 100_000, T0 + 120_000],
    ]);
  });

  it('shows a suspended line once, not again at every snapshot', () => {
    const s = stamped(0);
    s.add([tick({ priceAmerican: null, status: 'suspended', ts: T0 })]);
    expect(s.take('prematch', T0 + 60_000).map((t) => [t.status, t.ts])).toEqual([['suspended', T0 + 60_000]]);
    expect(s.take('prematch', T0 + 120_000)).toEqual([]);
  });
});
