import type { FutureEvOpportunity, FuturesMarket, FuturesQuote } from '../../schemas/index.js';
import type { FutureMarketSummary, FutureOddsRow, FuturesComparison } from '../contract/index.js';
import type { FuturesView } from '../views/index.js';

export interface FuturesListQuery {
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  futureTypes?: ReadonlySet<string>;
  /** Markets priced by at least one of these books, and only these books listed. */
  books?: ReadonlySet<string>;
  delayMs: number;
}

function matches(
  q: FuturesQuote,
  f: { sports?: ReadonlySet<string>; leagues?: ReadonlySet<string>; futureTypes?: ReadonlySet<string> },
): boolean {
  return (
    (!f.sports || f.sports.has(q.sport)) && (!f.leagues || f.leagues.has(q.league)) && (!f.futureTypes || f.futureTypes.has(q.futureType))
  );
}

/** Every market some (selected) book prices, by league then id. */
export function listFutures(view: FuturesView, q: FuturesListQuery): FutureMarketSummary[] {
  const out: FutureMarketSummary[] = [];
  for (const futureId of view.futureIds()) {
    const boards = view.boards(futureId, q.delayMs).filter((b) => !q.books || q.books.has(b.book));
    const first = boards[0];
    if (!first || !matches(first, q)) continue;
    const outcomes = new Set<string>();
    for (const b of boards) for (const s of b.selections) outcomes.add(`${s.selectionId}|${s.line ?? ''}`);
    out.push({
      futureId,
      name: first.name,
      sport: first.sport,
      league: first.league,
      futureType: first.futureType,
      season: first.season,
      subjectTeamId: first.subjectTeamId,
      settlesAt: first.settlesAt,
      selectionCount: outcomes.size,
      books: boards.map((b) => b.book),
    });
  }
  return out.sort((a, b) => (a.league < b.league ? -1 : a.league > b.league ? 1 : a.futureId < b.futureId ? -1 : 1));
}

export interface FuturesOddsQuery {
  futureIds: ReadonlySet<string>;
  books: ReadonlySet<string>;
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  futureTypes?: ReadonlySet<string>;
  delayMs: number;
}

const outcomeOf = (p: { selectionId: string; line: number | null }): string => `${p.selectionId}|${p.line ?? ''}`;

/**
 * Every price of the requested markets at the selected books, market by market, outcomes in the
 * market's order (most likely first), books alphabetical within an outcome.
 */
export function futuresOdds(view: FuturesView, q: FuturesOddsQuery): FutureOddsRow[] {
  const out: FutureOddsRow[] = [];
  for (const futureId of [...q.futureIds].sort()) {
    const boards = view.boards(futureId, q.delayMs).filter((b) => q.books.has(b.book) && matches(b, q));
    if (boards.length === 0) continue;
    const market = view.market(futureId);
    const fairBy = new Map((market?.selections ?? []).map((s) => [outcomeOf(s), s]));
    const evBy = new Map((market?.opportunities ?? []).map((o) => [`${o.book}|${outcomeOf(o)}`, o]));
    const order = new Map((market?.selections ?? []).map((s, i) => [outcomeOf(s), i]));
    const rows: FutureOddsRow[] = [];
    for (const b of boards) {
      for (const p of b.selections) {
        const ev = evBy.get(`${b.book}|${outcomeOf(p)}`);
        // An EV entry of an older board of the book is not this price's.
        const fair = fairBy.get(outcomeOf(p)) ?? null;
        const power = fair?.fair?.power;
        rows.push({
          quote: b,
          price: p,
          fair,
          ev: ev && ev.priceAmerican === p.priceAmerican ? ev : null,
          evPercent: power === undefined ? null : round4((power * p.priceDecimal - 1) * 100),
        });
      }
    }
    const rank = (r: FutureOddsRow): number => order.get(outcomeOf(r.price)) ?? Number.MAX_SAFE_INTEGER;
    rows.sort(
      (a, b) =>
        rank(a) - rank(b) ||
        a.price.probability - b.price.probability ||
        (a.price.selectionId < b.price.selectionId
          ? -1
          : a.price.selectionId > b.price.selectionId
            ? 1
            : a.quote.book < b.quote.book
              ? -1
              : 1),
    );
    out.push(...rows);
  }
  return out;
}

export function compareFutures(view: FuturesView, futureId: string, books: ReadonlySet<string>, delayMs: number): FuturesComparison | null {
  const summary = listFutures(view, { books, delayMs }).find((m) => m.futureId === futureId);
  if (!summary) return null;
  const rows = futuresOdds(view, { futureIds: new Set([futureId]), books, delayMs });
  const market: FuturesMarket | undefined = view.market(futureId);
  const byOutcome = new Map<string, FuturesComparison['outcomes'][number]>();
  for (const r of rows) {
    const k = outcomeOf(r.price);
    let o = byOutcome.get(k);
    if (!o)
      byOutcome.set(
        k,
        (o = {
          selection: r.price.selection,
          selectionId: r.price.selectionId,
          line: r.price.line,
          fair: r.fair?.fair ?? null,
          best: null,
          prices: [],
        }),
      );
    o.prices.push({ book: r.quote.book, priceAmerican: r.price.priceAmerican, priceDecimal: r.price.priceDecimal, evPercent: r.evPercent });
    if (!o.best || r.price.priceDecimal > o.best.priceDecimal)
      o.best = { book: r.quote.book, priceAmerican: r.price.priceAmerican, priceDecimal: r.price.priceDecimal };
  }
  const holds = (market?.books ?? []).filter((b) => books.has(b.book)).map((b) => ({ book: b.book, holdPercent: b.holdPercent }));
  return { market: summary, references: market?.references ?? [], outcomes: [...byOutcome.values()], holds };
}

function round4(x: number): number {
  const r = Math.round(x * 10_000) / 10_000;
  return r === 0 ? 0 : r;
}

export interface FuturesEvQuery {
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  futureTypes?: ReadonlySet<string>;
  futureIds?: ReadonlySet<string>;
  books: ReadonlySet<string>;
  /** Lowest EV % under power de-vig; omitted: every price EV-positive under at least one method. */
  minEv?: number;
}

/** Current futures +EV prices at the selected books, best EV (power) first. */
export function futuresEv(view: FuturesView, q: FuturesEvQuery): { opportunity: FutureEvOpportunity; market: FuturesMarket }[] {
  const out: { opportunity: FutureEvOpportunity; market: FuturesMarket }[] = [];
  for (const futureId of view.futureIds()) {
    if (q.futureIds && !q.futureIds.has(futureId)) continue;
    const market = view.market(futureId);
    if (!market) continue;
    if (
      (q.sports && !q.sports.has(market.sport)) ||
      (q.leagues && !q.leagues.has(market.league)) ||
      (q.futureTypes && !q.futureTypes.has(market.futureType))
    )
      continue;
    for (const o of market.opportunities)
      if (q.books.has(o.book) && (q.minEv === undefined || o.evPercent >= q.minEv)) out.push({ opportunity: o, market });
  }
  return out.sort((a, b) => b.opportunity.evPercent - a.opportunity.evPercent || (a.opportunity.id < b.opportunity.id ? -1 : 1));
}
