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
