import { loadavg } from 'node:os';

/** Spread of several samples of one figure: the median is `value`. */
export interface Spread {
  min: number;
  max: number;
  samples: number;
}

/** One measured figure beside the baseline measured in the same run. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  baseline: { name: string; value: number; spread?: Spread };
  spread?: Spread;
  /** The target: a ratio to the baseline, or an absolute limit in `unit`. */
  target?: { ratio: number; better: 'higher' | 'lower' } | { limit: number; better: 'higher' | 'lower' };
}

export function formatFigures(title: string, figures: readonly BenchFigure[]): string {
  const rows = figures.map((f) => {
    const ratio = f.baseline.value === 0 ? 'n/a' : `${((f.value / f.baseline.value) * 100).toFixed(1)} %`;
    const bound = f.target && ('ratio' in f.target ? `${f.target.ratio}x` : `${fmt(f.target.limit)} ${f.unit}`);
    const target = f.target ? ` target ${f.target.better === 'higher' ? '>=' : '<='} ${bound}: ${met(f) ? 'met' : 'NOT met'}` : '';
    return `  ${f.name.padEnd(44)} ${fmt(f.value).padStart(12)}${range(f.spread)} ${f.unit.padEnd(9)} | baseline ${f.baseline.name}: ${fmt(f.baseline.value)}${range(f.baseline.spread)} ${f.unit} (${ratio} of baseline)${target}`;
  });
  const [one, five] = loadavg();
  return [`${title}  [load average ${(one ?? 0).toFixed(2)}, ${(five ?? 0).toFixed(2)}]`, ...rows].join('\n');
}

/** Whether a figure meets its target ratio to its baseline. */
export function met(f: BenchFigure): boolean {
  if (!f.target) return true;
  let x: number;
  let bound: number;
  if ('ratio' in f.target) {
    if (f.baseline.value === 0) return true;
    x = f.value / f.baseline.value;
    bound = f.target.ratio;
  } else {
    x = f.value;
    bound = f.target.limit;
  }
  return f.target.better === 'higher' ? x >= bound : x <= bound;
}

function range(s: Spread | undefined): string {
  return s ? ` (${fmt(s.min)}-${fmt(s.max)}, n=${s.samples})` : '';
}

function fmt(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(2);
}

/** Median and spread of samples. */
export function summarize(samples: readonly number[]): { median: number; spread: Spread } {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  return { median, spread: { min: s[0] ?? 0, max: s[s.length - 1] ?? 0, samples: s.length } };
}
