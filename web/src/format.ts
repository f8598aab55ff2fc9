export type OddsFormat = 'american' | 'decimal' | 'probability';

export interface Price {
  odds_american: number;
  odds_decimal: number;
  probability: number;
}

export function formatPrice(p: Price, format: OddsFormat): string {
  if (format === 'decimal') return p.odds_decimal.toFixed(2);
  if (format === 'probability') return `${(p.probability * 100).toFixed(1)}%`;
  return p.odds_american > 0 ? `+${p.odds_american}` : String(p.odds_american);
}

export function formatAmerican(american: number | null | undefined): string {
  if (american === null || american === undefined) return '–';
  return american > 0 ? `+${american}` : String(american);
}

export function formatTime(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}

export function formatLine(line: unknown, market?: unknown): string {
  if (typeof line !== 'number') return '';
  const signed = market === 'point_spread' || market === 'spread' || market === 'run_line' || market === 'puck_line';
  return signed && line > 0 ? `+${line}` : String(line);
}

export const pct = (x: unknown, digits = 2): string => (typeof x === 'number' ? `${x.toFixed(digits)}%` : '–');
