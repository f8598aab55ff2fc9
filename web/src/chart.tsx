export interface Series {
  book: string;
  /** The book's display name, for the legend (the id when absent). */
  name?: string;
  /** Epoch ms and implied probability; null marks a suspension (a gap in the line). */
  points: { t: number; p: number | null; label: string }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const W = 720;
const H = 260;
const PAD = { l: 52, r: 12, t: 12, b: 28 };

/**
 * A step chart of implied probability over time, one line per book: a price holds until the
 * next tick, so steps, not slopes. Probability is the axis because American odds jump from -100
 * to +100; the legend shows the last price in the screen's format. Plain SVG: no chart library.
 */
export function LineChart({ series, title }: { series: Series[]; title: string }) {
  const all = series.flatMap((s) => s.points);
  const ps = all.flatMap((x) => (x.p === null ? [] : [x.p]));
  if (all.length === 0 || ps.length === 0) return <p data-testid="chart-empty">No price history in this window.</p>;
  const t0 = Math.min(...all.map((x) => x.t));
  const t1 = Math.max(Date.now(), ...all.map((x) => x.t));
  let lo = Math.min(...ps);
  let hi = Math.max(...ps);
  if (hi - lo < 0.02) {
    lo -= 0.01;
    hi += 0.01;
  }
  const x = (t: number): number => PAD.l + ((t - t0) / Math.max(1, t1 - t0)) * (W - PAD.l - PAD.r);
  const y = (p: number): number => PAD.t + (1 - (p - lo) / (hi - lo)) * (H - PAD.t - PAD.b);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => lo + f * (hi - lo));
  const path = (s: Series): string => {
    let d = '';
    let prev: number | null = null;
    for (const pt of s.points) {
      if (pt.p === null) {
        prev = null;
        continue;
      }
      d += prev === null ? `M${x(pt.t).toFixed(1)},${y(pt.p).toFixed(1)}` : `H${x(pt.t).toFixed(1)}V${y(pt.p).toFixed(1)}`;
      prev = pt.p;
    }
    const last = s.points[s.points.length - 1];
    if (last && last.p !== null) d += `H${x(t1).toFixed(1)}`;
    return d;
  };
  return (
    <figure class="chart" data-testid="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} preserveAspectRatio="none">
        {ticks.map((p) => (
          <g key={p}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(p)} y2={y(p)} class="grid" />
            <text x={PAD.l - 6} y={y(p) + 4} text-anchor="end" class="axis">
              {(p * 100).toFixed(1)}%
            </text>
          </g>
        ))}
        <text x={PAD.l} y={H - 8} class="axis">
          {new Date(t0).toLocaleTimeString()}
        </text>
        <text x={W - PAD.r} y={H - 8} text-anchor="end" class="axis">
          {new Date(t1).toLocaleTimeString()}
        </text>
        {series.map((s, i) => (
          <path
            key={s.book}
            d={path(s)}
            stroke={COLORS[i % COLORS.length]}
            fill="none"
            stroke-width="2"
            data-book={s.book}
            data-points={s.points.length}
          />
        ))}
      </svg>
      <figcaption>
        {series.map((s, i) => (
          <span key={s.book} class="legend">
            <span class="swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />
            {s.name ?? s.book} {s.points[s.points.length - 1]?.label ?? ''}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
