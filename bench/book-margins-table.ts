import { SPORTSBOOKS } from '../schemas/index.js';
import { percentile } from '../pipeline/freshness/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { BookMargins, addRecorded, addSimulated } from './book-margins.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';

/**
 * Each recorded book's median margin before the game and in play (`book-margins.ts`), the ratio
 * of the two, and the simulator's beside them: its board every `SAMPLE_MINUTES` of a 12-hour run
 * on the recordings' books (seed 42, the books' own cadences). What `BookProfile.prematchOverround`
 * and `LIVE_WIDENING` are set from (docs/simulator.md, "Stop 56").
 *
 *   npx tsx bench/book-margins-table.ts
 */

const SAMPLE_MINUTES = 30;
const RUN_MINUTES = 720;

async function main(): Promise<void> {
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  const recorded = new BookMargins();
  const books = new Set<string>();
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      out(`note: ${missingRecordingNote(r.file)}`);
      continue;
    }
    for await (const snap of recordedSnapshots(path)) addRecorded(recorded, snap);
  }
  for (const m of recorded.medians()) books.add(m.book);
  const simulated = new BookMargins();
  const t0 = Date.UTC(2026, 10, 28, 12);
  const clock = new ManualClock(t0);
  const sim = new MarketSimulator({ seed: 42, fillBudget: false, catalog: { books: SPORTSBOOKS.filter((b) => books.has(b.id)) }, clock });
  for (let minute = 1; minute <= RUN_MINUTES; minute++) {
    const now = t0 + minute * 60_000;
    clock.set(now);
    sim.step(now, 60_000);
    if (minute % SAMPLE_MINUTES === 0) addSimulated(simulated, sim.snapshot());
  }
  const fmt = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(2));
  const simMedians = new Map(simulated.medians().map((m) => [m.book, m]));
  out('book | recorded overround p50 % before the game / in play (markets) | in play over before | simulated before / in play (markets)');
  const ratios: number[] = [];
  for (const m of recorded.medians()) {
    const ratio = m.prematch !== null && m.live !== null ? m.live / m.prematch : null;
    if (ratio !== null) ratios.push(ratio);
    const s = simMedians.get(m.book);
    out(
      `${m.book} | ${fmt(m.prematch)} / ${fmt(m.live)} (${m.markets.prematch} / ${m.markets.live}) | ${fmt(ratio)} | ` +
        `${fmt(s?.prematch ?? null)} / ${fmt(s?.live ?? null)} (${s?.markets.prematch ?? 0} / ${s?.markets.live ?? 0})`,
    );
  }
  const widening = percentile(
    ratios.sort((a, b) => a - b),
    0.5,
  );
  out(`in play over before, median over the books with both: ${widening === null ? 'n/a' : widening.toFixed(3)}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`book-margins failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
