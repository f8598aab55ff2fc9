/**
 * The soak's chart as SVG text, pure: seven panels over the run's minutes (memory; open
 * descriptors; event-loop delay and stream lag p99; the store's active parts; the pipeline's
 * lag; the board's rows; its events), the warm-up
 * shaded, and the fitted lines the memory verdict judged drawn dashed.
 */
import { leastSquares } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';

interface Series {
  name: string;
  color: string;
  pick: (s: SoakSample) => number;
  /** Draw the least-squares line of the post-warm-up points too. */
  fitted?: boolean;
}

interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const MB = 1e6;
const PANELS: Panel[] = [
  {
    title: 'Memory',
    unit: 'MB',
    series: [
      { name: 'RSS', color: '#1f77b4', pick: (s) => s.rssBytes / MB, fitted: true },
      { name: 'heap used', color: '#ff7f0e', pick: (s) => s.heapUsedBytes / MB },
      { name: 'heap after major GC', color: '#d62728', pick: (s) => s.heapAfterGcBytes / MB, fitted: true },
      { name: 'external', color: '#2ca02c', pick: (s) => s.externalBytes / MB },
    ],
  },
  {
    title: 'Open file descriptors, and threads',
    unit: '',
    series: [
      { name: 'descriptors', color: '#9467bd', pick: (s) => s.fds },
      { name: 'of which per-thread /proc files', color: '#bcbd22', pick: (s) => s.threadFds },
      { name: 'threads', color: '#7f7f7f', pick: (s) => s.threads },
    ],
  },
  {
    title: 'Latency p99 per 10 s',
    unit: 'ms',
    series: [
      { name: 'event-loop delay', color: '#8c564b', pick: (s) => s.eventLoopP99Ms },
      { name: 'stream lag (tick to subscriber)', color: '#e377c2', pick: (s) => s.streamLagP99Ms },
    ],
  },
  { title: 'ClickHouse active parts', unit: '', series: [{ name: 'parts', color: '#17becf', pick: (s) => s.storeParts }] },
  {
    title: 'Pipeline lag (records not yet committed, all stages)',
    unit: '',
    series: [{ name: 'lag', color: '#7f7f7f', pick: (s) => s.pipelineLag }],
  },
  // Rows and events apart: on one scale the events (hundreds) would lie flat under the rows (tens of thousands).
  {
    title: 'The board: rows, and rows taken in since start',
    unit: '',
    series: [
      { name: 'rows (odds_board_rows)', color: '#1f77b4', pick: (s) => s.boardRows },
      { name: 'taken in (odds_board_rows_taken_in)', color: '#2ca02c', pick: (s) => s.boardRowsTakenIn },
    ],
  },
  { title: 'The board: events (odds_board_events)', unit: '', series: [{ name: 'events', color: '#ff7f0e', pick: (s) => s.boardEvents }] },
];

const WIDTH = 900;
const PANEL_HEIGHT = 170;
const LEFT = 70;
const RIGHT = 20;
const TOP = 50;
const GAP = 45;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (x: number): string => (Math.abs(x) >= 100 ? Math.round(x).toString() : x.toFixed(1));

/**
 * `warmup.windows` is shaded in every panel; the memory panel is shaded on to `warmup.memory`,
 * when its maps had settled (`keyTablesSettledAt`), and its fitted lines start there (none when
 * memory was not judged).
 */
export function soakChart(samples: readonly SoakSample[], warmup: { windows: number; memory: number | null }, title: string): string {
  const tMax = Math.max(60, ...samples.map((s) => s.t));
  const plotW = WIDTH - LEFT - RIGHT;
  const x = (t: number): number => LEFT + (t / tMax) * plotW;
  const height = TOP + PANELS.length * (PANEL_HEIGHT + GAP);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${LEFT}" y="22" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  PANELS.forEach((panel, i) => {
    const top = TOP + i * (PANEL_HEIGHT + GAP);
    const values = panel.series.flatMap((s) => samples.map(s.pick)).filter((v) => Number.isFinite(v));
    const hi = Math.max(1, ...values) * 1.05;
    const lo = Math.min(0, ...values);
    const y = (v: number): number => top + PANEL_HEIGHT - ((v - lo) / (hi - lo)) * PANEL_HEIGHT;
    const fittedFrom = panel.series.some((s) => s.fitted) ? warmup.memory : warmup.windows;
    const warmupSeconds = fittedFrom ?? tMax;
    out.push(
      `<rect x="${LEFT}" y="${top}" width="${(x(Math.min(warmupSeconds, tMax)) - LEFT).toFixed(1)}" height="${PANEL_HEIGHT}" fill="#eeeeee"/>`,
      `<rect x="${LEFT}" y="${top}" width="${plotW}" height="${PANEL_HEIGHT}" fill="none" stroke="#888"/>`,
      `<text x="${LEFT}" y="${top - 8}" font-weight="bold">${esc(panel.title)}${panel.unit ? ` (${panel.unit})` : ''}</text>`,
      `<text x="${LEFT - 6}" y="${top + 10}" text-anchor="end">${num(hi)}</text>`,
      `<text x="${LEFT - 6}" y="${top + PANEL_HEIGHT}" text-anchor="end">${num(lo)}</text>`,
      `<text x="${LEFT}" y="${top + PANEL_HEIGHT + 14}">0</text>`,
      `<text x="${LEFT + plotW}" y="${top + PANEL_HEIGHT + 14}" text-anchor="end">${(tMax / 60).toFixed(1)} min</text>`,
    );
    let legendX = LEFT + Math.max(180, (panel.title.length + panel.unit.length + 3) * 6.5 + 20);
    for (const s of panel.series) {
      const points = samples.filter((p) => Number.isFinite(s.pick(p))).map((p) => `${x(p.t).toFixed(1)},${y(s.pick(p)).toFixed(1)}`);
      if (points.length > 0) out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${points.join(' ')}"/>`);
      if (s.fitted && fittedFrom !== null) {
        const after = samples.filter((p) => p.t >= warmupSeconds && Number.isFinite(s.pick(p)));
        if (after.length >= 2) {
          const line = leastSquares(after.map((p) => [p.t, s.pick(p)] as const));
          const t0 = warmupSeconds;
          out.push(
            `<line x1="${x(t0).toFixed(1)}" y1="${y(line.intercept + line.slope * t0).toFixed(1)}" x2="${x(tMax).toFixed(1)}" y2="${y(line.intercept + line.slope * tMax).toFixed(1)}" stroke="${s.color}" stroke-dasharray="5,4"/>`,
          );
        }
      }
      out.push(
        `<rect x="${legendX}" y="${top - 17}" width="10" height="10" fill="${s.color}"/>`,
        `<text x="${legendX + 14}" y="${top - 8}">${esc(s.name)}</text>`,
      );
      legendX += 24 + s.name.length * 6.2;
    }
  });
  out.push(
    `<text x="${WIDTH - RIGHT}" y="22" text-anchor="end" fill="#555">grey: warm-up (not judged); dashed: least-squares lines the verdict uses</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
