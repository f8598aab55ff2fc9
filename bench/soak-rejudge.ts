/**
 * Development: judge a soak's CSV again under the current rules (docs/soak.md, "The verdict"),
 * for runs written before a rule changed, and draw its chart again.
 *
 *   npx tsx bench/soak-rejudge.ts <soak.csv> [--warmup S] [--memory-from S] [--subscribers N] [--minutes M] [--svg out.svg]
 *
 * `--warmup` is the windows' warm-up (150 s at the soak's defaults). Memory is judged from where
 * the board's key tables settled (`board_rows_taken_in`), or from `--memory-from` for a run
 * written before that column existed; say in the report which it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { soakChart } from './soak-chart.js';
import { readSoakCsv } from './soak-csv.js';
import { MEMORY_VERDICT_REQUIRED_SECONDS, judgeSoak, keyTablesSettledAt, memoryWarmupOf } from './soak-trend.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    warmup: { type: 'string', default: '150' },
    'memory-from': { type: 'string' },
    subscribers: { type: 'string', default: '500' },
    minutes: { type: 'string' },
    svg: { type: 'string' },
  },
});
const file = positionals[0];
const number = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`soak-rejudge: --${name} must be a number of seconds (or subscribers), not ${text}\n`);
    process.exit(2);
  }
  return n;
};
if (file === undefined) {
  process.stderr.write(
    'usage: npx tsx bench/soak-rejudge.ts <soak.csv> [--warmup S] [--memory-from S] [--subscribers N] [--svg out.svg]\n',
  );
  process.exit(2);
}

const samples = readSoakCsv(readFileSync(file, 'utf8'));
const warmupSeconds = number('warmup', values.warmup) as number;
const given = number('memory-from', values['memory-from']);
const settledAt = keyTablesSettledAt(samples);
const memoryWarmupSeconds = given ?? memoryWarmupOf(samples, warmupSeconds);
const seconds = Math.max(...samples.map((s) => s.t));
const subscribers = number('subscribers', values.subscribers) as number;
const verdict = judgeSoak(samples, {
  warmupSeconds,
  memoryWarmupSeconds,
  memoryVerdictRequired: seconds >= MEMORY_VERDICT_REQUIRED_SECONDS,
  maxGrowthPerHour: 0.05,
  maxFdGrowthPerHour: Math.max(20, Math.ceil(subscribers / 20)),
});
const memoryFrom =
  given !== undefined
    ? `memory judged from ${given} s (given)`
    : settledAt === null
      ? 'the key tables had not settled (or the CSV predates board_rows_taken_in): memory not judged'
      : `the key tables settled at ${settledAt} s: memory judged from ${String(memoryWarmupSeconds)} s`;
process.stdout.write(`${file}: ${samples.length} readings to ${seconds} s; warm-up ${warmupSeconds} s; ${memoryFrom}\n`);
for (const line of verdict.lines) process.stdout.write(`  ${line}\n`);
for (const f of verdict.failures) process.stdout.write(`FAILED: ${f}\n`);
if (verdict.failures.length === 0) process.stdout.write('passed\n');
if (values.svg !== undefined) {
  const minutes = values.minutes ?? (seconds / 60).toFixed(0);
  writeFileSync(
    values.svg,
    soakChart(
      samples,
      { windows: warmupSeconds, memory: memoryWarmupSeconds },
      `Soak, ${minutes} min: ${subscribers} subscribers, judged again`,
    ),
  );
}
process.exit(verdict.failures.length === 0 ? 0 : 1);
