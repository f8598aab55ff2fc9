import type { OddsRow } from '../../schemas/index.js';

/** Board order of two rows of one event (board.ts defines it; passed in to keep this file free of a cycle). */
export type RowOrder = (a: OddsRow, b: OddsRow) => number;

interface MarketSpan {
  start: number;
  end: number;
  /** Positions (into `keys`) of each book's rows of the market, ascending. */
  byBook: Map<string, number[]>;
}

/**
 * One event's rows in board order, indexed by market and book. Market is the first key of the
 * board order, so a market's rows are one contiguous span; a book's rows of a market are a sorted
 * list of positions. A page filtered by books and markets merges those lists and visits only the
 * rows it serves. Built from the row keys, so a price change (same key) keeps it; a key that
 * comes or goes makes the board build a new one on the next read.
 */
export class EventRows {
  readonly keys: string[];
  private readonly spans = new Map<string, MarketSpan>();
  private readonly marketOrder: string[] = [];

  constructor(rows: ReadonlyMap<string, OddsRow>, order: RowOrder) {
    const entries = [...rows.entries()].sort((a, b) => order(a[1], b[1]));
    this.keys = entries.map(([k]) => k);
    entries.forEach(([, r], i) => {
      let span = this.spans.get(r.market);
      if (!span) {
        span = { start: i, end: i, byBook: new Map() };
        this.spans.set(r.market, span);
        this.marketOrder.push(r.market);
      }
      span.end = i + 1;
      let list = span.byBook.get(r.book);
      if (!list) span.byBook.set(r.book, (list = []));
      list.push(i);
    });
  }

  /**
   * Positions of the rows of one of `books` in one of `markets` (all when a set is absent), in
   * board order. Cost: the positions returned, plus a merge step per book.
   */
  *positions(books?: ReadonlySet<string>, markets?: ReadonlySet<string>): Generator<number> {
    for (const market of this.marketOrder) {
      if (markets && !markets.has(market)) continue;
      const span = this.spans.get(market) as MarketSpan;
      if (!books) {
        for (let i = span.start; i < span.end; i++) yield i;
        continue;
      }
      const lists: number[][] = [];
      for (const book of books) {
        const list = span.byBook.get(book);
        if (list) lists.push(list);
      }
      if (lists.length === 1) {
        yield* lists[0] as number[];
        continue;
      }
      // k-way merge of ascending position lists; k is the number of books asked for (small).
      const at = lists.map(() => 0);
      for (;;) {
        let best = -1;
        let bestPos = Infinity;
        for (let j = 0; j < lists.length; j++) {
          const p = (lists[j] as number[])[at[j] as number];
          if (p !== undefined && p < bestPos) {
            bestPos = p;
            best = j;
          }
        }
        if (best < 0) break;
        at[best] = (at[best] as number) + 1;
        yield bestPos;
      }
    }
  }
}
