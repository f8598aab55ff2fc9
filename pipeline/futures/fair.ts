import { createHash } from 'node:crypto';
import type { DevigMethodName, FutureEvOpportunity, FutureFairByMethod, FutureFairSelection, FuturesQuote } from '../../schemas/index.js';
import { DEVIG_METHODS, deVig, evPercent, hold, kellyPercent, probabilityToAmerican } from '../odds-math/index.js';
import type { DevigMethod } from '../odds-math/index.js';
import { round } from '../opportunities/index.js';

/** Which books' boards are the truth of a futures market (the opportunity engine's lists). */
export interface FuturesFairOptions {
  /** Reference books, best first; the fair probability averages every one that qualifies. */
  referenceBooks: readonly string[];
  /** Used only when no reference book qualifies. */
  fallbackReferenceBooks: readonly string[];
}

/** An outcome's identity within a market: the same outcome at another line is another outcome. */
export function outcomeKey(p: { selectionId: string; line: number | null }): string {
  return `${p.selectionId}|${p.line ?? ''}`;
}

/** A reference book's whole board, de-vigged by every method. */
interface Reference {
  book: string;
  index: Map<string, number>;
  fair: Record<DevigMethod, number[]>;
  holdPercent: number;
}

/**
 * A board's de-vig by every method, once per board: a market is recomputed whenever any of its
 * books publishes, while each reference board changes only when that book does.
 */
const DEVIGGED = new WeakMap<FuturesQuote, Reference | null>();

function devigged(quote: FuturesQuote): Reference | null {
  const cached = DEVIGGED.get(quote);
  if (cached !== undefined) return cached;
  let out: Reference | null = null;
  const decimals = quote.selections.map((s) => s.priceDecimal);
  try {
    const fair = {} as Record<DevigMethod, number[]>;
    for (const m of DEVIG_METHODS) fair[m] = deVig(m, decimals);
    out = { book: quote.book, index: new Map(quote.selections.map((s, i) => [outcomeKey(s), i])), fair, holdPercent: hold(decimals) * 100 };
  } catch {
    // A board no method can de-vig (an overround above 100 % for the additive method) is no reference.
    out = null;
  }
  DEVIGGED.set(quote, out);
  return out;
}

function reference(quote: FuturesQuote, needed: ReadonlySet<string>): Reference | null {
  if (quote.selections.length < 2) return null;
  const r = devigged(quote);
  // De-vigging a board that leaves out part of the field would give its outcomes the missing
  // ones' probability: a reference must price every outcome that two or more books list.
  if (!r) return null;
  for (const k of needed) if (!r.index.has(k)) return null;
  return r;
}

/** The fair probability of an outcome under each method, averaged over the references that price it. */
function averageFair(refs: readonly Reference[], key: string): FutureFairByMethod | null {
  const priced = refs.filter((r) => r.index.has(key));
  if (priced.length === 0) return null;
  const out = {} as FutureFairByMethod;
  for (const m of DEVIG_METHODS) {
    out[m] = priced.reduce((sum, r) => sum + (r.fair[m][r.index.get(key) ?? 0] ?? 0), 0) / priced.length;
  }
  return out;
}

export interface FuturesFairLine {
  references: string[];
  selections: FutureFairSelection[];
  opportunities: Omit<FutureEvOpportunity, 'detectedAt' | 'lastSeenAt'>[];
  books: { book: string; holdPercent: number; ts: number }[];
}

/**
 * The fair line and the +EV prices of one futures market, from every book's open board. Each
 * reference board is de-vigged across all its outcomes by every method of the odds math; an
 * outcome's fair probability averages the references that price it. A book's price is +EV when
 * EV > 0 under at least one method (the worst-case screen included), against the references
 * other than the book itself (the fallback list when none is left), as in the game-odds engine.
 */
export function futuresFairLine(boards: readonly FuturesQuote[], options: FuturesFairOptions): FuturesFairLine {
  const open = boards.filter((b) => b.selections.length > 0).sort((a, b) => (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  const listedBy = new Map<string, number>();
  for (const b of open) for (const s of b.selections) listedBy.set(outcomeKey(s), (listedBy.get(outcomeKey(s)) ?? 0) + 1);
  const needed = new Set([...listedBy].filter(([, n]) => n >= 2).map(([k]) => k));
  const byBook = new Map(open.map((b) => [b.book, b]));
  const refsOf = (books: readonly string[]): Reference[] =>
    books.flatMap((book) => {
      const q = byBook.get(book);
      const r = q ? reference(q, needed) : null;
      return r ? [r] : [];
    });
  const primary = refsOf(options.referenceBooks);
  const fallback = refsOf(options.fallbackReferenceBooks);
  const common = primary.length > 0 ? primary : fallback;

  // Best price and book count per outcome, in the order the outcomes first appear (by book).
  const outcomes = new Map<
    string,
    { selection: string; selectionId: string; line: number | null; bestBook: string; best: number; bestAmerican: number; count: number }
  >();
  for (const b of open) {
    for (const s of b.selections) {
      const k = outcomeKey(s);
      const o = outcomes.get(k);
      if (!o)
        outcomes.set(k, {
          selection: s.selection,
          selectionId: s.selectionId,
          line: s.line,
          bestBook: b.book,
          best: s.priceDecimal,
          bestAmerican: s.priceAmerican,
          count: 1,
        });
      else {
        o.count++;
        if (s.priceDecimal > o.best) Object.assign(o, { bestBook: b.book, best: s.priceDecimal, bestAmerican: s.priceAmerican });
      }
    }
  }
  const selections: FutureFairSelection[] = [...outcomes].map(([k, o]) => {
    const fair = averageFair(common, k);
    return {
      selection: o.selection,
      selectionId: o.selectionId,
      line: o.line,
      fair: fair && roundFair(fair),
      bestBook: o.bestBook,
      bestPriceAmerican: o.bestAmerican,
      bestPriceDecimal: o.best,
      bookCount: o.count,
    };
  });
  // Shortest first (most likely), as books list them.
  selections.sort(
    (a, b) =>
      (b.fair?.power ?? 0) - (a.fair?.power ?? 0) || a.bestPriceDecimal - b.bestPriceDecimal || (a.selectionId < b.selectionId ? -1 : 1),
  );

  const opportunities: FuturesFairLine['opportunities'] = [];
  for (const b of open) {
    let refs = primary.filter((r) => r.book !== b.book);
    if (refs.length === 0) refs = fallback.filter((r) => r.book !== b.book);
    if (refs.length === 0) continue;
    for (const s of b.selections) {
      const k = outcomeKey(s);
      const fair = averageFair(refs, k);
      if (!fair) continue;
      const d = s.priceDecimal;
      const raw: { m: DevigMethodName; p: number }[] = DEVIG_METHODS.map((m) => ({ m, p: fair[m] }));
      raw.push({ m: 'worst_case', p: Math.min(...raw.map((x) => x.p)) });
      if (!raw.some((x) => x.p * d > 1)) continue;
      const methods = {} as FutureEvOpportunity['methods'];
      for (const x of raw) {
        methods[x.m] = {
          fairProbability: round(x.p, 6),
          noVigOdds: probabilityToAmerican(x.p),
          evPercent: round(evPercent(x.p, d), 4),
          kellyPercent: round(Math.max(0, kellyPercent(x.p, d)), 4),
        };
      }
      const main = refs[0] as Reference;
      opportunities.push({
        id: futuresOpportunityId(b.futureId, b.book, s),
        futureId: b.futureId,
        book: b.book,
        selection: s.selection,
        selectionId: s.selectionId,
        line: s.line,
        priceAmerican: s.priceAmerican,
        priceDecimal: d,
        oddsTs: b.ts,
        methods,
        evPercent: methods.power.evPercent,
        sharpBooks: refs.map((r) => r.book),
        referenceHoldPercent: round(main.holdPercent, 4),
        bookCount: outcomes.get(k)?.count ?? 1,
      });
    }
  }
  opportunities.sort((a, b) => b.evPercent - a.evPercent || (a.id < b.id ? -1 : 1));
  return {
    references: common.map((r) => r.book),
    selections,
    opportunities,
    books: open.map((b) => ({ book: b.book, holdPercent: round(hold(b.selections.map((s) => s.priceDecimal)) * 100, 4), ts: b.ts })),
  };
}

function roundFair(f: FutureFairByMethod): FutureFairByMethod {
  const out = {} as FutureFairByMethod;
  for (const m of DEVIG_METHODS) out[m] = round(f[m], 6);
  return out;
}

/** 16 lowercase hex digits (the reference's opportunity id shape), stable per market, book, outcome and line. */
export function futuresOpportunityId(futureId: string, book: string, s: { selectionId: string; line: number | null }): string {
  return createHash('sha1')
    .update(`future_ev|${futureId}|${book}|${outcomeKey(s)}`)
    .digest('hex')
    .slice(0, 16);
}
