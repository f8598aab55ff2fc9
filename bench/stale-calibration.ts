import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { MIN_BOOK_AGES, StaleOutcomes, bookLimits, summarize, summaryOf } from './stale-outcomes.js';
import type { BucketSummary, PhaseThreshold, SpellObservation, StaleLimits } from './stale-outcomes.js';
import type { Phase } from './market-stats.js';

/**
 * Where "far beyond the book's cadence" starts, read off the real recordings: for each k bucket of
 * a price's age over its phase's stale threshold, what the book did next with it and how often
 * it was a +EV row against the other books' consensus (`stale-outcomes.ts` says how each is
 * read). The thresholds are read off both recordings together, one per phase; the table per
 * recording and both. Deterministic; about ten seconds.
 *
 *   npx tsx bench/stale-calibration.ts
 */

async function read(path: string): Promise<StaleOutcomes> {
  const outcomes = new StaleOutcomes();
  for await (const snap of recordedSnapshots(path)) outcomes.add(snap);
  return outcomes;
}

const pct = (x: number | null, d = 1): string => (x === null ? 'n/a' : (100 * x).toFixed(d));
const num = (x: number | null, d = 0): string => (x === null ? 'n/a' : x.toFixed(d));
const out = (s: string): boolean => process.stdout.write(`${s}\n`);

function thresholdRow(name: string, t: PhaseThreshold): void {
  out(
    `| ${name} | ${t.phase} | ${t.ages} | ${num(t.timeWeightedP50)} / ${num(t.timeWeightedP95)} | ` +
      `${num(t.countWeightedP50)} / ${num(t.countWeightedP95)} | ${num(t.staleAfterSeconds, 1)} |`,
  );
}

function bucketRows(name: string, rows: readonly BucketSummary[]): void {
  const evTotal: Record<Phase, number> = { prematch: 0, live: 0 };
  const ev2Total: Record<Phase, number> = { prematch: 0, live: 0 };
  for (const r of rows) {
    evTotal[r.phase] += r.ev;
    ev2Total[r.phase] += r.ev2;
  }
  for (const r of rows) {
    out(
      `| ${name} | ${r.phase} | ${r.bucket} | ${r.spells} | ${r.changed} / ${r.changed + r.unchanged} | ` +
        `${pct(r.changedShare)} (${pct(r.changedLow)}-${pct(r.changedHigh)}) | ${pct(r.goneShare)} | ${num(r.nextAfterP50)} | ` +
        `${num(r.offConsensusP50, 2)} | ${r.toward} / ${r.moves} | ${r.ev} / ${r.priced} | ${pct(r.evShare)} (${pct(r.evLow)}-${pct(r.evHigh)}) | ` +
        `${pct(evTotal[r.phase] === 0 ? null : r.ev / evTotal[r.phase])} | ${r.ev2} (${pct(ev2Total[r.phase] === 0 ? null : r.ev2 / ev2Total[r.phase])}) | ` +
        `${r.edgesCut} / ${r.edgesSeen} |`,
    );
  }
}

function table(name: string, runs: readonly { name: string; outcomes: StaleOutcomes }[], limits: StaleLimits): void {
  out('');
  out(`${name}:`);
  out(
    '| recording | phase | k | spells | changed / came back | changed % (95 % CI) | gone % | next update after p50 s | off consensus p50 pts | moved toward consensus | +EV / priced | +EV % (95 % CI) | share of +EV rows % | EV >= 2 (share %) | edges cut at next update |',
  );
  out('|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  const all: SpellObservation[] = [];
  const standing: SpellObservation[] = [];
  for (const r of runs) {
    const o = r.outcomes.observations(limits);
    all.push(...o.spells);
    standing.push(...o.standing);
    bucketRows(r.name, summarize(o.spells));
  }
  bucketRows('both', summarize(all));
  const s = summaryOf('live', 'any', standing);
  out(
    `closing listings left standing in play (books without live odds), every k: ${s.spells} spells, ${s.changed} changed / ${s.unchanged} unchanged / ${s.gone} gone; ` +
      `+EV ${s.ev} of ${s.priced} (${pct(s.evShare)} %), EV >= 2: ${s.ev2}`,
  );
}

async function main(): Promise<void> {
  const runs: { name: string; outcomes: StaleOutcomes }[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      out(`note: ${missingRecordingNote(r.file)}`);
      continue;
    }
    runs.push({ name: r.name, outcomes: await read(path) });
  }
  const { limits, table: perBook, books, phases } = bookLimits(runs.map((r) => r.outcomes));
  out('Thresholds (s): ages at the snapshots, then read once per confirmation; threshold max(floor, 2 x that p95)');
  out(`| book | phase | ages | time-weighted p50 / p95 | count-weighted p50 / p95 | threshold (own from ${MIN_BOOK_AGES} ages) |`);
  out('|---|---|--:|--:|--:|--:|');
  for (const r of runs) for (const t of Object.values(r.outcomes.thresholds())) thresholdRow(`all books, ${r.name}`, t);
  for (const t of Object.values(phases)) thresholdRow('all books, both', t);
  books.forEach((book, i) => {
    for (const t of perBook[i] ?? []) thresholdRow(book, t);
  });
  table("Each book's own threshold (both recordings), as the ledger keeps one per book", runs, limits);
  table('One threshold per phase for every book', runs, {
    prematch: phases.prematch.staleAfterSeconds,
    live: phases.live.staleAfterSeconds,
  });
}

void main();
