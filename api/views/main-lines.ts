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
