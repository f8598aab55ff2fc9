import type { LegSide, OddsRow, SelectionType } from '../../schemas/index.js';
import { layDecimalOf } from './lay.js';
import type { LineGroupState, LineSummary, RankedPrice } from './line-group.js';
import { WIDTH, selectionIndex } from './line-group.js';
import { decimalOf, round } from './state.js';

/**
 * One price for each outcome of a market (a book's back, or an exchange's lay of the other
 * outcome), with the sum of their implied probabilities.
 */
export interface Combo {
  rows: OddsRow[];
  decimals: number[];
  sides: LegSide[];
  impliedSum: number;
}

/** Never collect more combinations than this per line, whatever the feed sends. */
const HARD_LIMIT = 128;

function sameOutcomes(a: readonly SelectionType[], b: readonly SelectionType[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Every price the group offers, outcome by outcome, in one pass over its books (among `allowed`,
 * or all of them): each book's back of the outcome, and, in a two-way market, an exchange's lay
 * of the other outcome (laying A pays exactly when B wins). The one place that says what a
 * price of an outcome is; the sorted lists, the best prices and the line summary read it.
 */
function scanPrices(
  group: LineGroupState,
  outcomes: readonly SelectionType[],
  allowed: ReadonlySet<string> | null,
  lays: boolean,
  visit: (outcome: number, row: OddsRow, d: number, side: LegSide) => void,
): void {
  const n = outcomes.length;
  const twoWay = lays && n === 2;
  const { books, rows } = group;
  for (let slot = 0; slot < books.length; slot++) {
    if (allowed !== null && !allowed.has(books[slot] as string)) continue;
    const base = slot * WIDTH;
    for (let i = 0; i < n; i++) {
      const row = rows[base + selectionIndex(outcomes[i] as SelectionType)];
      if (row == null) continue;
      visit(i, row, decimalOf(row), 'back');
      if (!twoWay || row.exchange == null) continue;
      const lay = layDecimalOf(row);
      if (lay !== null) visit(1 - i, row, lay, 'lay');
    }
  }
}

/** Price order: the higher decimal first, then the book id, then a back before a lay (a total order, so results are stable). */
function compareRanked(a: RankedPrice, b: RankedPrice): number {
  return b.d - a.d || (a.row.book < b.row.book ? -1 : a.row.book > b.row.book ? 1 : 0) || sideOrder(a.side) - sideOrder(b.side);
}

function sideOrder(side: LegSide): number {
  return side === 'back' ? 0 : 1;
}

/** `compareRanked(price, top) < 0` without building the price first (the summary scan is a hot one). */
function ranksAbove(row: OddsRow, d: number, side: LegSide, top: RankedPrice): boolean {
  if (d !== top.d) return d > top.d;
  if (row.book !== top.row.book) return row.book < top.row.book;
  return sideOrder(side) < sideOrder(top.side);
}

/**
 * Per outcome, every price, best first; null when an outcome has no price. Built once per
 * version of the line group, then shared by arbitrage and every low-hold scope.
 */
function priceLists(group: LineGroupState, outcomes: readonly SelectionType[]): RankedPrice[][] | null {
  const cached = group.priceLists;
  if (cached !== null && cached.version === group.version && sameOutcomes(cached.outcomes, outcomes)) return cached.lists;
  const all: RankedPrice[][] = outcomes.map(() => []);
  scanPrices(group, outcomes, null, true, (i, row, d, side) => all[i]?.push({ row, d, implied: 1 / d, side }));
  const lists = all.some((list) => list.length === 0) ? null : all;
  if (lists) for (const list of lists) list.sort(compareRanked);
  group.priceLists = { version: group.version, outcomes, lists };
  return lists;
}

/**
 * Per outcome, the first price of its sorted list among the allowed books (lays included or
 * not), found by one scan (null when an outcome has none), and how many books back it.
 */
function topPrices(
  group: LineGroupState,
  outcomes: readonly SelectionType[],
  allowed: ReadonlySet<string> | null,
  lays: boolean,
): { best: RankedPrice[] | null; bookCounts: number[] } {
  const tops: (RankedPrice | null)[] = outcomes.map(() => null);
  const bookCounts: number[] = outcomes.map(() => 0);
  scanPrices(group, outcomes, allowed, lays, (i, row, d, side) => {
    if (side === 'back') bookCounts[i] = (bookCounts[i] as number) + 1;
    const top = tops[i] ?? null;
    if (top === null || ranksAbove(row, d, side, top)) tops[i] = { row, d, implied: 1 / d, side };
  });
  const best = tops.every((t) => t !== null) ? (tops as RankedPrice[]) : null;
  return { best, bookCounts };
}

function within(lists: RankedPrice[][], allowed: ReadonlySet<string> | null, lays: boolean): RankedPrice[][] | null {
  if (allowed === null && lays) return lists;
  const out: RankedPrice[][] = [];
  for (const list of lists) {
    const kept = list.filter((c) => (allowed === null || allowed.has(c.row.book)) && (lays || c.side === 'back'));
    if (kept.length === 0) return null;
    out.push(kept);
  }
  return out;
}

export interface ComboSearch {
  /** Largest sum of implied probabilities (strictly less when `strict`). */
  maxSum: number;
  strict: boolean;
  limit: number;
  accept?: (rows: readonly OddsRow[]) => boolean;
  /** Only these books; null for every book. */
  allowed?: ReadonlySet<string> | null;
  /** Whether an exchange's lay may stand for the other outcome of a two-way market (arbitrage); backs only otherwise. */
  lays?: boolean;
}

/**
 * Every combination of one price per outcome whose implied probabilities stay under the bound,
 * best (lowest sum) first, at most `limit`. Prices are visited best first, so a branch stops as
 * soon as even the best remaining prices cannot stay under the bound. The single best
 * combination without a constraint is simply the best price of each outcome.
 */
export function combosUnder(group: LineGroupState, outcomes: readonly SelectionType[], search: ComboSearch): Combo[] {
  const { maxSum, strict, limit } = search;
  const allowed = search.allowed ?? null;
  const lays = search.lays ?? false;
  const ok = (sum: number): boolean => (strict ? sum < maxSum : sum <= maxSum + 1e-12);
  // The best price per outcome needs no sorted lists; most lines hold no arbitrage at all, and
  // then the search below would stop at its very first step, on this same sum.
  const best = bestPrices(group, outcomes, allowed, lays);
  if (!best) return [];
  if (limit === 1 && !search.accept && !reusesRow(best)) {
    const sum = best.reduce((acc, c) => acc + c.implied, 0);
    return ok(sum) ? [comboOf(best, sum)] : [];
  }
  const minRest: number[] = new Array<number>(best.length + 1).fill(0);
  for (let i = best.length - 1; i >= 0; i--) minRest[i] = (minRest[i + 1] ?? 0) + (best[i]?.implied ?? 0);
  if (!ok(0 + (best[0]?.implied ?? 0) + (minRest[1] ?? 0))) return [];
  const all = priceLists(group, outcomes);
  const lists = all && within(all, allowed, lays);
  if (!lists) return [];
  const accept = search.accept ?? ((): boolean => true);
  const found: (Combo & { books: string })[] = [];
  const picked: RankedPrice[] = [];
  const visit = (depth: number, sum: number): void => {
    if (found.length >= HARD_LIMIT) return;
    const list = lists[depth];
    if (!list) {
      const combo = comboOf(picked, sum);
      if (!reusesRow(picked) && accept(combo.rows)) {
        found.push({ ...combo, books: booksKey(combo) });
      }
      return;
    }
    for (const c of list) {
      const next = sum + c.implied;
      if (!ok(next + (minRest[depth + 1] ?? 0))) break;
      picked.push(c);
      visit(depth + 1, next);
      picked.pop();
    }
  };
  visit(0, 0);
  found.sort((a, b) => a.impliedSum - b.impliedSum || (a.books < b.books ? -1 : a.books > b.books ? 1 : 0));
  return found.slice(0, limit).map(({ books: _books, ...combo }) => combo);
}

/** What orders combinations of the same implied sum: their books in leg order, a lay marked. */
function booksKey(combo: Pick<Combo, 'rows' | 'sides'>): string {
  return combo.rows.map((r, i) => (combo.sides[i] === 'lay' ? `${r.book}~lay` : r.book)).join(',');
}

/** Best first: the lower implied sum, then the books (the order `combosUnder` returns). */
export function comboOrder(a: Combo, b: Combo): number {
  if (a.impliedSum !== b.impliedSum) return a.impliedSum - b.impliedSum;
  const ka = booksKey(a);
  const kb = booksKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function comboOf(prices: readonly RankedPrice[], impliedSum: number): Combo {
  return { rows: prices.map((c) => c.row), decimals: prices.map((c) => c.d), sides: prices.map((c) => c.side), impliedSum };
}

/** Whether a combination lays on an exchange. */
export function hasLay(combo: Combo): boolean {
  return combo.sides.includes('lay');
}

/**
 * Per outcome, the first price of its sorted list among the allowed books. Over every book it
 * comes from the line's summary (which counts lays), unless lays are not wanted and one of its
 * best prices is a lay.
 */
function bestPrices(
  group: LineGroupState,
  outcomes: readonly SelectionType[],
  allowed: ReadonlySet<string> | null,
  lays: boolean,
): RankedPrice[] | null {
  if (allowed === null) {
    const best = lineSummary(group, outcomes).best;
    if (lays || best === null || best.every((c) => c.side === 'back')) return best;
  }
  return topPrices(group, outcomes, allowed, lays).best;
}

/** One scan of the group's books for every outcome at once, kept for the group's version: +EV, arbitrage and low-hold all read it. */
export function lineSummary(group: LineGroupState, outcomes: readonly SelectionType[]): LineSummary {
  const cached = group.summary;
  if (cached !== null && cached.version === group.version && sameOutcomes(cached.outcomes, outcomes)) return cached;
  const { best, bookCounts } = topPrices(group, outcomes, null, true);
  let arbProfit: number | null = null;
  if (best !== null) {
    // arbitrage(best decimals): the implied probabilities summed in order from 0.
    let sum = 0;
    for (const c of best) sum += c.implied;
    if (sum < 1) arbProfit = round((1 / sum - 1) * 100, 4);
  }
  const summary: LineSummary = { version: group.version, outcomes, best, bookCounts, arbProfit };
  group.summary = summary;
  return summary;
}

/** Whether a combination uses one row twice: an exchange's back of a runner with its own lay, which is no market at all. */
function reusesRow(prices: readonly RankedPrice[]): boolean {
  for (let i = 1; i < prices.length; i++) for (let j = 0; j < i; j++) if (prices[i]?.row === prices[j]?.row) return true;
  return false;
}

export function distinctBooks(rows: readonly OddsRow[]): number {
  return new Set(rows.map((r) => r.book)).size;
}
