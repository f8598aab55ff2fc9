import type { OddsRow, SelectionType } from '../../schemas/index.js';
import type { LineGroupState, LineSummary, RankedPrice } from './line-group.js';
import { decimalOf, round } from './state.js';

/** One book's price for each outcome of a market, with the sum of their implied probabilities. */
export interface Combo {
  rows: OddsRow[];
  decimals: number[];
  impliedSum: number;
}

/** Never collect more combinations than this per line, whatever the feed sends. */
const HARD_LIMIT = 128;

interface CachedLists {
  version: number;
  outcomes: readonly SelectionType[];
  lists: RankedPrice[][] | null;
}

const LISTS = new WeakMap<LineGroupState, CachedLists>();

function sameOutcomes(a: readonly SelectionType[], b: readonly SelectionType[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Per outcome, every book's price, best first (book id breaks ties, so the order is stable);
 * null when an outcome has no price. Built once per version of the line group, then shared by
 * arbitrage and every low-hold scope.
 */
function priceLists(group: LineGroupState, outcomes: readonly SelectionType[]): RankedPrice[][] | null {
  const cached = LISTS.get(group);
  if (cached && cached.version === group.version && sameOutcomes(cached.outcomes, outcomes)) return cached.lists;
  let lists: RankedPrice[][] | null = [];
  for (const s of outcomes) {
    const list: RankedPrice[] = [];
    for (const bySelection of group.books.values()) {
      const row = bySelection.get(s);
      if (!row) continue;
      const d = decimalOf(row);
      list.push({ row, d, implied: 1 / d });
    }
    if (list.length === 0) {
      lists = null;
      break;
    }
    list.sort((a, b) => b.d - a.d || (a.row.book < b.row.book ? -1 : a.row.book > b.row.book ? 1 : 0));
    lists.push(list);
  }
  LISTS.set(group, { version: group.version, outcomes, lists });
  return lists;
}

function within(lists: RankedPrice[][], allowed: ReadonlySet<string> | null): RankedPrice[][] | null {
  if (allowed === null) return lists;
  const out: RankedPrice[][] = [];
  for (const list of lists) {
    const kept = list.filter((c) => allowed.has(c.row.book));
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
  const ok = (sum: number): boolean => (strict ? sum < maxSum : sum <= maxSum + 1e-12);
  // The best price per outcome needs no sorted lists; most lines hold no arbitrage at all, and
  // then the search below would stop at its very first step, on this same sum.
  const best = bestPrices(group, outcomes, allowed);
  if (!best) return [];
  if (limit === 1 && !search.accept) {
    const sum = best.reduce((acc, c) => acc + c.implied, 0);
    return ok(sum) ? [{ rows: best.map((c) => c.row), decimals: best.map((c) => c.d), impliedSum: sum }] : [];
  }
  const minRest: number[] = new Array<number>(best.length + 1).fill(0);
  for (let i = best.length - 1; i >= 0; i--) minRest[i] = (minRest[i + 1] ?? 0) + (best[i]?.implied ?? 0);
  if (!ok(0 + (best[0]?.implied ?? 0) + (minRest[1] ?? 0))) return [];
  const all = priceLists(group, outcomes);
  const lists = all && within(all, allowed);
  if (!lists) return [];
  const accept = search.accept ?? ((): boolean => true);
  const found: (Combo & { books: string })[] = [];
  const picked: RankedPrice[] = [];
  const visit = (depth: number, sum: number): void => {
    if (found.length >= HARD_LIMIT) return;
    const list = lists[depth];
    if (!list) {
      const rows = picked.map((c) => c.row);
      if (accept(rows)) found.push({ rows, decimals: picked.map((c) => c.d), impliedSum: sum, books: rows.map((r) => r.book).join(',') });
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
  return found.slice(0, limit);
}

/**
 * Per outcome, the first price of its sorted list (highest decimal, book id breaking ties)
 * among the allowed books, found by one scan; null when an outcome has none. Over every book it
 * comes from the line's summary.
 */
function bestPrices(group: LineGroupState, outcomes: readonly SelectionType[], allowed: ReadonlySet<string> | null): RankedPrice[] | null {
  if (allowed === null) return lineSummary(group, outcomes).best;
  const out: RankedPrice[] = [];
  for (const s of outcomes) {
    let top: OddsRow | null = null;
    let topD = 0;
    for (const [book, bySelection] of group.books) {
      if (!allowed.has(book)) continue;
      const row = bySelection.get(s);
      if (!row) continue;
      const d = decimalOf(row);
      if (top === null || d > topD || (d === topD && row.book < top.book)) {
        top = row;
        topD = d;
      }
    }
    if (top === null) return null;
    out.push({ row: top, d: topD, implied: 1 / topD });
  }
  return out;
}

/**
 * One scan of the group's books for every outcome at once. +EV, arbitrage and low-hold each
 * scanned the books per outcome before; the figures are the same (same comparisons, sums in
 * the same order).
 */
export function lineSummary(group: LineGroupState, outcomes: readonly SelectionType[]): LineSummary {
  const cached = group.summary;
  if (cached !== null && cached.version === group.version && sameOutcomes(cached.outcomes, outcomes)) return cached;
  const n = outcomes.length;
  const tops: (OddsRow | null)[] = [];
  const topDs: number[] = [];
  const bookCounts: number[] = [];
  for (let i = 0; i < n; i++) {
    tops.push(null);
    topDs.push(0);
    bookCounts.push(0);
  }
  for (const bySelection of group.books.values()) {
    for (let i = 0; i < n; i++) {
      const row = bySelection.get(outcomes[i] as SelectionType);
      if (!row) continue;
      bookCounts[i] = (bookCounts[i] as number) + 1;
      const d = decimalOf(row);
      const top = tops[i] as OddsRow | null;
      const topD = topDs[i] as number;
      if (top === null || d > topD || (d === topD && row.book < top.book)) {
        tops[i] = row;
        topDs[i] = d;
      }
    }
  }
  let best: RankedPrice[] | null = [];
  for (let i = 0; i < n; i++) {
    const row = tops[i] as OddsRow | null;
    if (row === null) {
      best = null;
      break;
    }
    const d = topDs[i] as number;
    best.push({ row, d, implied: 1 / d });
  }
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

export function distinctBooks(rows: readonly OddsRow[]): number {
  return new Set(rows.map((r) => r.book)).size;
}
