import { LEAGUES, isRawSplits } from '../schemas/index.js';
import type { FeedRecord, RawTick, RawSplits } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator, syntheticTeams } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { SplitsProcessor } from '../pipeline/splits/index.js';
import type { BenchFigure } from './report.js';

/**
 * What splits cost the normalizer stage, where they are joined: the simulator's opening board
 * (about 45k ticks) and one round of splits (about 450 snapshots) through the normalizer with the
 * splits processor watching every tick, against the normalizer alone on the same ticks in the
 * same run; and the cost of one splits snapshot (map to the event, join lines, signals) against
 * the cost of one tick. Median of 5 runs; a few seconds.
 */
export async function benchSplits(): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 4, 35));
  const sim = new MarketSimulator({ clock, catalog: { teams: syntheticTeams(LEAGUES) } });
  const ticks: RawTick[] = sim.snapshot();
  const splits: RawSplits[] = sim.splits(clock.now());
  const catalog = { teams: syntheticTeams(LEAGUES), leagues: LEAGUES };
  const now = clock.now();

  const alone: number[] = [];
  const watched: number[] = [];
  const perSnapshot: number[] = [];
  const normalizeAlone = (): number => {
    const n = new Normalizer(catalog);
    const t0 = performance.now();
    for (const t of ticks) n.handle(t, now);
    return ticks.length / ((performance.now() - t0) / 1000);
  };
  const normalizeWatched = (): number => {
    const n = new Normalizer(catalog);
    const p = new SplitsProcessor();
    let t0 = performance.now();
    for (const t of ticks) {
      const r = n.handle(t, now);
      if (r.tick) p.observeTick(r.tick);
    }
    watched.push(ticks.length / ((performance.now() - t0) / 1000));
    const records: readonly FeedRecord[] = splits;
    t0 = performance.now();
    for (let rep = 0; rep < 20; rep++) {
      for (const s of records) {
        if (!isRawSplits(s)) continue;
        const r = n.handleSplits(s, now);
        if (r.splits && r.event) p.handle(r.splits, r.event, now);
      }
    }
    return (20 * splits.length) / ((performance.now() - t0) / 1000);
  };
  // One warm-up of each, then alternating order, so neither side gets the JIT's head start.
  normalizeAlone();
  normalizeWatched();
  watched.length = 0;
  for (let run = 0; run < 5; run++) {
    if (run % 2 === 0) {
      alone.push(normalizeAlone());
      perSnapshot.push(normalizeWatched());
    } else {
      perSnapshot.push(normalizeWatched());
      alone.push(normalizeAlone());
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const baseline = { name: 'normalizer alone', value: median(alone) };
  return [
    { name: 'normalizer + splits line watch', value: median(watched), unit: 'records/s', baseline },
    { name: `splits snapshots joined (${splits.length} a round)`, value: median(perSnapshot), unit: 'records/s', baseline },
  ];
}
