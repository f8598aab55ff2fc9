import { SPORTSBOOKS } from '../schemas/index.js';
import type { MarketSimulatorOptions } from '../pipeline/feeds/simulator/index.js';
import { locateRecording } from '../scripts/recordings/index.js';
import type { PhaseStats } from './market-stats.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { DelayResampler } from './collection-delay.js';
import { recordedGaps, replay, simulateSampled } from './calibrate-runs.js';
import type { Replayed } from './calibrate-runs.js';

/**
 * What the simulator's live figures depend on: the snapshot-sampled run of `make calibrate` again
 * with one thing changed at a time (the books listed, how the truth moves in play, the collection
 * delays), beside the recordings. Not part of `make calibrate`; a question asked of it.
 *
 *   npx tsx bench/calibrate-variations.ts [sampled minutes=240] [variant names, comma-separated]
 */

interface Variant {
  name: string;
  delays: boolean;
  recordedBooksOnly: boolean;
  options: Omit<MarketSimulatorOptions, 'clock'>;
}

/** Half today's live drift, a third of its news jumps at half their size: how much the live figures owe to the moves' size. */
const SMALLER_MOVES = { drift: 0.03, jumpsPerMinute: 1 / 30, jumpSize: 0.15 };

const VARIANTS: readonly Variant[] = [
  { name: 'today', delays: true, recordedBooksOnly: false, options: {} },
  { name: '11 books', delays: true, recordedBooksOnly: true, options: {} },
  { name: 'no delays', delays: false, recordedBooksOnly: false, options: {} },
  { name: '11 books, no delays', delays: false, recordedBooksOnly: true, options: {} },
  { name: 'no news jumps', delays: true, recordedBooksOnly: false, options: { liveMoves: { jumpsPerMinute: 0 } } },
  { name: 'smaller moves', delays: true, recordedBooksOnly: false, options: { liveMoves: SMALLER_MOVES } },
  { name: 'smaller moves, 11 books', delays: true, recordedBooksOnly: true, options: { liveMoves: SMALLER_MOVES } },
];

const fmt = (v: number | null): string => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

function line(name: string, s: { prematch: PhaseStats; live: PhaseStats }): string {
  const l = s.live;
  return [
    name.padEnd(26),
    fmt(l.evPer100Markets).padStart(8),
    fmt(l.arbitrageRate).padStart(8),
    fmt(l.arbitrageProfitP50).padStart(8),
    fmt(l.consensusMoveP50).padStart(8),
    fmt(l.consensusMoveP90).padStart(8),
    fmt(l.offConsensusP50['moneyline'] ?? null).padStart(8),
    fmt(l.offConsensusP90['moneyline'] ?? null).padStart(8),
    fmt(l.followP50).padStart(8),
    String(l.markets).padStart(7),
    fmt(s.prematch.evPer100Markets).padStart(8),
  ].join(' ');
}

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 240);
  const only = process.argv[3]?.split(',') ?? null;
  const replays: Replayed[] = [];
  const out: string[] = [
    `${'run'.padEnd(26)} ${['EV/100', 'arb %', 'arb p50', 'mv p50', 'mv p90', 'off p50', 'off p90', 'fol p50', 'mkts', 'pre EV'].map((h) => h.padStart(h === 'mkts' ? 7 : 8)).join(' ')}`,
  ];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) throw new Error(`recording ${r.file} not found`);
    const replayed = await replay(path);
    replays.push(replayed);
    out.push(line(r.name, replayed.stats));
  }
  process.stdout.write(`${out.join('\n')}\n`);
  const gaps = recordedGaps(replays);
  const recordedBooks = new Set(replays.flatMap((r) => [...r.books]));
  const delays = new DelayResampler(
    { prematch: replays.flatMap((r) => r.delays.prematch), live: replays.flatMap((r) => r.delays.live) },
    42,
  );
  for (const v of VARIANTS) {
    if (only !== null && !only.includes(v.name)) continue;
    const t0 = performance.now();
    const books = v.recordedBooksOnly ? SPORTSBOOKS.filter((b) => recordedBooks.has(b.id)) : undefined;
    const stats = simulateSampled(minutes, gaps, v.delays ? delays : null, {
      ...v.options,
      ...(books === undefined ? {} : { catalog: { books } }),
    });
    process.stdout.write(`${line(v.name, stats)}   (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  process.stdout.write(`recorded books: ${[...recordedBooks].sort().join(', ')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`calibrate-variations failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
