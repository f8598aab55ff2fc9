/** One measured figure beside the baseline measured in the same run. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  baseline: { name: string; value: number };
}

export function formatFigures(title: string, figures: readonly BenchFigure[]): string {
  const rows = figures.map((f) => {
    const ratio = f.baseline.value === 0 ? 'n/a' : `${((f.value / f.baseline.value) * 100).toFixed(1)} %`;
    return `  ${f.name.padEnd(44)} ${fmt(f.value).padStart(12)} ${f.unit.padEnd(9)} | baseline ${f.baseline.name}: ${fmt(f.baseline.value)} ${f.unit} (${ratio} of baseline)`;
  });
  return [`${title}`, ...rows].join('\n');
}

function fmt(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(2);
}
