import type { OddsRow } from '../../schemas/index.js';
import { canonicalLine, familyKey } from '../../pipeline/opportunities/index.js';

/**
 * The main (consensus) line of every outcome family of one event: per (market, participant,
 * stat, selection family), the line the most sportsbooks quote, read from the home side for
 * handicaps (home -2.5 and away +2.5 are one line); ties go to the lower line. Every other line
 * of the family is an alternate. Markets without a line have only a main line. The family and
 * its line axis are the opportunity engines' own (`familyKey`, `canonicalLine`), so the boards'
 * main lines and the engines' market groups cannot disagree.
 */
export type MainLines = ReadonlyMap<string, number>;

export function mainLinesOf(rows: readonly OddsRow[]): MainLines {
  const books = new Map<string, Map<number, Set<string>>>();
  for (const r of rows) {
    const line = canonicalLine(r);
    if (line === null) continue;
    const key = familyKey(r);
    let lines = books.get(key);
    if (!lines) books.set(key, (lines = new Map()));
    let set = lines.get(line);
    if (!set) lines.set(line, (set = new Set()));
    set.add(r.book);
  }
  const main = new Map<string, number>();
  for (const [key, lines] of books) {
    let best: number | null = null;
    let most = 0;
    for (const [line, set] of lines) {
      if (set.size > most || (set.size === most && best !== null && line < best)) {
        best = line;
        most = set.size;
      }
    }
    if (best !== null) main.set(key, best);
  }
  return main;
}

/** Whether the row is at its family's main line (always, for markets without a line). */
export function isMainLine(main: MainLines, r: Pick<OddsRow, 'market' | 'participant' | 'statCategory' | 'selection' | 'line'>): boolean {
  const line = canonicalLine(r);
  if (line === null) return true;
  const m = main.get(familyKey(r));
  return m === undefined || m === line;
}

/** The full-game markets a single book's own main line is read for (key-number alerts, sharp moves). */
export type BookLineMarket = 'point_spread' | 'total_points';

/**
 * One book's own main line of a game's spread or total, from that book's rows of the event (the
 * consensus above counts books; this is the number one book posts): of the lines the book offers
 * both ways, both sides open, the one whose two sides' implied probabilities are closest (the
 * others are its alternates); ties go to the lower line. Spreads are read on the home handicap
 * (home -3 and away +3 are one line, -3).
 *
 * A line priced on one side only does not count, and a book with no two-way line has no main
 * line (null): a lone side is a half-applied update or a suspended counterpart, and a number
 * read from it would move and move back as the other side comes and goes. Comparing the two
 * sides also leaves the book's margin out, which a single price nearest even money would not.
 */
export function bookMainLine(rows: Iterable<OddsRow>, market: BookLineMarket): number | null {
  const sides = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const line = canonicalLine(r);
    if (r.market !== market || line === null || r.participant !== null || r.statCategory !== null || !r.isActive) continue;
    let prices = sides.get(line);
    if (!prices) sides.set(line, (prices = new Map()));
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
