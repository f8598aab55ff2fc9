import type { ProfitPoint } from './profit-curve.js';

const W = 720;
const H = 260;
const PAD = { l: 60, r: 12, t: 12, b: 28 };
const PROFIT_COLOR = '#1f77b4';
const EXPECTED_COLOR = '#d62728';

/**
 * Cumulative profit and cumulative expected profit, one step per bet. Bets, not time, on the
 * x axis: bets bunch on game days and a time axis would squeeze them into vertical strokes.
 * Plain SVG like the line chart: no chart library.
 */
export function ProfitChart({ points }: { points: readonly ProfitPoint[] }) {
  if (points.length === 0) return <p data-testid="profit-chart-empty">No graded bets yet: the chart starts when a bet's event starts.</p>;
  const values = [0, ...points.flatMap((p) => [p.profit, p.expected])];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1) {
    lo -= 0.5;
    hi += 0.5;
  }
  const x = (i: number): number => PAD.l + (i / points.length) * (W - PAD.l - PAD.r);
  const y = (v: number): number => PAD.t + (1 - (v - lo) / (hi - lo)) * (H - PAD.t - PAD.b);
  // From zero before the first bet, then a step per bet.
  const path = (of: (p: ProfitPoint) => number): string =>
    `M${x(0).toFixed(1)},${y(0).toFixed(1)}` + points.map((p, i) => `L${x(i + 1).toFixed(1)},${y(of(p)).toFixed(1)}`).join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => lo + f * (hi - lo));
  const last = points[points.length - 1] as ProfitPoint;
  return (
    <figure class="chart" data-testid="profit-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Cumulative profit ${last.profit.toFixed(2)} against cumulative expected profit ${last.expected.toFixed(2)} over ${points.length} bets`}
        preserveAspectRatio="none"
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} class="grid" />
            <text x={PAD.l - 6} y={y(v) + 4} text-anchor="end" class="axis">
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        <line x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} class="zero" />
        <text x={PAD.l} y={H - 8} class="axis">
          bet 1
        </text>
        <text x={W - PAD.r} y={H - 8} text-anchor="end" class="axis">
          bet {points.length}
        </text>
        <path d={path((p) => p.profit)} stroke={PROFIT_COLOR} fill="none" stroke-width="2" data-line="profit" />
        <path
          d={path((p) => p.expected)}
          stroke={EXPECTED_COLOR}
          fill="none"
          stroke-width="2"
          stroke-dasharray="6 4"
          data-line="expected"
        />
      </svg>
      <figcaption>
        <span class="legend">
          <span class="swatch" style={{ background: PROFIT_COLOR }} aria-hidden="true" />
          Profit <span data-testid="curve-profit">{last.profit.toFixed(2)}</span>
        </span>
        <span class="legend">
          <span class="swatch" style={{ background: EXPECTED_COLOR }} aria-hidden="true" />
          Expected from CLV <span data-testid="curve-expected">{last.expected.toFixed(2)}</span>
        </span>
      </figcaption>
    </figure>
  );
}
