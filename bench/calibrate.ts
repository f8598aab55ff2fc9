import { LEAGUES } from '../schemas/index.js';
import type { RawGameState, RawTick } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { percentile } from '../pipeline/freshness/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { COMPARED_MARKETS, MarketStatsObserver, PHASES } from './market-stats.js';
import type { Phase, PhaseStats } from './market-stats.js';
import { ODDS_API_RECORDINGS, ProcessorChain, replayRecording } from './processor-chain.js';
import type { ChainOutput } from './processor-chain.js';
import { SnapshotSampler, snapshotGaps } from './snapshot-sampler.js';
import { DelayResampler, collectionDelays } from './collection-delay.js';

const COMPARED: ReadonlySet<string> = new Set(COMPARED_MARKETS);

/**
 * `make calibrate`: the same market statistics over the simulator and over each real recording
 * of The Odds API, side by side, pre-match and live apart, each through the pipeline's own
 * processors (normalizer, snapshot, opportunity engines). The simulator is judged against the
 * recordings: within 2x of both where they agree that closely, between them where they do not.
 * Deterministic; no server, no store. About four and a half minutes on 2 shared cores.
 *
 *   npx tsx bench/calibrate.ts [simulated minutes=20] [snapshot-sampled simulated minutes=240]
 */

/** The pipeline's processors in a row, with the statistics watching their output. */
class MarketRun {
  readonly stats = new MarketStatsObserver(LEAGUES);
  // Only the markets compared: the rest would cost the engines time and change no figure.
  readonly chain = new ProcessorChain((market) => COMPARED.has(market));

  feed(now: number, ticks: readonly RawTick[], states: readonly RawGameState[] = []): void {
    this.observe(this.chain.feed(now, ticks, states));
  }

  observe(out: ChainOutput): void {
    for (const e of out.events) this.stats.event(e);
    for (const c of out.changes) this.stats.change(c);
  }

  sample(now: number): void {
    this.stats.sample(now, this.chain.opportunities.active());
  }
}

/** Start of the simulated market: November, when most leagues are in season (as bench/stale-share.ts). */
const SIM_T0 = Date.UTC(2026, 10, 28, 12);
/** The simulator as `make run` drives it: 200 ticks a second in 100 ms steps. */
const SIM_STEP_MS = 100;
const SIM_TICKS_PER_SECOND = 200;
/** Samples start once every book has shown its cadence for a few minutes. */
const SIM_WARMUP_MS = 5 * 60_000;
const SIM_SAMPLE_EVERY_MS = 60_000;

function simulate(minutes: number): Record<Phase, PhaseStats> {
  const clock = new ManualClock(SIM_T0);
  const sim = new MarketSimulator({ seed: 42, clock });
  const run = new MarketRun();
  run.feed(SIM_T0, sim.snapshot(), sim.takeGameStates());
  let nextSample = SIM_T0 + SIM_WARMUP_MS;
  for (let now = SIM_T0 + SIM_STEP_MS; now <= SIM_T0 + minutes * 60_000; now += SIM_STEP_MS) {
    clock.set(now);
    const ticks = sim.step(now, (SIM_TICKS_PER_SECOND * SIM_STEP_MS) / 1000);
    run.feed(now, ticks, sim.takeGameStates());
    if (now >= nextSample) {
      run.sample(now);
      nextSample += SIM_SAMPLE_EVERY_MS;
    }
  }
  return run.stats.result();
}

/**
 * The same simulated market seen through snapshots, as the recordings saw the real one: each
 * phase's board shown every `gaps[phase]` ms (the recordings' median spacing of that phase), each
 * book's listing of an event as it stood a collection delay before the snapshot (drawn from the
 * recordings' own, when given), and sampled right after each snapshot, as the replays are.
 */
function simulateSampled(minutes: number, gaps: Record<Phase, number>, delays: DelayResampler | null): Record<Phase, PhaseStats> {
  const clock = new ManualClock(SIM_T0);
  const sim = new MarketSimulator({ seed: 42, clock });
  const run = new MarketRun();
  const sampler = new SnapshotSampler(
    delays === null
      ? {}
      : { delay: (phase, at, book, bookEventId) => delays.draw(phase, `${at}|${book}|${bookEventId}`), maxDelayMs: delays.max },
  );
  run.feed(SIM_T0, sim.snapshot(), sim.takeGameStates());
  const next: Record<Phase, number> = { prematch: SIM_T0 + gaps.prematch, live: SIM_T0 + gaps.live };
  for (let now = SIM_T0 + SIM_STEP_MS; now <= SIM_T0 + minutes * 60_000; now += SIM_STEP_MS) {
    clock.set(now);
    sampler.add(sim.step(now, (SIM_TICKS_PER_SECOND * SIM_STEP_MS) / 1000).filter((t) => COMPARED.has(t.market)));
    // Game states (starts, scores, finals) are the events' own news, not prices: they go in as they happen.
    run.feed(now, [], sim.takeGameStates());
    let shown = false;
    for (const phase of PHASES) {
      if (now < next[phase]) continue;
      run.feed(now, sampler.take(phase, now));
      next[phase] += gaps[phase];
      shown = true;
    }
    if (shown && now >= SIM_T0 + SIM_WARMUP_MS) run.sample(now);
  }
  return run.stats.result();
}

interface Replayed {
  stats: Record<Phase, PhaseStats>;
  /** Each snapshot's time and the phases of the prices it changed. */
  snapshots: { at: number; phases: Set<Phase> }[];
  /** Every book's collection delay in every snapshot, ms, per phase. */
  delays: Record<Phase, number[]>;
}

/** Every snapshot of a recording, diffed as the replay feed does, sampled right after it. */
async function replay(path: string): Promise<Replayed> {
  const run = new MarketRun();
  const snapshots: Replayed['snapshots'] = [];
  const delays: Replayed['delays'] = { prematch: [], live: [] };
  await replayRecording(path, run.chain, (at, out, snapshot) => {
    const seen = collectionDelays(snapshot);
    for (const phase of PHASES) delays[phase].push(...seen[phase]);
    run.observe(out);
    run.sample(at);
    const phases = new Set<Phase>();
    for (const c of out.changes) if (c.row !== null) phases.add(c.row.isLive ? 'live' : 'prematch');
    snapshots.push({ at, phases });
  });
  return { stats: run.stats.result(), snapshots, delays };
}

/** The recordings' median snapshot spacing per phase, over both recordings' gaps together. */
function recordedGaps(replays: readonly Replayed[]): Record<Phase, number> {
  const gap = (phase: Phase): number => {
    const all = replays.flatMap((r) => snapshotGaps(r.snapshots, phase)).sort((a, b) => a - b);
    const median = percentile(all, 0.5);
    if (median === null) throw new Error(`no ${phase} snapshots in the recordings`);
    return median;
  };
  return { prematch: gap('prematch'), live: gap('live') };
}

interface Statistic {
  name: string;
  unit: string;
  value: (s: PhaseStats) => number | null;
}

const STATISTICS: readonly Statistic[] = [
  { name: 'arbitrage rate', unit: '% of markets', value: (s) => s.arbitrageRate },
  { name: 'arbitrage profit p50', unit: '%', value: (s) => s.arbitrageProfitP50 },
  { name: 'arbitrage profit p90', unit: '%', value: (s) => s.arbitrageProfitP90 },
  ...COMPARED_MARKETS.map((m) => ({ name: `hold p50 ${m}`, unit: '%', value: (s: PhaseStats) => s.holdP50[m] ?? null })),
  { name: '+EV rows (min_ev 2)', unit: 'per 100 mkts', value: (s) => s.evPer100Markets },
  { name: 'stale share of +EV rows', unit: '%', value: (s) => s.staleShare },
  { name: 'soft follows sharp p50', unit: 's', value: (s) => s.followP50 },
  { name: 'soft follows sharp p95', unit: 's', value: (s) => s.followP95 },
];

/**
 * The range the simulator must fall in: within 2x of every recording that has the figure, or,
 * where the recordings are more than 4x apart, between them.
 */
export function targetRange(values: readonly (number | null)[]): [number, number] | null {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const lo = Math.max(...known) / 2;
  const hi = Math.min(...known) * 2;
  return lo <= hi ? [lo, hi] : [Math.min(...known), Math.max(...known)];
}

const fmt = (v: number | null): string => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A simulator column: its figures, and whether the target is judged on it. */
interface SimColumn {
  name: string;
  stats: Record<Phase, PhaseStats>;
  judged: boolean;
}

function table(sims: readonly SimColumn[], recorded: readonly { name: string; stats: Record<Phase, PhaseStats> | null }[]): string {
  const lines: string[] = [];
  const met = new Map<string, number>();
  let judged = 0;
  const header = ['statistic', 'unit', ...sims.map((c) => c.name), ...recorded.map((r) => r.name), 'target', 'met'];
  const widths = [28, 13, ...sims.map(() => 11), ...recorded.map(() => 10), 15, 4];
  const row = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 10) : c.padStart(widths[i] ?? 10))).join(' ');
  for (const phase of PHASES) {
    lines.push(
      `${phase === 'live' ? 'Live' : 'Pre-match'} (markets sampled: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].markets ?? 'n/a'}`).join(', ')})`,
    );
    lines.push(row(header));
    for (const st of STATISTICS) {
      const values = recorded.map((r) => (r.stats === null ? null : st.value(r.stats[phase])));
      const range = targetRange(values);
      const simValues = sims.map((c) => st.value(c.stats[phase]));
      let verdict = '';
      if (range !== null) {
        judged++;
        sims.forEach((c, i) => {
          const v = simValues[i] ?? null;
          const ok = v !== null && v >= range[0] && v <= range[1];
          if (ok) met.set(c.name, (met.get(c.name) ?? 0) + 1);
          if (c.judged) verdict = ok ? 'yes' : 'NO';
        });
      }
      lines.push(
        row([
          st.name,
          st.unit,
          ...simValues.map(fmt),
          ...values.map(fmt),
          range === null ? 'n/a' : `${fmt(range[0])}-${fmt(range[1])}`,
          verdict,
        ]),
      );
    }
    lines.push(
      `  follows seen: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].follows ?? 0} of ${r.stats?.[phase].followChances ?? 0}`).join(', ')}`,
      '',
    );
  }
  for (const c of sims)
    lines.push(`${c.name}: ${met.get(c.name) ?? 0} of ${judged} statistics within the target${c.judged ? ' (judged)' : ''}`);
  return lines.join('\n');
}

/** The seed of the collection delays' draws: fixed, so the sampled run is deterministic. */
const DELAY_SEED = 42;

/** How long the snapshot-sampled simulation runs by default: a few of the recordings' snapshot gaps. */
const SAMPLED_MINUTES = 240;

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 20);
  const sampledMinutes = Number(process.argv[3] ?? SAMPLED_MINUTES);
  for (const m of [minutes, sampledMinutes])
    if (!Number.isFinite(m) || m <= SIM_WARMUP_MS / 60_000)
      throw new RangeError(`simulated minutes must be above ${SIM_WARMUP_MS / 60_000}`);
  const t0 = performance.now();
  const recorded: { name: string; stats: Record<Phase, PhaseStats> | null }[] = [];
  const replays: Replayed[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      process.stdout.write(`note: ${missingRecordingNote(r.file)}\n`);
      recorded.push({ name: r.name, stats: null });
      continue;
    }
    const replayed = await replay(path);
    replays.push(replayed);
    recorded.push({ name: r.name, stats: replayed.stats });
  }
  const sims: SimColumn[] = [{ name: 'sim ticks', stats: simulate(minutes), judged: replays.length === 0 }];
  let sampledNote = '';
  if (replays.length > 0) {
    const gaps = recordedGaps(replays);
    const recordedDelays = (phase: Phase): number[] => replays.flatMap((r) => r.delays[phase]);
    const delays = new DelayResampler({ prematch: recordedDelays('prematch'), live: recordedDelays('live') }, DELAY_SEED);
    const quantiles = (phase: Phase): string => {
      const sorted = recordedDelays(phase).sort((a, b) => a - b);
      return [0.5, 0.9].map((p) => `${((percentile(sorted, p) ?? 0) / 1000).toFixed(0)} s`).join(' / ');
    };
    sims.push({ name: 'sim snaps', stats: simulateSampled(sampledMinutes, gaps, delays), judged: true });
    sampledNote =
      `sim snaps: the same simulator over ${sampledMinutes} simulated minutes seen through snapshots at the recordings' median spacing ` +
      `(pre-match every ${(gaps.prematch / 60_000).toFixed(0)} min, live every ${(gaps.live / 60_000).toFixed(0)} min), ` +
      `each book as collected a delay before the snapshot drawn from the recordings' (p50 / p90 pre-match ${quantiles('prematch')}, live ${quantiles('live')}), ` +
      `sampled after each; the target is judged on it\n`;
  }
  process.stdout.write(
    `sim ticks: simulator (seed 42, ${minutes} simulated minutes at ${SIM_TICKS_PER_SECOND} ticks/s, every tick, sampled every minute after ${SIM_WARMUP_MS / 60_000})\n` +
      sampledNote +
      `against The Odds API recordings (every snapshot); full-game moneyline, spread and total only\n\n` +
      `${table(sims, recorded)}\n\n` +
      `reproduce: make calibrate  (or npx tsx bench/calibrate.ts ${minutes} ${sampledMinutes}); ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`calibrate failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
