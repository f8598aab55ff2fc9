import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { BenchFigure } from './report.js';

/**
 * `make bench-check`: compares the figures of a run (written by `make bench` with BENCH_JSON)
 * with the stored baseline file. What is compared is each figure's ratio to its same-run
 * baseline (ours / bare server, delta / full reload, ...), not raw values: the ratio carries
 * across machines and load far better than req/s or ms do. A figure fails when its ratio is
 * worse than the stored one by more than the file's tolerance. `--write` stores the run as the
 * new baseline (after a deliberate change, on a quiet machine).
 */
interface Stored {
  ratio: number;
  better: 'higher' | 'lower';
}

interface BaselineFile {
  /** Allowed relative regression of a ratio (0.25: a 1.2x figure may drop to 0.9x). */
  tolerance: number;
  machine: string;
  figures: Record<string, Stored>;
}

export function betterOf(f: BenchFigure): 'higher' | 'lower' {
  if (f.target) return f.target.better;
  return /\/s$/.test(f.unit) ? 'higher' : 'lower';
}

function main(): void {
  const [resultsPath, baselinePath, flag] = process.argv.slice(2);
  if (!resultsPath || !baselinePath) throw new Error('usage: check.js results.json baseline.json [--write]');
  const figures = JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchFigure[];
  const ratios = new Map(
    figures.filter((f) => f.baseline.value > 0).map((f) => [f.name, { ratio: f.value / f.baseline.value, better: betterOf(f) }]),
  );
  if (flag === '--write') {
    const previous = existsSync(baselinePath) ? (JSON.parse(readFileSync(baselinePath, 'utf8')) as BaselineFile) : null;
    const file: BaselineFile = {
      tolerance: previous?.tolerance ?? 0.25,
      machine: previous?.machine ?? '',
      figures: { ...(previous?.figures ?? {}) },
    };
    for (const [name, r] of ratios) file.figures[name] = { ratio: Number(r.ratio.toFixed(4)), better: r.better };
    writeFileSync(baselinePath, `${JSON.stringify(file, null, 2)}\n`);
    process.stdout.write(`stored ${ratios.size} ratios in ${baselinePath}\n`);
    return;
  }
  const baseline = JSON.parse(readFileSync(baselinePath, 'utf8')) as BaselineFile;
  const tol = baseline.tolerance;
  let failed = 0;
  let compared = 0;
  for (const [name, stored] of Object.entries(baseline.figures)) {
    const now = ratios.get(name);
    if (!now) continue;
    compared++;
    const limit = stored.better === 'higher' ? stored.ratio * (1 - tol) : stored.ratio * (1 + tol);
    const ok = stored.better === 'higher' ? now.ratio >= limit : now.ratio <= limit;
    if (!ok) failed++;
    process.stdout.write(
      `${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(52)} ratio ${now.ratio.toFixed(3)} (stored ${stored.ratio.toFixed(3)}, ${stored.better === 'higher' ? 'at least' : 'at most'} ${limit.toFixed(3)})\n`,
    );
  }
  process.stdout.write(
    `${compared} figures compared with ${baselinePath} (tolerance ${Math.round(tol * 100)} % of the stored ratio), ${failed} regressed\n`,
  );
  if (compared === 0) throw new Error('no figure of the run is in the baseline file');
  if (failed > 0) process.exitCode = 1;
}

main();
