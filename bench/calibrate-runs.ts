import { LEAGUES, settingDefault } from '../schemas/index.js';
import type { RawGameState, RawTick } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import type { MarketSimulatorOptions } from '../pipeline/feeds/simulator/index.js';
import { percentile } from '../pipeline/freshness/index.js';
import { COMPARED_MARKETS, MarketStatsObserver, PHASES, confirmedMarkets } from './market-stats.js';
import type { ConfirmedMarket, Phase, PhaseStats } from './market-stats.js';
import { ProcessorChain, replayRecording } from './processor-chain.js';
import type { ChainOutput } from './processor-chain.js';
import { SnapshotSampler, snapshotGaps } from './snapshot-sampler.js';
import { collectionDelays } from './collection-delay.js';
import type { DelayResampler } from './collection-delay.js';

/**
 * The runs `make calibrate` compares (bench/calibrate.ts) and its variations
 * (bench/calibrate-variations.ts): the simulator tick by tick, the simulator seen through
 * snapshots, and a recording's replay, each through the pipeline's own processors into the same
 * market statistics.
 */

const COMPARED: ReadonlySet<string> = new Set(COMPARED_MARKETS);

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

  sample(now: number, phases?: ReadonlySet<Phase>, confirmed?: readonly ConfirmedMarket[]): void {
    this.stats.sample(now, this.chain.opportunities.active(), phases, confirmed);
  }
}

/** Start of the simulated market: November, when most leagues are in season (as bench/stale-share.ts). */
const SIM_T0 = Date.UTC(2026, 10, 28, 12);
/** The simulator as `make run` drives it: its default ticks a second, in its default steps. */
export const SIM_STEP_MS = settingDefault('SIM_STEP_MS');
export const SIM_TICKS_PER_SECOND = settingDefault('SIM_TICKS_PER_SECOND');
/**
 * The snapshot-sampled runs' budget, with nothing spent beyond what the books' cadences and the
 * news need (`fillBudget: false`): the books confirm each price about once a minute, as the
 * recorded ones do, which on the whole board takes about 750 ticks a second; at 200 (`make
 * run`'s rate before stop 50) the confirmations queue up and a price's age says how short the
 * budget is, and filling a larger budget with early reprices makes every price younger than its
 * book would (docs/simulator.md, "Stop 49").
 */
export const SAMPLED_TICKS_PER_SECOND = 2_000;
/** Samples start once every book has shown its cadence for a few minutes. */
export const SIM_WARMUP_MS = 5 * 60_000;
const SIM_SAMPLE_EVERY_MS = 60_000;

export function simulate(minutes: number, options: Omit<MarketSimulatorOptions, 'clock'> = {}): Record<Phase, PhaseStats> {
  const clock = new ManualClock(SIM_T0);
  const sim = new MarketSimulator({ seed: 42, ...options, clock });
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
 * recordings' own, when given), and each phase sampled right after its own snapshots, as the
 * replays are after each of theirs.
 */
export function simulateSampled(
  minutes: number,
  gaps: Record<Phase, number>,
  delays: DelayResampler | null,
  options: Omit<MarketSimulatorOptions, 'clock'> = {},
): Record<Phase, PhaseStats> {
  const clock = new ManualClock(SIM_T0);
  const sim = new MarketSimulator({ seed: 42, fillBudget: false, ...options, clock });
  const run = new MarketRun();
  const sampler = new SnapshotSampler(
    delays === null
      ? { collectionTimes: true }
      : {
          delay: (phase, at, book, bookEventId) => delays.draw(phase, `${at}|${book}|${bookEventId}`),
          maxDelayMs: delays.max,
          collectionTimes: true,
        },
  );
  // The opening board too is seen only through the first snapshots, as a replay starts from its
  // first snapshot: the pipeline (its freshness ledger included) knows nothing of the market before.
  sampler.add(sim.snapshot().filter((t) => COMPARED.has(t.market)));
  run.feed(SIM_T0, [], sim.takeGameStates());
  const next: Record<Phase, number> = { prematch: SIM_T0 + gaps.prematch, live: SIM_T0 + gaps.live };
  for (let now = SIM_T0 + SIM_STEP_MS; now <= SIM_T0 + minutes * 60_000; now += SIM_STEP_MS) {
    clock.set(now);
    sampler.add(sim.step(now, (SAMPLED_TICKS_PER_SECOND * SIM_STEP_MS) / 1000).filter((t) => COMPARED.has(t.market)));
    // Game states (starts, scores, finals) are the events' own news, not prices: they go in as they happen.
    run.feed(now, [], sim.takeGameStates());
    const shown = new Set<Phase>();
    for (const phase of PHASES) {
      if (now < next[phase]) continue;
      run.feed(now, sampler.take(phase, now));
      next[phase] += gaps[phase];
      shown.add(phase);
    }
    // Each phase is sampled after its own snapshots only: a recorded snapshot shows both phases
    // afresh, and sampling the pre-match board again after every live snapshot counted each
    // pre-match arbitrage three or four times over (docs/simulator.md).
    // The confirmation ages from the books' own times at the snapshot, not the rows' (timed when collected).
    if (shown.size > 0 && now >= SIM_T0 + SIM_WARMUP_MS) run.sample(now, shown, confirmedMarkets(sim.snapshot()));
  }
  return run.stats.result();
}

export interface Replayed {
  stats: Record<Phase, PhaseStats>;
  /** Each snapshot's time and the phases of the prices it changed. */
  snapshots: { at: number; phases: Set<Phase> }[];
  /** Every book's collection delay in every snapshot, ms, per phase. */
  delays: Record<Phase, number[]>;
  /** The books the recording lists, by catalog id. */
  books: Set<string>;
}

/** Every snapshot of a recording, diffed as the replay feed does, sampled right after it. */
export async function replay(path: string): Promise<Replayed> {
  const run = new MarketRun();
  const snapshots: Replayed['snapshots'] = [];
  const delays: Replayed['delays'] = { prematch: [], live: [] };
  const books = new Set<string>();
  await replayRecording(path, run.chain, (at, out, snapshot) => {
    const seen = collectionDelays(snapshot);
    for (const phase of PHASES) delays[phase].push(...seen[phase]);
    run.observe(out);
    run.sample(at);
    const phases = new Set<Phase>();
    for (const c of out.changes) {
      if (c.row === null) continue;
      phases.add(c.row.isLive ? 'live' : 'prematch');
      books.add(c.row.book);
    }
    snapshots.push({ at, phases });
  });
  return { stats: run.stats.result(), snapshots, delays, books };
}

/** The recordings' median snapshot spacing per phase, over both recordings' gaps together. */
export function recordedGaps(replays: readonly Replayed[]): Record<Phase, number> {
  const gap = (phase: Phase): number => {
    const all = replays.flatMap((r) => snapshotGaps(r.snapshots, phase)).sort((a, b) => a - b);
    const median = percentile(all, 0.5);
    if (median === null) throw new Error(`no ${phase} snapshots in the recordings`);
    return median;
  };
  return { prematch: gap('prematch'), live: gap('live') };
}
