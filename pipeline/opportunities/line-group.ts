import type { LegSide, OddsRow, SelectionType } from '../../schemas/index.js';

/**
 * The shape of a line group (the rows at one canonical line of a family) and of what the
 * engines cache on it. Its own file so that the state that holds line groups (state.ts) and the
 * price scans that summarise them (combos.ts) both depend on it instead of on each other.
 */

/** The rows at one canonical line: book -> selection -> row. */
export type LineGroup = Map<string, Map<SelectionType, OddsRow>>;

/** The rows at one canonical line of a family, maintained in place. */
export interface LineGroupState {
  line: number | null;
  key: string;
  books: LineGroup;
  /** Bumped on every change of a row of the group: derived values cached per group compare it. */
  version: number;
  /** Its books by id, rebuilt only when a book joins or leaves. */
  sortedBooks: string[] | null;
  /** Best prices and book counts of the last version they were asked for (combos.ts). */
  summary: LineSummary | null;
}

/**
 * One book's price for one outcome, with its exact decimal and implied probability: a back of
 * the outcome (`row` prices it), or an exchange's lay of the other outcome of a two-way market
 * (`row` is the runner laid, `d` that lay as a back of it losing, net of commission).
 */
export interface RankedPrice {
  row: OddsRow;
  d: number;
  implied: number;
  side: LegSide;
}

/** What every engine reads of a line group over every book, computed once per version of the group. */
export interface LineSummary {
  version: number;
  outcomes: readonly SelectionType[];
  /** Per outcome its best price (as `bestPrices` in combos.ts), null when an outcome has none. */
  best: RankedPrice[] | null;
  /** Per outcome, how many books price it. */
  bookCounts: number[];
  /** Best-price arbitrage profit (rounded as published), null when there is none. */
  arbProfit: number | null;
}
