import { TIERS } from '../../schemas/index.js';
import type { FuturesMarket, FuturesQuote } from '../../schemas/index.js';

interface Version {
  /** When this replica applied it (the delayed view's clock). */
  at: number;
  quote: FuturesQuote | null;
}

/** What a futures query reads: every market's boards (as of a moment) and its derived state. */
export interface FuturesView {
  /** Future ids of every market some book prices, sorted. */
  futureIds(): string[];
  /** Open boards of a market, by book (as of `delayMs` ago). */
  boards(futureId: string, delayMs: number): FuturesQuote[];
  /** Fair line and current +EV of a market (always live: only keys with the +EV feature read it). */
  market(futureId: string): FuturesMarket | undefined;
}

/**
 * How long versions are kept: twice the longest tier delay, so a delayed read always finds the
 * version that stood at its time. It fills by age, so it is kept no longer than that needs.
 */
export const FUTURES_VERSIONS_MS = 2 * Math.max(...Object.values(TIERS).map((t) => t.dataDelaySeconds)) * 1000;

/**
 * The futures an API replica serves, kept by two changelogs: `futures` (each book's latest board
 * of each market) and `futures.markets` (the fair line and +EV the pipeline derived). Boards keep
 * versions for twice the longest tier delay so that a delayed tier reads each book's board as it stood then,
 * like the delayed odds board.
 */
export class FuturesBoard implements FuturesView {
  private readonly versions = new Map<string, Map<string, Version[]>>();
  private readonly markets = new Map<string, FuturesMarket>();
  /** When every board's versions are next cut to what a delayed read can still reach. */
  private sweepAt = 0;
  lastUpdate: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** A record of `futures`: key `${futureId}|${book}`; null (or no outcomes) pulls the board. */
  applyQuote(quote: FuturesQuote | null, key: string): void {
    const cut = key.lastIndexOf('|');
    const futureId = quote?.futureId ?? key.slice(0, Math.max(0, cut));
    const book = quote?.book ?? key.slice(cut + 1);
    const at = this.now();
    let books = this.versions.get(futureId);
    if (!books) this.versions.set(futureId, (books = new Map()));
    const list = books.get(book) ?? [];
    list.push({ at, quote: quote && quote.selections.length > 0 ? quote : null });
    books.set(book, reachable(list, at));
    if (quote) this.lastUpdate = Math.max(this.lastUpdate ?? 0, quote.ts);
    // A board cut only when it changes again kept the version before its last change until then:
    // on the simulator one superseded version per board that ever moved (373 of 4,221 boards
    // after 10 minutes, more with every round; docs/soak.md, round eleven).
    if (at >= this.sweepAt) {
      this.sweepAt = at + FUTURES_VERSIONS_MS;
      for (const byBook of this.versions.values()) for (const [b, l] of byBook) byBook.set(b, reachable(l, at));
    }
  }

  /** Versions held over every board (tests, diagnostics). */
  get versionCount(): number {
    let n = 0;
    for (const byBook of this.versions.values()) for (const l of byBook.values()) n += l.length;
    return n;
  }

  /** A record of `futures.markets`, keyed by future id. */
  applyMarket(market: FuturesMarket | null, key: string): void {
    if (market === null) this.markets.delete(key);
    else this.markets.set(key, market);
  }

  futureIds(): string[] {
    return [...this.versions.keys()].sort();
  }

  boards(futureId: string, delayMs: number): FuturesQuote[] {
    const books = this.versions.get(futureId);
    if (!books) return [];
    const asOf = this.now() - delayMs;
    const out: FuturesQuote[] = [];
    for (const list of books.values()) {
      let q: FuturesQuote | null = null;
      for (let i = list.length - 1; i >= 0; i--) {
        const v = list[i] as Version;
        if (delayMs <= 0 || v.at <= asOf) {
          q = v.quote;
          break;
        }
      }
      if (q) out.push(q);
    }
    return out.sort((a, b) => (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  }

  market(futureId: string): FuturesMarket | undefined {
    return this.markets.get(futureId);
  }
}

/** The newest version older than the longest delay, and everything after it: what a read at `at` or later can reach. */
function reachable(list: Version[], at: number): Version[] {
  for (let i = list.length - 1; i > 0; i--) if ((list[i] as Version).at <= at - FUTURES_VERSIONS_MS) return list.slice(i);
  return list;
}
