import type { DevigMethodName, EvMethodValues, EvOpportunity, OddsRow, OpportunityPrice, SelectionType } from '../../schemas/index.js';
import {
  backLayMidpoint,
  DEVIG_CHOICES,
  DEVIG_METHODS,
  deVig,
  evPercent,
  hold,
  kellyPercent,
  marketWidth,
  probabilityToAmerican,
} from '../odds-math/index.js';
import type { DevigChoice, DevigMethod } from '../odds-math/index.js';
import { lineSummary } from './combos.js';
import { confidenceScore, keepsCompany, latestChange } from './confidence.js';
import { evWarnings } from './staleness.js';
import type { Candidate, EngineContext } from './context.js';
import { commonFields, withKind } from './context.js';
import { familyOpportunityId } from './ids.js';
import { GenerationalMemo } from './memo.js';
import { completeMarket, decimalOf, legOf, lineKey, priceOf, round, sortedSlots } from './state.js';
import type { CachedReference, LineGroupState, Reference } from './line-group.js';
import { WIDTH, selectionIndex } from './line-group.js';

// The contract's choices and the odds math's are one list; the compiler keeps them so.
const CHOICES: readonly DevigMethodName[] = DEVIG_CHOICES;
const _sameChoices: readonly DevigChoice[] = CHOICES;
void _sameChoices;
/** The de-vig methods proper; `worst_case` is derived from their fair probabilities. */
const METHODS: readonly DevigMethod[] = DEVIG_METHODS;

/**
 * A book's reference at a line group, reused while the book's rows at the line are the same
 * objects: a soft book's move re-de-vigs nothing.
 */
function reference(g: LineGroupState, book: string, outcomes: readonly SelectionType[], maxSpread: number, now: number): Reference | null {
  const byBook = (g.references ??= new Map());
  const slot = g.slots.get(book);
  const cached = byBook.get(book);
  if (cached && sameRows(cached, g, slot, outcomes)) return cached.reference;
  const seen = outcomes.map((s) => (slot === undefined ? undefined : (g.rows[slot * WIDTH + selectionIndex(s)] ?? undefined)));
  const rows = slot === undefined ? null : completeMarket(g, slot, outcomes);
  let ref: Reference | null = null;
  if (rows) {
    const quotes = exchangeQuotes(rows);
    const fair =
      quotes === null
        ? FAIR.get(rows.map((r) => r.priceAmerican).join(','), now, () => fairOf(rows.map(decimalOf)))
        : exchangeFair(quotes, maxSpread);
    ref = fair ? { book, rows, fair, prices: null } : null;
  }
  byBook.set(book, { outcomes, rows: seen, reference: ref });
  return ref;
}

/** Whether the book (in `slot`, undefined when it has left) still has the rows its cached reference was computed from. */
function sameRows(cached: CachedReference, g: LineGroupState, slot: number | undefined, outcomes: readonly SelectionType[]): boolean {
  if (cached.outcomes.length !== outcomes.length) return false;
  for (let i = 0; i < outcomes.length; i++) {
    const s = outcomes[i] as SelectionType;
    const row = slot === undefined ? undefined : (g.rows[slot * WIDTH + selectionIndex(s)] ?? undefined);
    if (cached.outcomes[i] !== s || cached.rows[i] !== row) return false;
  }
  return true;
}

/** The rows of the references in order: the part of a candidate's inputs they make up. */
function rowsOf(refs: readonly Reference[]): OddsRow[] {
  const rows: OddsRow[] = [];
  for (const r of refs) for (const x of r.rows) rows.push(x);
  return rows;
}

/** Every row's back and lay, when the book is an exchange quoting both sides of every outcome; null otherwise. */
function exchangeQuotes(rows: readonly OddsRow[]): { back: number; lay: number }[] | null {
  if (rows[0]?.exchange == null) return null;
  const out: { back: number; lay: number }[] = [];
  for (const r of rows) {
    const q = r.exchange;
    if (q == null || q.back === null || q.lay === null || !(q.back > 1) || !(q.lay > 1)) return [];
    out.push({ back: q.back, lay: q.lay });
  }
  return out;
}

/**
 * An exchange's fair line: the midpoint of what its back and lay prices imply, per outcome,
 * scaled to sum to 1 (every method gives the same: there is no margin to take out, commission is
 * charged on winnings, not priced in). Not a reference when a side of some outcome is empty or
 * its spread is wider than `maxSpread` probability points: a thin ladder's midpoint is a guess.
 */
function exchangeFair(quotes: readonly { back: number; lay: number }[], maxSpread: number): Record<DevigMethod, number[]> | null {
  if (quotes.length === 0) return null;
  const mids: number[] = [];
  let sum = 0;
  for (const q of quotes) {
    const m = backLayMidpoint(q.back, q.lay);
    if (m.spread > maxSpread) return null;
    mids.push(m.probability);
    sum += m.probability;
  }
  const fair = mids.map((p) => p / sum);
  const out = {} as Record<DevigMethod, number[]>;
  for (const m of METHODS) out[m] = fair;
  return out;
}

/**
 * De-vigging is a pure function of the prices, and sharp prices repeat: measured 2x faster with
 * it. An entry is about 500 bytes (the record and its six arrays). Kept until 20,000 entries and
 * then cleared, it grew all through the soak's first hour at 2,000 ticks/s (6,858 price sets at
 * 10 simulated minutes, 11,916 at 30, full after about an hour: 10 MB) and then started over.
 * Two generations of five minutes hold the prices asked for lately: 5,000-5,500 entries from the
 * fifth minute on (7,538 at most), for 27 % more de-vigs, about two a second (docs/soak.md,
 * round eleven).
 */
const FAIR = new GenerationalMemo<Record<DevigMethod, number[]> | null>(300_000, 10_000);

function fairOf(decimals: readonly number[]): Record<DevigMethod, number[]> | null {
  try {
    const fair = {} as Record<DevigMethod, number[]>;
    for (const m of METHODS) fair[m] = deVig(m, decimals);
    return fair;
  } catch {
    // A market no method can de-vig (an overround above 100 %) is not a reference.
    return null;
  }
}

function references(ctx: EngineContext, g: LineGroupState, books: readonly string[]): Reference[] {
  const out: Reference[] = [];
  for (const b of books) {
    if (!g.slots.has(b)) continue;
    const r = reference(g, b, ctx.outcomes, ctx.options.exchangeMaxSpread, ctx.now);
    if (r) out.push(r);
  }
  return out;
}

/** The fair probability of outcome i under method m, averaged over the references in order. */
function average(refs: readonly Reference[], m: DevigMethod, i: number): number {
  let sum = 0;
  for (const r of refs) sum += r.fair[m][i] ?? 0;
  return sum / refs.length;
}

/** Whether one of the references is the book's own market. */
function hasBook(refs: readonly Reference[], book: string): boolean {
  for (const r of refs) if (r.book === book) return true;
  return false;
}

/** The references without the book's own (a new list only when it is among them). */
function without(refs: readonly Reference[], book: string): readonly Reference[] {
  return hasBook(refs, book) ? refs.filter((r) => r.book !== book) : refs;
}

/** The largest of the methods' averaged fair probabilities of outcome i. */
function maxAverage(refs: readonly Reference[], i: number): number {
  let bar = Number.NEGATIVE_INFINITY;
  for (const m of METHODS) bar = Math.max(bar, average(refs, m, i));
  return bar;
}

/**
 * +EV at one line: for every book and selection, the fair probability is the average over the
 * reference books present (never the book itself) of their de-vigged probability; the book's
 * price is +EV when EV > 0 under at least one de-vig method. All four methods are kept.
 *
 * A price is +EV under some method exactly when p * d > 1 for the largest p (EV is
 * (p * d - 1) * 100), so the test needs only the averages; the per-method values are computed
 * when the opportunity is built, i.e. only when its inputs changed.
 */
export function evCandidates(ctx: EngineContext, g: LineGroupState, out: Candidate[]): void {
  const line = g.line;
  const primary = references(ctx, g, ctx.options.referenceBooks);
  const fallback = references(ctx, g, ctx.options.fallbackReferenceBooks);
  if (primary.length === 0 && fallback.length === 0) return;
  const summary = lineSummary(g, ctx.outcomes);
  const arbProfit = summary.arbProfit;
  const slots = sortedSlots(g);
  const { books, rows } = g;
  const { isLive, startTime } = ctx.event;
  // Most books are not references: they share one fair price per method (the common references).
  const common = primary.length > 0 ? primary : fallback;
  let commonRows: OddsRow[] | null = null;
  let commonChangedAt: number | null | undefined;
  const outcomes = ctx.outcomes;
  for (let i = 0; i < outcomes.length; i++) {
    const selection = outcomes[i] as SelectionType;
    const bookCount = summary.bookCounts[i] as number;
    const sharedBar = maxAverage(common, i);
    const at = selectionIndex(selection);
    for (const slot of slots) {
      const row = rows[slot * WIDTH + at];
      if (row == null) continue;
      const book = books[slot] as string;
      const d = decimalOf(row);
      const own = hasBook(primary, book) || (primary.length === 0 && hasBook(fallback, book));
      if (!own && sharedBar * d <= 1) continue;
      // Not its own reference: the common references, whole.
      let refs = own ? without(primary, book) : common;
      const sharpCount = own ? refs.length : primary.length;
      if (refs.length === 0) refs = without(fallback, book);
      if (refs.length === 0) continue;
      if (own && maxAverage(refs, i) * d <= 1) continue;
      const id = familyOpportunityId(ctx.family, 'ev', ctx.eventId, [row]);
      const refRows = refs === common ? (commonRows ??= rowsOf(common)) : rowsOf(refs);
      const chosen = refs;
      const refChangedAt = refs === common ? (commonChangedAt ??= latestChange(refRows)) : latestChange(refRows);
      const facts = confidenceFacts(g, slots, slot, at, row, chosen, refChangedAt);
      out.push({
        id,
        rows: [row],
        refRows,
        // The confidence score's inputs are values too: another book moving into or out of this
        // price's company changes the score without touching the prices used.
        values: [
          refs.length,
          sharpCount,
          bookCount,
          isLive,
          startTime,
          arbProfit,
          facts.bookChangedAt,
          facts.referenceChangedAt,
          facts.otherBooks,
          facts.otherBooksInCompany,
        ],
        scope: g.key,
        build: () => buildEv(ctx, line, selection, i, row, d, id, chosen, sharpCount, bookCount, arbProfit, facts),
      });
    }
  }
}

/** What the confidence score reads off the board beside the prices used (confidence.ts). */
interface ConfidenceFacts {
  bookChangedAt: number | null;
  referenceChangedAt: number | null;
  otherBooks: number;
  otherBooksInCompany: number;
}

/**
 * The book's and the references' change times, and the other books at this selection and line
 * (neither the book in `slot` nor a reference used), counting those that keep its price company.
 */
function confidenceFacts(
  g: LineGroupState,
  slots: readonly number[],
  slot: number,
  at: number,
  row: OddsRow,
  refs: readonly Reference[],
  referenceChangedAt: number | null,
): ConfidenceFacts {
  let otherBooks = 0;
  let otherBooksInCompany = 0;
  for (const s of slots) {
    if (s === slot) continue;
    const other = g.rows[s * WIDTH + at];
    if (other == null || hasBook(refs, g.books[s] as string)) continue;
    otherBooks++;
    if (keepsCompany(row.priceDecimal, other.priceDecimal)) otherBooksInCompany++;
  }
  return { bookChangedAt: row.oddsChangedAt, referenceChangedAt, otherBooks, otherBooksInCompany };
}

/** The per-method values of a +EV price, worst case last. */
function methodValues(refs: readonly Reference[], i: number, d: number): { m: DevigMethodName; p: number; ev: number; kelly: number }[] {
  const raw: { m: DevigMethodName; p: number; ev: number; kelly: number }[] = METHODS.map((m) => {
    const p = average(refs, m, i);
    return { m, p, ev: evPercent(p, d), kelly: kellyPercent(p, d) };
  });
  // The conservative screen: the lowest of the (reference-averaged) fair probabilities.
  const worst = Math.min(...raw.map((x) => x.p));
  raw.push({ m: 'worst_case', p: worst, ev: evPercent(worst, d), kelly: kellyPercent(worst, d) });
  return raw;
}

function buildEv(
  ctx: EngineContext,
  line: number | null,
  selection: SelectionType,
  i: number,
  row: OddsRow,
  d: number,
  id: string,
  refs: readonly Reference[],
  sharpCount: number,
  bookCount: number,
  arbProfit: number | null,
  facts: ConfidenceFacts,
): EvOpportunity {
  const raw = methodValues(refs, i, d);
  const leg = legOf(row, 1);
  const main = refs[0] as Reference;
  const referencePrices: OpportunityPrice[] = [];
  let anyLive = row.isLive;
  for (const r of refs) {
    for (const p of (r.prices ??= r.rows.map(priceOf))) referencePrices.push(p);
    for (const x of r.rows) anyLive ||= x.isLive;
  }
  const situation = `${ctx.eventId}|${ctx.family.key}|${selection}|${lineKey(line)}`;
  const evPower = raw.find((x) => x.m === 'power')?.ev ?? 0;
  const base = commonFields(ctx, id, situation, [leg], [leg, ...referencePrices], anyLive, round(evPower, 4));
  const width = ctx.outcomes.length === 2 ? marketWidth(main.rows.map((r) => r.priceAmerican)) : null;
  const confidence = {
    sharpCount,
    marketWidth: width,
    referenceHoldPercent: round(hold(main.rows.map(decimalOf)) * 100, 4),
    bookCount,
    bookChangedAt: facts.bookChangedAt,
    referenceChangedAt: facts.referenceChangedAt,
    otherBooks: facts.otherBooks,
    otherBooksInCompany: facts.otherBooksInCompany,
  };
  const methods = {} as Record<DevigMethodName, EvMethodValues>;
  const peakEvPercent = {} as Record<DevigMethodName, number>;
  for (const x of raw) {
    const ev = round(x.ev, 4);
    methods[x.m] = {
      fairProbability: round(x.p, 6),
      noVigOdds: probabilityToAmerican(x.p),
      evPercent: ev,
      kellyPercent: round(Math.max(0, x.kelly), 4),
      confidenceScore: confidenceScore(confidence, ev),
    };
    peakEvPercent[x.m] = ev;
  }
  return withKind<EvOpportunity>(base, {
    kind: 'ev',
    warnings: evWarnings(
      { ageSeconds: base.oldestOddsAgeSeconds, possiblyStale: base.possiblyStale, warning: base.warnings[0] ?? null },
      sharpCount,
    ),
    book: row.book,
    selection,
    line: row.line,
    priceAmerican: row.priceAmerican,
    priceDecimal: row.priceDecimal,
    bookEventId: row.bookEventId,
    selectionId: row.selectionId,
    methods,
    sharpBook: main.book,
    sharpBooks: refs.map((r) => r.book),
    references: referencePrices,
    marketWidth: width,
    bookCount,
    arbAvailable: arbProfit !== null,
    arbProfitPercent: arbProfit,
    confidence,
    peakEvPercent,
  });
}
