import { LEAGUES } from '../schemas/index.js';
import type { RawGameState, RawTick } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { COMPARED_MARKETS, MarketStatsObserver, PHASES } from './market-stats.js';
import type { Phase, PhaseStats } from './market-stats.js';
import { ODDS_API_RECORDINGS, ProcessorChain, replayRecording } from './processor-chain.js';
import type { ChainOutput } from './processor-chain.js';

const COMPARED: ReadonlySet<string> = new Set(COMPARED_MARKETS);

/**
 * `make calibrate`: the same market statistics over the simulator and over each real recording
 * of The Odds API, side by side, pre-match and live apart, each through the pipeline's own
 * processors (normalizer, snapshot, opportunity engines). The simulator is judged against the
 * recordings: within 2x of both where they agree that closely, between them where they do not.
 * Deterministic; no server, no store. About a minute.
 *
 *   npx tsx bench/calibrate.ts [simulated minutes=20]
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

/** Every snapshot of a recording, diffed as the replay feed does, sampled right after it. */
async function replay(path: string): Promise<Record<Phase, PhaseStats>> {
  const run = new MarketRun();
  await replayRecording(path, run.chain, (at, out) => {
    run.observe(out);
    run.sample(at);
  });
  return run.stats.result();
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

function table(sim: Record<Phase, PhaseStats>, recorded: readonly { name: string; stats: Record<Phase, PhaseStats> | null }[]): string {
  const lines: string[] = [];
  let met = 0;
  let judged = 0;
  const header = ['statistic', 'unit', 'simulator', ...recorded.map((r) => r.name), 'target', 'met'];
  const widths = [28, 13, 10, ...recorded.map(() => 10), 15, 4];
  const row = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 10) : c.padStart(widths[i] ?? 10))).join(' ');
  for (const phase of PHASES) {
    lines.push(
      `${phase === 'live' ? 'Live' : 'Pre-match'} (markets sampled: simulator ${sim[phase].markets}, ${recorded.map((r) => `${r.name} ${r.stats?.[phase].markets ?? 'n/a'}`).join(', ')})`,
    );
    lines.push(row(header));
    for (const st of STATISTICS) {
      const values = recorded.map((r) => (r.stats === null ? null : st.value(r.stats[phase])));
      const range = targetRange(values);
      const v = st.value(sim[phase]);
      let verdict = '';
      if (range !== null) {
        judged++;
        const ok = v !== null && v >= range[0] && v <= range[1];
        if (ok) met++;
        verdict = ok ? 'yes' : 'NO';
      }
      lines.push(
        row([st.name, st.unit, fmt(v), ...values.map(fmt), range === null ? 'n/a' : `${fmt(range[0])}-${fmt(range[1])}`, verdict]),
      );
    }
    const f = sim[phase];
    lines.push(
      `  follows seen: simulator ${f.follows} of ${f.followChances}, ${recorded.map((r) => `${r.name} ${r.stats?.[phase].follows ?? 0} of ${r.stats?.[phase].followChances ?? 0}`).join(', ')}`,
      '',
    );
  }
  lines.push(`${met} of ${judged} statistics within the target`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 20);
  if (!Number.isFinite(minutes) || minutes <= SIM_WARMUP_MS / 60_000)
    throw new RangeError(`simulated minutes must be above ${SIM_WARMUP_MS / 60_000}`);
  const t0 = performance.now();
  const recorded: { name: string; stats: Record<Phase, PhaseStats> | null }[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      process.stdout.write(`note: ${missingRecordingNote(r.file)}\n`);
      recorded.push({ name: r.name, stats: null });
      continue;
    }
    recorded.push({ name: r.name, stats: await replay(path) });
  }
  const sim = simulate(minutes);
  process.stdout.write(
    `Simulator (seed 42, ${minutes} simulated minutes at ${SIM_TICKS_PER_SECOND} ticks/s, sampled every minute after ${SIM_WARMUP_MS / 60_000}) ` +
      `against The Odds API recordings (every snapshot); full-game moneyline, spread and total only\n\n` +
      `${table(sim, recorded)}\n\n` +
      `reproduce: make calibrate  (or npx tsx bench/calibrate.ts ${minutes}); ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`calibrate failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
