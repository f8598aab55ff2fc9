/**
 * The soak's readings as CSV (`docs/soak/soak-<n>min.csv`): written by the driver, read back by
 * `bench/soak-rejudge.ts` to judge an earlier run under the current rules. One column per
 * `SoakSample` field, in the order the columns were added; a run written before a column existed
 * reads it as missing (NaN), never as zero.
 */
import type { SoakSample } from './soak-trend.js';

const COLUMNS: readonly (readonly [string, keyof SoakSample])[] = [
  ['t_seconds', 't'],
  ['rss_bytes', 'rssBytes'],
  ['heap_used_bytes', 'heapUsedBytes'],
  ['heap_after_gc_bytes', 'heapAfterGcBytes'],
  ['external_bytes', 'externalBytes'],
  ['open_fds', 'fds'],
  ['event_loop_p99_ms', 'eventLoopP99Ms'],
  ['stream_lag_p99_ms', 'streamLagP99Ms'],
  ['store_parts', 'storeParts'],
  ['pipeline_lag_records', 'pipelineLag'],
  ['thread_proc_fds', 'threadFds'],
  ['threads', 'threads'],
  ['board_rows', 'boardRows'],
  ['board_events', 'boardEvents'],
  ['heap_after_forced_gc_bytes', 'heapForcedGcBytes'],
  ['board_rows_taken_in', 'boardRowsTakenIn'],
];
/** Columns every soak CSV has had since the per-thread files and the board were read: the rest came later and may be missing. */
const REQUIRED_COLUMNS = COLUMNS.filter(([name]) => name !== 'heap_after_forced_gc_bytes' && name !== 'board_rows_taken_in');

export function soakCsv(samples: readonly SoakSample[]): string {
  const cell = (field: keyof SoakSample, value: number | undefined): string => {
    if (value === undefined || !Number.isFinite(value)) return '';
    return field === 'eventLoopP99Ms' ? value.toFixed(1) : String(value);
  };
  const rows = samples.map((s) => COLUMNS.map(([, field]) => cell(field, s[field])).join(','));
  return `${[COLUMNS.map(([name]) => name).join(','), ...rows].join('\n')}\n`;
}

/** The readings of a soak CSV; throws naming the column when a required one is absent. */
export function readSoakCsv(text: string): SoakSample[] {
  const [head = '', ...lines] = text.trim().split('\n');
  const names = head.split(',');
  const at = new Map(names.map((n, i) => [n, i]));
  for (const [name] of REQUIRED_COLUMNS) if (!at.has(name)) throw new Error(`the soak CSV has no column ${name} (its header: ${head})`);
  return lines.map((line) => {
    const cells = line.split(',');
    const value = (name: string): number => {
      const i = at.get(name);
      const cell = i === undefined ? '' : (cells[i] ?? '');
      return cell === '' ? Number.NaN : Number(cell);
    };
    const sample = Object.fromEntries(COLUMNS.map(([name, field]) => [field, value(name)])) as unknown as SoakSample;
    if (Number.isNaN(sample.heapForcedGcBytes)) delete sample.heapForcedGcBytes;
    return sample;
  });
}
