import type { BacktestRow, RoiEstimate } from './backtest.js';

/** The backtest table as fixed-width text, one line per method and threshold. */
export function formatBacktestTable(rows: readonly BacktestRow[]): string {
  const header = ['method', 'EV >', 'bets', 'avg CLV %', 'beat close', 'flat ROI % [95% CI]', 'Kelly ROI % [95% CI]'];
  const lines = rows.map((r) => [
    r.method,
    `${r.threshold}%`,
    String(r.bets),
    r.averageClvPercent === null ? '-' : r.averageClvPercent.toFixed(2),
    r.beatCloseShare === null ? '-' : `${(r.beatCloseShare * 100).toFixed(1)}%`,
    roiText(r.flat),
    roiText(r.kelly),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [render(header), ...lines.map(render)].join('\n');
}

function roiText(e: RoiEstimate): string {
  if (e.roiPercent === null) return '-';
  const interval = e.interval === null ? '' : ` [${e.interval[0].toFixed(1)}, ${e.interval[1].toFixed(1)}]`;
  return `${e.roiPercent.toFixed(2)}${interval}`;
}
