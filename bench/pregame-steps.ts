import { parseRecordingLine } from '../pipeline/feeds/theoddsapi/index.js';
import { readLines } from '../pipeline/feeds/read-lines.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { LEAD_BOOK, PregameSteps, stepStats } from './consensus-steps.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';

/**
 * How often and how far the recorded pre-match moneyline moves, consensus and lead book, per
 * recording and both together (`consensus-steps.ts` says how it is read): what the simulator's
 * pre-game news is set from (`pipeline/feeds/simulator/dynamics.ts`, `PREGAME`).
 *
 *   npx tsx bench/pregame-steps.ts
 */

async function main(): Promise<void> {
  const all = new PregameSteps();
  const rows: { name: string; steps: PregameSteps }[] = [];
  for (const r of ODDS_API_RECORDINGS) {
    const path = locateRecording(r.file);
    if (path === null) {
      process.stdout.write(`note: ${missingRecordingNote(r.file)}\n`);
      continue;
    }
    const steps = new PregameSteps();
    for await (const line of readLines(path)) {
      const snap = parseRecordingLine(line);
      if (snap !== null) steps.add(snap);
    }
    rows.push({ name: r.name, steps });
    all.consensus.push(...steps.consensus);
    all.lead.push(...steps.lead);
  }
  rows.push({ name: 'both', steps: all });
  const fmt = (x: number | null, d = 3): string => (x === null ? 'n/a' : x.toFixed(d));
  process.stdout.write('recording | price | pairs | gap p50 min | pairs with a step % | steps / hour | step size p50 / p90 logit (n)\n');
  for (const { name, steps } of rows) {
    for (const [price, pairs] of [
      ['consensus', steps.consensus],
      [LEAD_BOOK, steps.lead],
    ] as const) {
      const s = stepStats(pairs);
      process.stdout.write(
        `${name} | ${price} | ${s.pairs} | ${fmt(s.gapP50Minutes, 1)} | ${fmt(s.stepShare, 1)} | ${fmt(s.stepsPerHour)} | ` +
          `${fmt(s.sizeP50)} / ${fmt(s.sizeP90)} (${s.sizedSteps})\n`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`pregame-steps failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
