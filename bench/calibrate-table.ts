import { COMPARED_MARKETS, PHASES } from './market-stats.js';
import type { Phase, PhaseStats } from './market-stats.js';

/** The side-by-side table of `make calibrate`: each statistic of the simulator's runs beside the recordings', with the target. */

export interface Statistic {
  name: string;
  unit: string;
  value: (s: PhaseStats) => number | null;
  /** Shown beside the others to explain them, not judged against a target. */
  diagnostic?: boolean;
}

export const STATISTICS: readonly Statistic[] = [
  { name: 'arbitrage rate', unit: '% of markets', value: (s) => s.arbitrageRate },
  { name: 'arbitrage profit p50', unit: '%', value: (s) => s.arbitrageProfitP50 },
  { name: 'arbitrage profit p90', unit: '%', value: (s) => s.arbitrageProfitP90 },
  { name: 'arbitrage run p50', unit: 'min', value: (s) => s.arbitrageRunP50Minutes, diagnostic: true },
  { name: 'arbitrage run, longest', unit: 'min', value: (s) => s.arbitrageRunMaxMinutes, diagnostic: true },
  ...COMPARED_MARKETS.map((m) => ({ name: `hold p50 ${m}`, unit: '%', value: (s: PhaseStats) => s.holdP50[m] ?? null })),
  { name: '+EV rows (min_ev 2)', unit: 'per 100 mkts', value: (s) => s.evPer100Markets },
  { name: '+EV rows, pre-game reference', unit: 'per 100 mkts', value: (s) => s.pregameReferenceEvPer100, diagnostic: true },
  { name: 'stale share of +EV rows', unit: '%', value: (s) => s.staleShare },
  { name: 'stale share, floor included', unit: '%', value: (s) => s.staleShareWithFloor, diagnostic: true },
  { name: 'soft follows sharp p50', unit: 's', value: (s) => s.followP50 },
  { name: 'soft follows sharp p95', unit: 's', value: (s) => s.followP95 },
  { name: 'confirmation age p50', unit: 's', value: (s) => s.confirmationAgeP50 },
  { name: 'confirmation age p95', unit: 's', value: (s) => s.confirmationAgeP95 },
  { name: 'confirmation age over 5 min', unit: '% of prices', value: (s) => s.confirmationAgeOver5Min, diagnostic: true },
  { name: 'consensus ML move p50', unit: 'pts / 15 min', value: (s) => s.consensusMoveP50, diagnostic: true },
  { name: 'consensus ML move p90', unit: 'pts / 15 min', value: (s) => s.consensusMoveP90, diagnostic: true },
  { name: 'book off consensus ML p50', unit: 'pts', value: (s) => s.offConsensusP50['moneyline'] ?? null, diagnostic: true },
  ...COMPARED_MARKETS.map((m) => ({
    name: `off consensus p90 ${m}`,
    unit: 'pts',
    value: (s: PhaseStats) => s.offConsensusP90[m] ?? null,
    diagnostic: true,
  })),
];

/**
 * The range the simulator must fall in: within 2x of every recording that has the figure, or,
 * where the recordings are more than 4x apart, between them.
 */
export function targetRange(values: readonly (number | null)[]): [number, number] | null {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const lo = Math.max(...known) / 2;
  const hi = Math.min(...known) * 2;
  return lo <= hi ? [lo, hi] : [Math.min(...known), Math.max(...known)];
}

const fmt = (v: number | null): string => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A simulator column: its figures, and whether the target is judged on it. */
export interface SimColumn {
  name: string;
  stats: Record<Phase, PhaseStats>;
  judged: boolean;
}

export function table(sims: readonly SimColumn[], recorded: readonly { name: string; stats: Record<Phase, PhaseStats> | null }[]): string {
  const lines: string[] = [];
  const met = new Map<string, number>();
  let judged = 0;
  // The judged column is marked in the header and named above the table, so that no one reads "met" off another column.
  const header = [
    'statistic',
    'unit',
    ...sims.map((c) => (c.judged ? `${c.name} *` : c.name)),
    ...recorded.map((r) => r.name),
    'target',
    'met',
  ];
  const widths = [30, 13, ...sims.map(() => 13), ...recorded.map(() => 10), 15, 4];
  const row = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 10) : c.padStart(widths[i] ?? 10))).join(' ');
  const judgedNames = sims.filter((c) => c.judged).map((c) => c.name);
  const shown = sims.filter((c) => !c.judged).map((c) => c.name);
  lines.push(
    `met: judged on ${judgedNames.length > 0 ? judgedNames.join(', ') : 'no column'} (marked *)` +
      (shown.length > 0 ? `; ${shown.join(', ')} shown beside it, not judged` : ''),
    '',
  );
  for (const phase of PHASES) {
    lines.push(
      `${phase === 'live' ? 'Live' : 'Pre-match'} (markets sampled: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].markets ?? 'n/a'}`).join(', ')})`,
    );
    lines.push(row(header));
    for (const st of STATISTICS) {
      const values = recorded.map((r) => (r.stats === null ? null : st.value(r.stats[phase])));
      const range = st.diagnostic === true ? null : targetRange(values);
      const simValues = sims.map((c) => st.value(c.stats[phase]));
      let verdict = '';
      if (range !== null) {
        judged++;
        sims.forEach((c, i) => {
          const v = simValues[i] ?? null;
          const ok = v !== null && v >= range[0] && v <= range[1];
          if (ok) met.set(c.name, (met.get(c.name) ?? 0) + 1);
          if (c.judged) verdict = ok ? 'yes' : 'NO';
        });
      }
      lines.push(
        row([
          st.name,
          st.unit,
          ...simValues.map(fmt),
          ...values.map(fmt),
          range === null ? (st.diagnostic === true ? 'not judged' : 'n/a') : `${fmt(range[0])}-${fmt(range[1])}`,
          verdict,
        ]),
      );
    }
    lines.push(
      `  follows seen: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].follows ?? 0} of ${r.stats?.[phase].followChances ?? 0}`).join(', ')}`,
      `  markets with a reference priced ${phase === 'live' ? 'in play' : 'before the game'}: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].referencedMarkets ?? 0}`).join(', ')}`,
      `  arbitrage runs: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].arbitrageRuns ?? 0}`).join(', ')}`,
      `  consensus move pairs: ${[...sims, ...recorded].map((r) => `${r.name} ${r.stats?.[phase].consensusPairs ?? 0}`).join(', ')}`,
      '',
    );
  }
  for (const c of sims)
    lines.push(`${c.name}: ${met.get(c.name) ?? 0} of ${judged} statistics within the target${c.judged ? ' (judged)' : ''}`);
  return lines.join('\n');
}
