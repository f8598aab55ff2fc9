import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { confidenceBands, confidenceThirds } from './beat-the-close.js';
import type { BucketRow, ConfidenceGrade } from './beat-the-close.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { gradeRecordedEv } from './recorded-clv.js';

/**
 * `make calibrate`'s second table: does `confidence_score` say which +EV prices beat the close?
 * Both Odds API recordings replayed through the pipeline's processors and its closing processor;
 * each pre-kickoff +EV price at its first sighting graded by no-vig CLV against the recorded
 * sharp close, then counted per third of the confidence score and per ten-point band, with 95 %
 * Wilson intervals. Deterministic; about 20 s.
 *
 *   npx tsx bench/confidence-calibration.ts
 */

/** Ten-point bands, fixed before the grades were looked at. */
const BANDS = [0, 60, 70, 80, 90];

const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}`);

function markdown(title: string, rows: readonly BucketRow[]): string {
  const lines = [
    `${title}`,
    '',
    '| bucket | scores | count | beat the close | share % | 95 % interval |',
    '|---|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.min === null ? '-' : `${r.min}-${r.max}`} | ${r.count} | ${r.beat} | ${pct(r.share)} | ${r.low === null ? '-' : `${pct(r.low)}-${pct(r.high)}`} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const pooled: ConfidenceGrade[] = [];
  const out: string[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      out.push(`note: ${missingRecordingNote(r.file)}`);
      continue;
    }
    const g = await gradeRecordedEv(path);
    pooled.push(...g.graded);
    out.push(
      `${r.name}: ${g.graded.length} graded first sightings; left out: ${g.notClosed} of games that did not kick off in the recording, ` +
        `${g.noReferenceClose} whose line did not close at a reference book, ${g.phantoms} phantom occurrences`,
      '',
      markdown(`${r.name}, thirds of the confidence score`, confidenceThirds(g.graded)),
      '',
    );
  }
  out.push(
    markdown('Both recordings, thirds of the confidence score', confidenceThirds(pooled)),
    '',
    markdown('Both recordings, ten-point bands', confidenceBands(pooled, BANDS)),
    '',
    `reproduce: npx tsx bench/confidence-calibration.ts; ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`confidence calibration failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
