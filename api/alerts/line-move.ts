import { KEY_NUMBERS } from '../../schemas/index.js';
import type { OddsRow } from '../../schemas/index.js';
import type { KeyNumberMarket, KeyNumberQuery } from '../queries/index.js';

/** The odds market a key-number market's main line is read from. */
export const KEY_NUMBER_ODDS_MARKET: Readonly<Record<KeyNumberMarket, OddsRow['market']>> = {
  spread: 'point_spread',
  total: 'total_points',
};

/**
 * One book's main line of a game's spread or total, from the book's rows of the event: of the
 * lines it prices both sides of, the one whose two sides are closest to even (the line a book
 * posts as its number; the others are alternates), ties to the lower line. Spreads are read on
 * the home side's handicap (home -3 and away +3 are one line, -3). Null when no line has both
 * sides open.
 */
export function bookMainLine(rows: readonly OddsRow[], market: KeyNumberMarket): number | null {
  const odds = KEY_NUMBER_ODDS_MARKET[market];
  const sides = new Map<number, Map<string, number>>();
  for (const r of rows) {
    if (r.market !== odds || r.line === null || r.participant !== null || r.statCategory !== null || !r.isActive) continue;
    const axis = r.selection === 'away' ? -r.line : r.line;
    let prices = sides.get(axis);
    if (!prices) sides.set(axis, (prices = new Map()));
    prices.set(r.selection, 1 / r.priceDecimal);
  }
  let best: number | null = null;
  let bestGap = Infinity;
  for (const [line, prices] of sides) {
    if (prices.size !== 2) continue;
    const [a, b] = [...prices.values()] as [number, number];
    const gap = Math.abs(a - b);
    if (gap < bestGap || (gap === bestGap && best !== null && line < best)) {
      best = line;
      bestGap = gap;
    }
  }
  return best;
}

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
