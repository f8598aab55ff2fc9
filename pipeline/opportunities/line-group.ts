import type { LegSide, OddsRow, OpportunityPrice, SelectionType } from '../../schemas/index.js';
import type { DevigMethod } from '../odds-math/index.js';

/**
 * The shape of a line group (the rows at one canonical line of a family), its row layout, and
 * what the engines cache on it. Its own file so that the state that holds line groups (state.ts) and the
 * price scans that summarise them (combos.ts) both depend on it instead of on each other.
 */

/**
 * The rows at one canonical line of a family, maintained in place. Flat: each book has a slot
 * (`slots`), and its rows sit at `rows[slot * WIDTH + selectionIndex(selection)]`, so the scans
 * every engine runs per recompute are loops over one array instead of a map lookup per book and
 * per outcome (those lookups were the hottest lines of the engines' profile).
 */
export interface LineGroupState {
  line: number | null;
  key: string;
  /** The book of each slot, in the order books joined (the order a `Map` by book would iterate in). */
  books: string[];
  /** Each book's slot. */
  slots: Map<string, number>;
  /** Per slot, WIDTH entries: the book's row of each selection, null where it has none. */
  rows: (OddsRow | null)[];
  /** Per slot, how many rows the book has at the line. */
  sizes: number[];
  /** Bumped on every change of a row of the group: derived values cached per group compare it. */
  version: number;
  /** Its books by id, rebuilt only when a book joins or leaves. */
  sortedBooks: string[] | null;
  /** The slots of `sortedBooks`, in that order. */
  sortedSlots: number[] | null;
  /**
   * Best prices and book counts of the current version, once asked for (combos.ts). Dropped by
   * every change of a row, like `priceLists`: kept past its version it held rows the board had
   * let go of.
   */
  summary: LineSummary | null;
  /**
   * Every price per outcome, best first, of the current version, once asked for (combos.ts).
   * Dropped by every change of a row: a line asks for it only while it might hold a combination
   * (most never do), so a list kept until the next asking held the rows of whatever version last
   * asked, long after the board dropped them (docs/soak.md, round eight).
   */
  priceLists: PriceLists | null;
  /** +EV's reference markets by book (ev.ts), created on first use. */
  references: Map<string, CachedReference> | null;
}

/** Entries per book slot: a family prices at most three selections (home, draw, away). */
export const WIDTH = 3;

/** A selection's place within its book's slot; the selections of one family never share one. */
export function selectionIndex(selection: SelectionType): number {
  switch (selection) {
    case 'home':
    case 'over':
    case 'yes':
      return 0;
    case 'away':
    case 'under':
    case 'no':
      return 1;
    case 'draw':
      return 2;
  }
}

export function newLineGroup(line: number | null, key: string): LineGroupState {
  return {
    line,
    key,
    books: [],
    slots: new Map(),
    rows: [],
    sizes: [],
    version: 0,
    sortedBooks: null,
    sortedSlots: null,
    summary: null,
    priceLists: null,
    references: null,
  };
}

/** The book's row of the selection at the line, if any. */
export function rowAt(group: LineGroupState, book: string, selection: SelectionType): OddsRow | null {
  const slot = group.slots.get(book);
  return slot === undefined ? null : (group.rows[slot * WIDTH + selectionIndex(selection)] ?? null);
}

/** Puts a row in its book's slot (a new book takes the next slot), replacing the book's row of that selection. */
export function putRow(group: LineGroupState, row: OddsRow): void {
  let slot = group.slots.get(row.book);
  if (slot === undefined) {
    slot = group.books.length;
    group.books.push(row.book);
    group.slots.set(row.book, slot);
    for (let i = 0; i < WIDTH; i++) group.rows.push(null);
    group.sizes.push(0);
    group.sortedBooks = null;
    group.sortedSlots = null;
  }
  const at = slot * WIDTH + selectionIndex(row.selection);
  if (group.rows[at] == null) group.sizes[slot] = (group.sizes[slot] as number) + 1;
  group.rows[at] = row;
  changed(group);
}

/** A row of the group changed: the next version begins and what was derived from the last one goes. */
function changed(group: LineGroupState): void {
  group.version++;
  group.summary = null;
  group.priceLists = null;
}

/**
 * Takes the book's row of the row's selection out. A book left with no row gives up its slot and
 * the later books move down one, keeping the join order (rare: a book pulls its whole market).
 */
export function takeRow(group: LineGroupState, row: OddsRow): void {
  const slot = group.slots.get(row.book);
  if (slot === undefined) return;
  const at = slot * WIDTH + selectionIndex(row.selection);
  if (group.rows[at] == null) return;
  group.rows[at] = null;
  changed(group);
  const left = (group.sizes[slot] as number) - 1;
  group.sizes[slot] = left;
  if (left > 0) return;
  group.books.splice(slot, 1);
  group.rows.splice(slot * WIDTH, WIDTH);
  group.sizes.splice(slot, 1);
  group.slots.delete(row.book);
  for (let s = slot; s < group.books.length; s++) group.slots.set(group.books[s] as string, s);
  group.sortedBooks = null;
  group.sortedSlots = null;
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

/** A line group's prices per outcome, best first (null when an outcome has none), for one version and outcome list. */
export interface PriceLists {
  version: number;
  outcomes: readonly SelectionType[];
  lists: RankedPrice[][] | null;
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
