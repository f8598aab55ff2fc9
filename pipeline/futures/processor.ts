import type { FutureEvOpportunity, FuturesMarket, FuturesQuote } from '../../schemas/index.js';
import { futuresFairLine, outcomeKey } from './fair.js';
import type { FuturesFairOptions } from './fair.js';

/** A +EV price's version for the history table: seen at `at`, or ended there (`expired`). */
export interface FutureEvVersion {
  opportunity: FutureEvOpportunity;
  market: FuturesMarket;
  expiredAt: number | null;
}

/** One outcome of one book's board as the latest-odds table keeps it; `removed`: the book no longer lists it. */
export interface FutureLatestChange {
  quote: FuturesQuote;
  price: FuturesQuote['selections'][number];
  removed: boolean;
}

export interface FuturesStep {
  /** The derived state of every market a board of the batch touched (topic `futures.markets`). */
  markets: FuturesMarket[];
  latest: FutureLatestChange[];
  ev: FutureEvVersion[];
}

/**
 * Futures: the latest board of every book per market, and from them each market's fair line and
 * +EV prices (`futures/fair.ts`). Pure and deterministic: time is the `now` it is handed. A
 * board with no outcomes is a pulled market. An EV price keeps its first detection time while it
 * lasts; when it is gone its last version is recorded as expired.
 */
export class FuturesProcessor {
  private readonly boards = new Map<string, Map<string, FuturesQuote>>();
  private readonly active = new Map<string, Map<string, FutureEvOpportunity>>();
  readonly counters = { boards: 0, created: 0, expired: 0 };

  constructor(private readonly options: FuturesFairOptions) {}

  /** Rebuild from the compacted `futures` changelog (no outputs: they are on the changelogs already). */
  restore(quote: FuturesQuote): void {
    this.put(quote);
  }

  /** Boards of one batch, in order; each touched market is recomputed once. */
  handle(quotes: readonly FuturesQuote[], now: number): FuturesStep {
    const touched = new Set<string>();
    const latest: FutureLatestChange[] = [];
    for (const q of quotes) {
      const previous = this.boards.get(q.futureId)?.get(q.book);
      if (previous && previous.ts > q.ts) continue;
      this.counters.boards++;
      const listed = new Set(q.selections.map(outcomeKey));
      for (const p of previous?.selections ?? []) if (!listed.has(outcomeKey(p))) latest.push({ quote: q, price: p, removed: true });
      for (const p of q.selections) latest.push({ quote: q, price: p, removed: false });
      this.put(q);
      touched.add(q.futureId);
    }
    const markets: FuturesMarket[] = [];
    const ev: FutureEvVersion[] = [];
    for (const futureId of [...touched].sort()) {
      const market = this.recompute(futureId, now, ev);
      if (market) markets.push(market);
    }
    return { markets, latest, ev };
  }

  /** The derived state of one market as it stands (null when no book has a board). */
  market(futureId: string, now: number): FuturesMarket | null {
    return this.recompute(futureId, now, NO_OUTPUT);
  }

  get marketCount(): number {
    return this.boards.size;
  }

  get opportunityCount(): number {
    let n = 0;
    for (const m of this.active.values()) n += m.size;
    return n;
  }

  private put(q: FuturesQuote): void {
    let books = this.boards.get(q.futureId);
    if (!books) this.boards.set(q.futureId, (books = new Map()));
    books.set(q.book, q);
  }

  private recompute(futureId: string, now: number, ev: FutureEvVersion[]): FuturesMarket | null {
    const books = this.boards.get(futureId);
    const boards = books ? [...books.values()] : [];
    const info = boards[0];
    if (!info) return null;
    const line = futuresFairLine(boards, this.options);
    const before = this.active.get(futureId) ?? new Map<string, FutureEvOpportunity>();
    const after = new Map<string, FutureEvOpportunity>();
    for (const o of line.opportunities) {
      const detectedAt = before.get(o.id)?.detectedAt ?? now;
      if (!before.has(o.id) && ev !== NO_OUTPUT) this.counters.created++;
      after.set(o.id, { ...o, detectedAt, lastSeenAt: now });
    }
    const market: FuturesMarket = {
      futureId,
      name: info.name,
      sport: info.sport,
      league: info.league,
      futureType: info.futureType,
      market: info.market,
      season: info.season,
      subjectTeamId: info.subjectTeamId,
      settlesAt: info.settlesAt,
      references: line.references,
      selections: line.selections,
      opportunities: [...after.values()],
      books: line.books,
      updatedAt: now,
    };
    if (ev !== NO_OUTPUT) {
      for (const o of after.values()) ev.push({ opportunity: o, market, expiredAt: null });
      for (const [id, o] of before) {
        if (after.has(id)) continue;
        this.counters.expired++;
        ev.push({ opportunity: o, market, expiredAt: now });
      }
      if (after.size > 0) this.active.set(futureId, after);
      else this.active.delete(futureId);
    }
    return market;
  }
}

const NO_OUTPUT: FutureEvVersion[] = [];
