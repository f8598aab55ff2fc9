import type { CanonicalEvent, OddsTick } from '../schemas/index.js';
import { OpportunityProcessor } from '../pipeline/opportunities/index.js';
import type { OpportunityInput } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';
import { SYNTHETIC_T0, syntheticBoard } from '../pipeline/opportunities/fixtures/synthetic-board.js';
import type { BenchFigure } from './report.js';
import { childResult } from './child-result.js';
import { spread, spreadLine } from './samples.js';
import type { Spread } from './samples.js';

/**
 * Opportunity detection: ticks/s through the snapshot processor and the four engines, against
 * the snapshot processor alone on the same ticks in the same run; and tick-to-opportunity
 * latency (time from a tick entering the snapshot processor to the opportunity changes it
 * causes), against the snapshot's own per-tick time. Batches: median of 5 runs, per tick: of 3,
 * interleaved with their baselines; the spread of the samples and the load average print under
 * the figures. Then the batched run in child processes, V8's default heap against the larger
 * young generation the runtime starts with (heapFigures). About a minute on a quiet 2-core machine.
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
  /** Process CPU time (user + system): on a shared machine it moves less than wall time. */
  cpuMs: number;
  latencies: Float64Array;
  changes: number;
}

/** Per tick (timed one by one), or in batches of BATCH ticks; `snapshot*`: the snapshot processor alone. */
type Mode = 'snapshot' | 'tick' | 'snapshotBatch' | 'batch';
const BATCH = 1000;

export function run(events: readonly CanonicalEvent[], ticks: readonly OddsTick[], mode: Mode): Run {
  const snapshot = new SnapshotProcessor();
  const processor = new OpportunityProcessor();
  processor.handleBatch(
    events.map((event) => ({ type: 'event' as const, event })),
    T0,
  );
  const batched = mode === 'batch' || mode === 'snapshotBatch';
  const latencies = new Float64Array(batched ? 0 : ticks.length);
  let changes = 0;
  let k = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = (): Run => {
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, latencies: latencies.subarray(0, k), changes };
  };
  if (batched) {
    for (let i = 0; i < ticks.length; i += BATCH) {
      const inputs: OpportunityInput[] = [];
      let now = T0;
      const end = Math.min(ticks.length, i + BATCH);
      for (let j = i; j < end; j++) {
        const t = ticks[j] as OddsTick;
        const change = snapshot.handle(t, t.ts);
        if (change) inputs.push({ type: 'odds', change });
        now = t.ts;
      }
      if (mode === 'batch') changes += processor.handleBatch(inputs, now).length;
    }
    return done();
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
  return done();
}

function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const SAMPLES: Record<Mode, number> = { snapshot: 3, tick: 3, snapshotBatch: 5, batch: 5 };

/** The young generation's size limit the runtime starts with (Makefile, Dockerfile), MB. */
export const SEMI_SPACE_MB = 64;

/** Batched samples from a child process started with these V8 flags (bench/opportunities-child.ts). */
function forkedSamples(execArgv: string[], samples: number): Promise<{ ms: number; cpuMs: number }[]> {
  // The parent's NODE_OPTIONS must not set the flag for both children.
  const nodeOptions = (process.env['NODE_OPTIONS'] ?? '').replace(/--max-semi-space-size=\S+/g, '');
  return childResult<{ ms: number; cpuMs: number }[]>('./opportunities-child.js', [String(samples)], {
    execArgv,
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
}

/**
 * The same batched run in two child processes, V8's default young generation against
 * `--max-semi-space-size=SEMI_SPACE_MB`, alternating: GC is a fifth of the engines' profile,
 * and most of it is scavenges copying the board's rows while it grows.
 */
async function heapFigures(tickCount: number): Promise<BenchFigure[]> {
  const byDefault: { ms: number; cpuMs: number }[] = [];
  const larger: { ms: number; cpuMs: number }[] = [];
  for (let i = 0; i < 2; i++) {
    byDefault.push(...(await forkedSamples([], 2)));
    larger.push(...(await forkedSamples([`--max-semi-space-size=${SEMI_SPACE_MB}`], 2)));
  }
  const wall = (xs: { ms: number }[]): Spread => spread(xs.map((x) => tickCount / (x.ms / 1000)));
  const cpu = (xs: { cpuMs: number }[]): Spread => spread(xs.map((x) => tickCount / (x.cpuMs / 1000)));
  const flag = `--max-semi-space-size=${SEMI_SPACE_MB}`;
  process.stdout.write(spreadLine(`batches of ${BATCH}, ${flag} against V8's default, ticks/s`, wall(larger), wall(byDefault)));
  process.stdout.write(spreadLine(`batches of ${BATCH}, ${flag} against V8's default, ticks per CPU-second`, cpu(larger), cpu(byDefault)));
  return [
    {
      name: `ticks/s, batches of ${BATCH}, ${flag}`,
      value: wall(larger).median,
      unit: 'ticks/s',
      baseline: { name: "same, V8's default heap (child processes)", value: wall(byDefault).median },
      target: { limit: 100_000, better: 'higher' },
    },
    {
      name: `ticks per CPU-second, batches, ${flag}`,
      value: cpu(larger).median,
      unit: 'ticks/s',
      baseline: { name: "same, V8's default heap", value: cpu(byDefault).median },
    },
  ];
}

/** Books per market of the scale figures (the 10, 25 and 50). */
const SCALE_BOOKS = [10, 25, 50] as const;
/** Markets per event of the synthetic board: moneyline, two spreads, two totals, four props. */
const MARKETS_PER_EVENT = 9;
/** Moves per book and market: enough that nearly every book quotes every market (1 - e^-4, 98 %). */
const MOVES_PER_QUOTE = 4;

/**
 * The engines' cost as the work grows: the same 80,000 ticks on boards of 10, 25 and 50 books per
 * market, each against the snapshot processor alone on the same ticks (alternating, 3 samples
 * each). Fewer events as the books grow, so every board fills to the same share of its quotes and
 * only the books per line group differ. The main figures' board is mostly still being built.
 */
function scaleFigures(): BenchFigure[] {
  const figures: BenchFigure[] = [];
  const steps = 40_000;
  for (const books of SCALE_BOOKS) {
    const events = Math.max(1, Math.round(steps / (MOVES_PER_QUOTE * MARKETS_PER_EVENT * books)));
    const board = syntheticBoard({ events, steps, books });
    const engines: Run[] = [];
    const snapshot: Run[] = [];
    for (let i = 0; i < 3; i++) {
      snapshot.push(run(board.events, board.ticks, 'snapshotBatch'));
      engines.push(run(board.events, board.ticks, 'batch'));
    }
    const n = board.ticks.length;
    const wall = (rs: Run[]): Spread => spread(rs.map((r) => n / (r.ms / 1000)));
    const cpu = (rs: Run[]): Spread => spread(rs.map((r) => n / (r.cpuMs / 1000)));
    const what = `${books} books per market (${events} events), batches of ${BATCH}`;
    process.stdout.write(spreadLine(`${what}, ticks/s`, wall(engines), wall(snapshot)));
    process.stdout.write(spreadLine(`${what}, ticks per CPU-second`, cpu(engines), cpu(snapshot)));
    figures.push(
      {
        name: `ticks/s, ${books} books per market, batches`,
        value: wall(engines).median,
        unit: 'ticks/s',
        baseline: { name: 'snapshot only, same ticks', value: wall(snapshot).median },
      },
      {
        name: `ticks per CPU-second, ${books} books per market`,
        value: cpu(engines).median,
        unit: 'ticks/s',
        baseline: { name: 'snapshot only', value: cpu(snapshot).median },
      },
    );
  }
  return figures;
}

export async function benchOpportunities(): Promise<BenchFigure[]> {
  const { events, ticks } = syntheticTicks();
  run(events, ticks.slice(0, 20_000), 'tick'); // warm-up: JIT, not measured
  run(events, ticks.slice(0, 20_000), 'batch');
  const runs: Record<Mode, Run[]> = { snapshot: [], tick: [], snapshotBatch: [], batch: [] };
  // Interleaved, so that a burst of load on the machine hits the figure and its baseline alike.
  for (let i = 0; i < 5; i++) {
    for (const mode of ['snapshotBatch', 'batch', 'snapshot', 'tick'] as const)
      if (runs[mode].length < SAMPLES[mode]) runs[mode].push(run(events, ticks, mode));
  }
  const rates = (mode: Mode): Spread => spread(runs[mode].map((r) => ticks.length / (r.ms / 1000)));
  const cpuRates = (mode: Mode): Spread => spread(runs[mode].map((r) => ticks.length / (r.cpuMs / 1000)));
  const middle = (mode: Mode): Run | undefined => [...runs[mode]].sort((a, b) => a.ms - b.ms)[Math.floor(runs[mode].length / 2)];
  const latencies = middle('tick')?.latencies ?? new Float64Array();
  const baseLatencies = middle('snapshot')?.latencies ?? new Float64Array();
  process.stdout.write(spreadLine('per tick, ticks/s', rates('tick'), rates('snapshot')));
  process.stdout.write(spreadLine(`batches of ${BATCH}, ticks/s`, rates('batch'), rates('snapshotBatch')));
  process.stdout.write(spreadLine(`batches of ${BATCH}, ticks per CPU-second`, cpuRates('batch'), cpuRates('snapshotBatch')));
  return [
    {
      name: 'ticks/s, snapshot + 4 engines, per tick',
      value: rates('tick').median,
      unit: 'ticks/s',
      baseline: { name: 'snapshot only, per tick', value: rates('snapshot').median },
    },
    {
      name: `ticks/s, snapshot + 4 engines, batches of ${BATCH}`,
      value: rates('batch').median,
      unit: 'ticks/s',
      baseline: { name: `snapshot only, batches of ${BATCH}`, value: rates('snapshotBatch').median },
      target: { limit: 100_000, better: 'higher' },
    },
    {
      name: `ticks per CPU-second, engines, batches of ${BATCH}`,
      value: cpuRates('batch').median,
      unit: 'ticks/s',
      baseline: { name: 'snapshot only', value: cpuRates('snapshotBatch').median },
    },
    {
      name: 'tick-to-opportunity latency p50',
      value: percentile(latencies, 0.5),
      unit: 'µs',
      baseline: { name: 'snapshot p50', value: percentile(baseLatencies, 0.5) },
    },
    {
      name: 'tick-to-opportunity latency p99',
      value: percentile(latencies, 0.99),
      unit: 'µs',
      baseline: { name: 'snapshot p99', value: percentile(baseLatencies, 0.99) },
    },
    {
      name: 'opportunity changes per 1000 ticks (per tick)',
      value: ((middle('tick')?.changes ?? 0) / ticks.length) * 1000,
      unit: 'changes',
      baseline: { name: 'ticks', value: 1000 },
    },
    ...scaleFigures(),
    ...(await heapFigures(ticks.length)),
  ];
}
