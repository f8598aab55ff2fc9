import type { LegSide, OddsRow, OpportunityPrice, SelectionType } from '../../schemas/index.js';
import type { DevigMethod } from '../odds-math/index.js';

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
  /** +EV's reference markets by book (ev.ts), created on first use. */
  references: Map<string, CachedReference> | null;
}

/** A reference book's complete market at the line, de-vigged by every method. */
export interface Reference {
  book: string;
  rows: OddsRow[];
  /** Method -> fair probability per outcome (in the order of the context's outcomes). */
  fair: Record<DevigMethod, number[]>;
  /**
   * Its rows as an opportunity's `references`, built on first use and shared by every +EV price
   * measured against this reference while its rows stay the same (nothing mutates a price once
   * built): rebuilt opportunities then add no copies of them to the heap.
   */
  prices: OpportunityPrice[] | null;
}

/** What a book's reference was computed from: the rows seen per outcome (identity), and the result. */
export interface CachedReference {
  outcomes: readonly SelectionType[];
  rows: (OddsRow | undefined)[];
  reference: Reference | null;
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
