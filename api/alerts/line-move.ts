import { KEY_NUMBERS } from '../../schemas/index.js';
import type { KeyNumberMarket, KeyNumberQuery } from '../queries/index.js';
import type { BookLineMarket } from '../views/index.js';

/** The odds market a key-number market's main line is read from (`bookMainLine`). */
export const KEY_NUMBER_ODDS_MARKET: Readonly<Record<KeyNumberMarket, BookLineMarket>> = {
  spread: 'point_spread',
  total: 'total_points',
};

/**
 * The key numbers a line's move from `from` to `to` lands on, leaves or passes, ascending.
 * Spreads count on both sides of zero (a home line from -2.5 to -3.5 passes 3, so does one from
 * +2.5 to +3.5); totals as they are.
 */
export function keyNumbersCrossed(from: number, to: number, keys: readonly number[], market: KeyNumberMarket): number[] {
  if (from === to) return [];
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  const within = (x: number): boolean => x >= lo && x <= hi;
  return keys.filter((k) => within(k) || (market === 'spread' && within(-k))).sort((a, b) => a - b);
}

/** The key numbers a rule counts for one league and market: its own, else the league's primary ones, else none. */
export function ruleKeyNumbers(q: KeyNumberQuery, league: string, market: KeyNumberMarket): readonly number[] {
  if (market === 'spread') return q.spread ?? KEY_NUMBERS.get(league)?.spread.primary ?? [];
  return q.totals ?? KEY_NUMBERS.get(league)?.totals.primary ?? [];
}
