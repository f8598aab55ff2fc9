import type { CanonicalEvent, OddsTick } from '../schemas/index.js';
import { OpportunityProcessor } from '../pipeline/opportunities/index.js';
import type { OpportunityInput } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';
import { SYNTHETIC_T0, syntheticBoard } from '../pipeline/opportunities/fixtures/synthetic-board.js';
import type { BenchFigure } from './report.js';

/**
 * Opportunity detection: ticks/s through the snapshot processor and the four engines, against
 * the snapshot processor alone on the same ticks in the same run; and tick-to-opportunity
 * latency (time from a tick entering the snapshot processor to the opportunity changes it
 * causes), against the snapshot's own per-tick time. Median of 3 runs each; about 10-15 s.
 *
 * The ticks are the seeded synthetic board of pipeline/opportunities/fixtures/synthetic-board.ts.
 */

const T0 = SYNTHETIC_T0;

/** The synthetic board of 300 events, 40,000 moves (80,000 ticks). */
export function syntheticTicks(): { events: CanonicalEvent[]; ticks: OddsTick[] } {
  return syntheticBoard({ events: 300, steps: 40_000 });
}

interface Run {
  ms: number;
  latencies: Float64Array;
  changes: number;
}

type Mode = 'snapshot' | 'tick' | 'batch';
const BATCH = 1000;

function run(events: readonly CanonicalEvent[], ticks: readonly OddsTick[], mode: Mode): Run {
  const snapshot = new SnapshotProcessor();
  const processor = new OpportunityProcessor();
  processor.handleBatch(events.map((event) => ({ type: 'event' as const, event })), T0);
  const latencies = new Float64Array(mode === 'batch' ? 0 : ticks.length);
  let changes = 0;
  let k = 0;
  const t0 = performance.now();
  if (mode === 'batch') {
    for (let i = 0; i < ticks.length; i += BATCH) {
      const inputs: OpportunityInput[] = [];
      let now = T0;
      for (const t of ticks.slice(i, i + BATCH)) {
        const change = snapshot.handle(t, t.ts);
        if (change) inputs.push({ type: 'odds', change });
        now = t.ts;
      }
      changes += processor.handleBatch(inputs, now).length;
    }
    return { ms: performance.now() - t0, latencies, changes };
  }
  for (const t of ticks) {
    const start = performance.now();
    const change = snapshot.handle(t, t.ts);
    let produced = 0;
    if (change && mode === 'tick') produced = processor.handle({ type: 'odds', change }, t.ts).length;
    const end = performance.now();
    changes += produced;
    // Snapshot only: every tick's time; with the engines: ticks that changed an opportunity.
    if (mode === 'snapshot' || produced > 0) latencies[k++] = (end - start) * 1000;
  }
  return { ms: performance.now() - t0, latencies: latencies.subarray(0, k), changes };
}

function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function benchOpportunities(): Promise<BenchFigure[]> {
  const { events, ticks } = syntheticTicks();
  run(events, ticks.slice(0, 20_000), 'tick'); // warm-up: JIT, not measured
  const runs: Record<Mode, Run[]> = { snapshot: [], tick: [], batch: [] };
  for (let i = 0; i < 3; i++) for (const mode of ['snapshot', 'tick', 'batch'] as const) runs[mode].push(run(events, ticks, mode));
  const rate = (mode: Mode): number => median(runs[mode].map((r) => ticks.length / (r.ms / 1000)));
  const latencies = runs.tick[1]?.latencies ?? new Float64Array();
  const baseLatencies = runs.snapshot[1]?.latencies ?? new Float64Array();
  const snapshotOnly = { name: 'snapshot only', value: rate('snapshot') };
  return [
    { name: 'ticks/s, snapshot + 4 engines, per tick', value: rate('tick'), unit: 'ticks/s', baseline: snapshotOnly },
    { name: `ticks/s, snapshot + 4 engines, batches of ${BATCH}`, value: rate('batch'), unit: 'ticks/s', baseline: snapshotOnly },
    { name: 'tick-to-opportunity latency p50', value: percentile(latencies, 0.5), unit: 'µs', baseline: { name: 'snapshot p50', value: percentile(baseLatencies, 0.5) } },
    { name: 'tick-to-opportunity latency p99', value: percentile(latencies, 0.99), unit: 'µs', baseline: { name: 'snapshot p99', value: percentile(baseLatencies, 0.99) } },
    { name: 'opportunity changes per 1000 ticks (per tick)', value: ((runs.tick[1]?.changes ?? 0) / ticks.length) * 1000, unit: 'changes', baseline: { name: 'ticks', value: 1000 } },
  ];
}
