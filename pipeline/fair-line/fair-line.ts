/**
 * A fair line from a recipe: one market (one event, market, participant, stat, line), the rows
 * every book has there, and the caller's choice of reference books, weights and de-vig method.
 *
 * - A reference book that prices every outcome is de-vigged by the recipe's method (and, for the
 *   band, by every method); the fair probability of each outcome is the weighted mean over those
 *   books. Outcomes are then `two_sided`.
 * - Only when no reference book prices the whole market, each book's one-sided prices are
 *   discounted by a margin: the caller's, else the book's own overround on the other lines of the
 *   family (borrowed), else the recipe's default (ONE_SIDED_MARGIN_PERCENT). The fair probability of such a price is
 *   r / (1 + margin): the margin is shared in proportion to the implied probability (the
 *   multiplicative reading), since without the other side no method has anything else to go on.
 *   No missing side is made up. Outcomes then are `one_sided_assumed_margin`, or `unavailable`
 *   where no reference book prices them.
 * - Weights: `equal`, or `freshness_width`: 2^(-age / 60 s) x 1 / max(margin %, 0.5), age the
 *   oldest of the book's prices here and margin its overround here (or the assumed one): a price
 *   a minute old counts half, a book hanging 2 % twice one hanging 4 %.
 * - Band, per outcome: the lowest and highest fair probability over the de-vig methods (the
 *   weighted mean under each method that prices every book) and over the books (each book's own
 *   fair under the recipe's method); `low`/`high` span both. One-sided outcomes have only the
 *   books' range.
 */
import { RECIPE_DEVIG_METHODS, americanToDecimal, deVig } from '../odds-math/index.js';
import type { RecipeDevigMethod } from '../odds-math/index.js';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import type { FairRecipe } from './recipe.js';

export type FairStatus = 'two_sided' | 'one_sided_assumed_margin' | 'unavailable';
export type MarginSource = 'market' | 'caller' | 'borrowed' | 'default';

export interface Range {
  low: number;
  high: number;
}

export interface FairBand extends Range {
  /** Over the de-vig methods; null for one-sided outcomes. */
  methods: Range | null;
  books: Range;
}

export interface FairOutcome {
  selection: SelectionType;
  status: FairStatus;
  /** Null when unavailable. */
  probability: number | null;
  band: FairBand | null;
  /** The margin taken off a one-sided price (the weighted mean of the books'); null otherwise. */
  assumedMargin: number | null;
}

export interface FairBook {
  book: string;
  /** Whether it priced the fair line: every outcome (two-sided), some, or none at this line. */
  sides: 'two_sided' | 'one_sided' | 'none';
  /** Its share of the weighted mean, 0 when not used. */
  weight: number;
  /** Its overround here (two-sided), or the one assumed for its one-sided prices; null when none. */
  margin: number | null;
  marginSource: MarginSource | null;
  /** Age of its oldest price here, ms; null when it has none. */
  ageMs: number | null;
}

export interface FairLine {
  outcomes: FairOutcome[];
  books: FairBook[];
}

export interface FairMarket {
  /** The outcomes of a complete market of the family, in order. */
  outcomes: readonly SelectionType[];
  /** Bettable rows at the line, every book. */
  rows: readonly OddsRow[];
  /** Bettable rows of the same family at its other lines (for a borrowed margin). */
  otherLines: readonly OddsRow[];
  now: number;
}

const HALF_LIFE_MS = 60_000;
const MIN_MARGIN_PERCENT = 0.5;

const sumOf = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
// Rows carry the decimal price rounded for display; the American price is the exact one.
const decimalOf = (r: OddsRow): number => americanToDecimal(r.priceAmerican);

function weightOf(recipe: FairRecipe, ageMs: number, margin: number): number {
  if (recipe.weighting === 'equal') return 1;
  return 2 ** (-ageMs / HALF_LIFE_MS) / Math.max(margin * 100, MIN_MARGIN_PERCENT);
}

function rangeOf(values: readonly number[]): Range {
  return { low: Math.min(...values), high: Math.max(...values) };
}

/** Per book, the mean overround of its complete markets at the family's other lines. */
function borrowedMargins(otherLines: readonly OddsRow[], outcomes: readonly SelectionType[]): Map<string, number> {
  const byMarket = new Map<string, Map<SelectionType, OddsRow>>();
  for (const r of otherLines) {
    const key = `${r.book}|${String(r.selection === 'away' && r.line !== null ? -r.line : r.line)}`;
    let m = byMarket.get(key);
    if (!m) byMarket.set(key, (m = new Map()));
    m.set(r.selection, r);
  }
  const margins = new Map<string, number[]>();
  for (const m of byMarket.values()) {
    const rows = outcomes.map((s) => m.get(s));
    if (rows.some((r) => r === undefined)) continue;
    const book = (rows[0] as OddsRow).book;
    const list = margins.get(book) ?? [];
    list.push(sumOf(rows.map((r) => 1 / decimalOf(r as OddsRow))) - 1);
    margins.set(book, list);
  }
  return new Map([...margins].map(([book, list]) => [book, sumOf(list) / list.length]));
}

interface TwoSided {
  book: string;
  weight: number;
  fair: number[];
  byMethod: Map<RecipeDevigMethod, number[]>;
}

function deVigAll(decimals: readonly number[]): Map<RecipeDevigMethod, number[]> {
  const out = new Map<RecipeDevigMethod, number[]>();
  for (const m of RECIPE_DEVIG_METHODS) {
    try {
      out.set(m, deVig(m, decimals));
    } catch {
      // A method that cannot take this market (additive above 100 %, goto's longshot) is left out of the band.
    }
  }
  return out;
}

export function fairLine(market: FairMarket, recipe: FairRecipe): FairLine {
  const { outcomes, now } = market;
  const byBook = new Map<string, Map<SelectionType, OddsRow>>();
  for (const r of market.rows) {
    if (!outcomes.includes(r.selection)) continue;
    let m = byBook.get(r.book);
    if (!m) byBook.set(r.book, (m = new Map()));
    m.set(r.selection, r);
  }
  const ageOf = (rows: readonly OddsRow[]): number => Math.max(0, now - Math.min(...rows.map((r) => r.ts)));

  const books: FairBook[] = [];
  const twoSided: TwoSided[] = [];
  for (const book of recipe.books) {
    const mine = byBook.get(book);
    const rows = outcomes.map((s) => mine?.get(s)).filter((r): r is OddsRow => r !== undefined);
    const entry: FairBook = {
      book,
      sides: 'none',
      weight: 0,
      margin: null,
      marginSource: null,
      ageMs: rows.length > 0 ? ageOf(rows) : null,
    };
    books.push(entry);
    if (rows.length !== outcomes.length) continue;
    const decimals = rows.map(decimalOf);
    const byMethod = deVigAll(decimals);
    const fair = byMethod.get(recipe.method);
    if (!fair) continue;
    entry.sides = 'two_sided';
    entry.margin = sumOf(decimals.map((d) => 1 / d)) - 1;
    entry.marginSource = 'market';
    twoSided.push({ book, weight: weightOf(recipe, entry.ageMs ?? 0, entry.margin), fair, byMethod });
  }

  if (twoSided.length > 0) return { outcomes: twoSidedOutcomes(outcomes, twoSided, books), books };
  return { outcomes: oneSidedOutcomes(market, recipe, byBook, books), books };
}

function twoSidedOutcomes(outcomes: readonly SelectionType[], used: readonly TwoSided[], books: FairBook[]): FairOutcome[] {
  const total = sumOf(used.map((u) => u.weight));
  for (const b of books) b.weight = used.find((u) => u.book === b.book)?.weight ?? 0;
  for (const b of books) b.weight /= total;
  const meanOf = (fairs: readonly (readonly number[])[], i: number): number =>
    sumOf(fairs.map((f, k) => (f[i] ?? 0) * (used[k]?.weight ?? 0))) / total;
  const methodMeans: number[][] = [];
  for (const m of RECIPE_DEVIG_METHODS) {
    const fairs = used.map((u) => u.byMethod.get(m));
    if (fairs.every((f) => f !== undefined)) methodMeans.push(outcomes.map((_, i) => meanOf(fairs as number[][], i)));
  }
  return outcomes.map((selection, i) => {
    const probability = meanOf(
      used.map((u) => u.fair),
      i,
    );
    const methods = rangeOf(methodMeans.map((p) => p[i] ?? probability));
    const byBook = rangeOf(used.map((u) => u.fair[i] ?? probability));
    const band = {
      low: Math.min(methods.low, byBook.low, probability),
      high: Math.max(methods.high, byBook.high, probability),
      methods,
      books: byBook,
    };
    return { selection, status: 'two_sided', probability, band, assumedMargin: null };
  });
}

function oneSidedOutcomes(
  market: FairMarket,
  recipe: FairRecipe,
  byBook: ReadonlyMap<string, ReadonlyMap<SelectionType, OddsRow>>,
  books: FairBook[],
): FairOutcome[] {
  const borrowed = borrowedMargins(market.otherLines, market.outcomes);
  const priced: { book: FairBook; rows: ReadonlyMap<SelectionType, OddsRow>; weight: number }[] = [];
  for (const b of books) {
    const rows = byBook.get(b.book);
    if (!rows || b.ageMs === null) continue;
    const own = borrowed.get(b.book);
    const [margin, source]: [number, MarginSource] =
      recipe.assumedMargin !== null
        ? [recipe.assumedMargin, 'caller']
        : own !== undefined
          ? [own, 'borrowed']
          : [recipe.defaultMargin, 'default'];
    b.sides = 'one_sided';
    b.margin = margin;
    b.marginSource = source;
    priced.push({ book: b, rows, weight: weightOf(recipe, b.ageMs, margin) });
  }
  const total = sumOf(priced.map((p) => p.weight));
  for (const p of priced) p.book.weight = p.weight / total;
  return market.outcomes.map((selection) => {
    const quotes = priced.flatMap((p) => {
      const r = p.rows.get(selection);
      const margin = p.book.margin ?? recipe.defaultMargin;
      return r ? [{ fair: 1 / decimalOf(r) / (1 + margin), margin, weight: p.weight }] : [];
    });
    if (quotes.length === 0) return { selection, status: 'unavailable', probability: null, band: null, assumedMargin: null };
    const weight = sumOf(quotes.map((q) => q.weight));
    const probability = sumOf(quotes.map((q) => q.fair * q.weight)) / weight;
    const books = rangeOf(quotes.map((q) => q.fair));
    return {
      selection,
      status: 'one_sided_assumed_margin',
      probability,
      band: { low: books.low, high: books.high, methods: null, books },
      assumedMargin: sumOf(quotes.map((q) => q.margin * q.weight)) / weight,
    };
  });
}
