import { loadavg } from 'node:os';

/** Several samples of one figure: the median is reported, min and max beside it. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function spread(values: readonly number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? 0, min: s[0] ?? 0, max: s[s.length - 1] ?? 0, n: s.length };
}

function fmt(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(2);
}

/** One line under a figure: the spread of its samples and of its baseline's, and the load. */
export function spreadLine(what: string, figure: Spread, baseline: Spread): string {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `    ${what}: median of ${figure.n} ${fmt(figure.median)} (min ${fmt(figure.min)}, max ${fmt(figure.max)}); baseline median of ${baseline.n} ${fmt(baseline.median)} (min ${fmt(baseline.min)}, max ${fmt(baseline.max)}); load average ${load}\n`;
}
