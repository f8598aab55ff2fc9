import { FreshnessLedger } from '../../pipeline/freshness/index.js';
import type { CanonicalEvent, MarketId, OddsChange, OddsRow } from '../../schemas/index.js';
import { ChangeLog, DEFAULT_CHANGE_LOG } from './change-log.js';
import { mainLinesOf } from './main-lines.js';
import { EventRows } from './event-rows.js';
import type { MainLines } from './main-lines.js';
import type { ChangeLogOptions } from './change-log.js';
import { presentedChange } from './presented-change.js';

const MARKET_ORDER: Record<MarketId, number> = {
  moneyline: 0,
  point_spread: 1,
  total_points: 2,
  team_total: 3,
  '1st_half': 4,
  '1st_quarter': 5,
  player_prop: 6,
  game_prop: 7,
  future: 8,
};
const SELECTION_ORDER: Record<string, number> = { home: 0, away: 1, draw: 2, over: 3, under: 4, yes: 5, no: 6 };

/** The fields of a row that place it on the board. */
export type RowPlace = Pick<OddsRow, 'market' | 'participant' | 'statCategory' | 'line' | 'selection' | 'book'>;

/** Board order within an event: market, participant, line, selection, book. A total order on row keys. */
export function compareRows(a: RowPlace, b: RowPlace): number {
  return (
    MARKET_ORDER[a.market] - MARKET_ORDER[b.market] ||
    (a.participant ?? '').localeCompare(b.participant ?? '') ||
    (a.statCategory ?? '').localeCompare(b.statCategory ?? '') ||
    Math.abs(a.line ?? 0) - Math.abs(b.line ?? 0) ||
    (SELECTION_ORDER[a.selection] ?? 9) - (SELECTION_ORDER[b.selection] ?? 9) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.book < b.book ? -1 : a.book > b.book ? 1 : 0)
  );
}

export interface BoardOptions {
  /** The clock that stamps the change log (the system clock, or a replay's). */
  now?: () => number;
  log?: ChangeLogOptions;
}

/** Who else wants every applied change: a delayed board, for one. */
export interface BoardListener {
  applyEvent(event: CanonicalEvent): void;
  /** Called before the board applies the change: `row(eventId, key)` still answers the row it replaces or removes. */
  applyChange(change: OddsChange): void;
  /** The event's last row has just left the board (a listener keeping state per event lets it go). */
  eventEmptied?(eventId: string): void;
  /** The event's tombstone: the pipeline forgot it, so a listener keeping its record lets it go. */
  eventForgotten?(eventId: string): void;
}

/**
 * The live board an API replica serves from: the latest odds and the canonical events, kept
 * current by the snapshot and events changelogs. Reads never touch the store. Counters per book
 * and market are kept incrementally so reference endpoints cost O(books) or O(markets). Every
 * applied change also goes into `log`, which answers deltas in O(changes since).
 */
export class LiveBoard {
  readonly log: ChangeLog;
  private readonly listeners: BoardListener[] = [];
  /** Each book's measured freshness, from the changes the board applies (GET /freshness, /sportsbooks). */
  readonly freshness = new FreshnessLedger();
  private readonly events = new Map<string, CanonicalEvent>();
  private readonly rowsByEvent = new Map<string, Map<string, OddsRow>>();
  /** An event's rows in board order, indexed by market and book; rebuilt lazily when keys come or go. */
  private readonly eventRows = new Map<string, EventRows>();
  /** Answers derived from the key set and the events (match counts per filter), dropped when `version` moves. */
  private readonly derived = new Map<string, { version: number; value: unknown }>();
  private readonly mainLinesByKeys = new WeakMap<string[], MainLines>();
  private sortedEvents: CanonicalEvent[] | null = null;
  private readonly bookEvents = new Map<string, Map<string, number>>();
  private readonly bookLastUpdate = new Map<string, number>();
  private readonly marketEvents = new Map<MarketId, Map<string, number>>();
  /** Per event, rows by book then market: lets /odds count matches without visiting rows. */
  private readonly eventBookMarket = new Map<string, Map<string, Map<string, number>>>();
  private rows = 0;
  private takenIn = 0;
  /**
   * Moves when a row key comes or goes or an event changes what filters see of it (sport, league,
   * teams, start, live). A price change leaves it: counts and row order do not depend on prices.
   */
  private shape = 0;
  /** Epoch ms of the last change applied, by the pipeline's clock. */
  lastChangeAt: number | null = null;

  constructor(options: BoardOptions = {}) {
    this.log = new ChangeLog(options.now ?? Date.now, options.log ?? DEFAULT_CHANGE_LOG);
  }

  get rowCount(): number {
    return this.rows;
  }

  /**
   * Rows taken in under a key the board did not hold, since start (the first fill included). A
   * `Map` over the board's keys keeps a deleted key's slot until its table is full, so the table
   * settles at its lasting size only once this many keys have passed through it: the soak waits
   * for that before judging memory (docs/soak.md).
   */
  get rowsTakenIn(): number {
    return this.takenIn;
  }

  /** `listener` gets every event and change applied from now on. */
  subscribe(listener: BoardListener): void {
    this.listeners.push(listener);
  }

  applyEvent(event: CanonicalEvent): void {
    const previous = this.events.get(event.id);
    this.events.set(event.id, event);
    if (!previous || previous.startTime !== event.startTime) this.sortedEvents = null;
    if (!previous || presentedChange(previous, event)) this.shape++;
    for (const l of this.listeners) l.applyEvent(event);
    // Rows present their event (start time, teams): when that changes, or the event arrives after
    // its rows, the rows change for a client too, so they go into the log again.
    const rows = this.rowsByEvent.get(event.id);
    if (
      rows &&
      (!previous ||
        previous.startTime !== event.startTime ||
        previous.homeTeamId !== event.homeTeamId ||
        previous.awayTeamId !== event.awayTeamId)
    ) {
      for (const [key, row] of rows) this.log.append(key, row, null);
    }
  }

  /**
   * The event's tombstone on `events` (the normalizer evicts an event a day after its start): the
   * board forgets it, and so does every listener. Rows it may still hold stay until their own
   * tombstones; without the event they are not listed.
   */
  forgetEvent(eventId: string): void {
    if (!this.events.delete(eventId)) return;
    this.sortedEvents = null;
    this.shape++;
    for (const l of this.listeners) l.eventForgotten?.(eventId);
  }

  applyChange(change: OddsChange): void {
    this.lastChangeAt = change.changedAt;
    for (const l of this.listeners) l.applyChange(change);
    let rows = this.rowsByEvent.get(change.eventId);
    const existing = rows?.get(change.key);
    this.freshness.observe(existing, change.row);
    if (change.row === null) {
      if (!rows || !existing) return;
      this.log.append(change.key, null, existing);
      rows.delete(change.key);
      this.rows--;
      this.shape++;
      this.eventRows.delete(change.eventId);
      bump(this.bookEvents, existing.book, change.eventId, -1);
      bump(this.marketEvents, existing.market, change.eventId, -1);
      this.countBookMarket(change.eventId, existing.book, existing.market, -1);
      if (rows.size === 0) {
        this.rowsByEvent.delete(change.eventId);
        this.eventBookMarket.delete(change.eventId);
        this.sortedEvents = null;
        for (const l of this.listeners) l.eventEmptied?.(change.eventId);
      }
      return;
    }
    if (!rows) {
      rows = new Map();
      this.rowsByEvent.set(change.eventId, rows);
      this.sortedEvents = null;
    }
    rows.set(change.key, change.row);
    this.log.append(change.key, change.row, null);
    const prev = this.bookLastUpdate.get(change.row.book) ?? 0;
    if (change.row.ts > prev) this.bookLastUpdate.set(change.row.book, change.row.ts);
    if (existing) return;
    this.rows++;
    this.takenIn++;
    this.shape++;
    this.eventRows.delete(change.eventId);
    bump(this.bookEvents, change.row.book, change.eventId, 1);
    bump(this.marketEvents, change.row.market, change.eventId, 1);
    this.countBookMarket(change.eventId, change.row.book, change.row.market, 1);
  }

  /**
   * Rows of an event offered by one of `books` in one of `markets` (all when a set is absent),
   * in O(books x markets of the event) rather than O(rows).
   */
  countRows(eventId: string, books?: ReadonlySet<string>, markets?: ReadonlySet<string>): number {
    if (!books && !markets) return this.rowsByEvent.get(eventId)?.size ?? 0;
    let n = 0;
    for (const [book, byMarket] of this.eventBookMarket.get(eventId) ?? []) {
      if (books && !books.has(book)) continue;
      for (const [market, count] of byMarket) if (!markets || markets.has(market)) n += count;
    }
    return n;
  }

  private countBookMarket(eventId: string, book: string, market: string, delta: number): void {
    let byBook = this.eventBookMarket.get(eventId);
    if (!byBook) {
      byBook = new Map();
      this.eventBookMarket.set(eventId, byBook);
    }
    bump(byBook, book, market, delta);
    if (byBook.get(book)?.size === 0) byBook.delete(book);
  }

  event(id: string): CanonicalEvent | undefined {
    return this.events.get(id);
  }

  /** Events that currently have odds, by start time then id. */
  activeEvents(): readonly CanonicalEvent[] {
    if (!this.sortedEvents) {
      const list: CanonicalEvent[] = [];
      for (const id of this.rowsByEvent.keys()) {
        const e = this.events.get(id);
        if (e) list.push(e);
      }
      list.sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      this.sortedEvents = list;
    }
    return this.sortedEvents;
  }

  /** Every event this board knows, with or without odds. */
  allEvents(): IterableIterator<CanonicalEvent> {
    return this.events.values();
  }

  /** An event's rows by row key, in no particular order. */
  entriesOf(eventId: string): IterableIterator<[string, OddsRow]> {
    return (this.rowsByEvent.get(eventId) ?? new Map<string, OddsRow>()).entries();
  }

  /** The current row under a row key. */
  row(eventId: string, key: string): OddsRow | undefined {
    return this.rowsByEvent.get(eventId)?.get(key);
  }

  hasOdds(eventId: string): boolean {
    return this.rowsByEvent.has(eventId);
  }

  /** An event's rows in board order. */
  rowsOf(eventId: string): OddsRow[] {
    const index = this.indexOf(eventId);
    const rows = this.rowsByEvent.get(eventId);
    if (!index || !rows) return [];
    const out: OddsRow[] = [];
    for (const k of index.keys) {
      const r = rows.get(k);
      if (r) out.push(r);
    }
    return out;
  }

  /**
   * The rows `matchingRows` yields after its first `skip`, at most `max` of them, pushed onto
   * `out`: how a page reads an event. Without a book or market filter (the default page) they are
   * read by position, with no generator in between: the two nested generators took about 5 % of
   * a 100-row page's CPU (docs/performance.md, 2026-11-29).
   */
  pageRows(
    eventId: string,
    books: ReadonlySet<string> | undefined,
    markets: ReadonlySet<string> | undefined,
    skip: number,
    max: number,
    out: OddsRow[],
  ): void {
    let left = max;
    let skipping = skip;
    if (left <= 0) return;
    if (books || markets) {
      for (const r of this.matchingRows(eventId, books, markets)) {
        if (skipping > 0) {
          skipping--;
          continue;
        }
        out.push(r);
        if (--left === 0) return;
      }
      return;
    }
    const index = this.indexOf(eventId);
    const rows = this.rowsByEvent.get(eventId);
    if (!index || !rows) return;
    const keys = index.keys;
    for (let i = 0; i < keys.length; i++) {
      const r = rows.get(keys[i] as string);
      if (!r) continue;
      if (skipping > 0) {
        skipping--;
        continue;
      }
      out.push(r);
      if (--left === 0) return;
    }
  }

  /**
   * An event's rows of one of `books` in one of `markets` (all when a set is absent), in board
   * order, visiting only those rows.
   */
  *matchingRows(eventId: string, books?: ReadonlySet<string>, markets?: ReadonlySet<string>): Generator<OddsRow> {
    const index = this.indexOf(eventId);
    const rows = this.rowsByEvent.get(eventId);
    if (!index || !rows) return;
    for (const p of index.positions(books, markets)) {
      const r = rows.get(index.keys[p] as string);
      if (r) yield r;
    }
  }

  /** The event's row index, built on first use after its key set changed. */
  indexOf(eventId: string): EventRows | undefined {
    let index = this.eventRows.get(eventId);
    if (!index) {
      const rows = this.rowsByEvent.get(eventId);
      if (!rows) return undefined;
      index = new EventRows(rows, compareRows);
      this.eventRows.set(eventId, index);
    }
    return index;
  }

  /**
   * A value computed from the board's shape (which rows exist, which events and their filter
   * attributes), kept under `name` until the shape changes: match counts per filter, for one. A
   * few hundred names at most are kept; the least recently used go first.
   */
  derive<T>(name: string, compute: () => T): T {
    const hit = this.derived.get(name);
    if (hit && hit.version === this.shape) {
      this.derived.delete(name);
      this.derived.set(name, hit);
      return hit.value as T;
    }
    const value = compute();
    this.derived.delete(name);
    this.derived.set(name, { version: this.shape, value });
    if (this.derived.size > 256) this.derived.delete(this.derived.keys().next().value as string);
    return value;
  }

  /**
   * The event's main lines. They depend only on which rows exist (a line is part of a row's key,
   * so a moved line is a removal and an addition), so they are cached per key set.
   */
  mainLines(eventId: string): MainLines {
    // Called once per row presented: the cached answer must not cost a walk of the event's rows.
    const index = this.eventRows.get(eventId);
    const hit = index && this.mainLinesByKeys.get(index.keys);
    if (hit) return hit;
    const rows = this.rowsOf(eventId);
    const main = mainLinesOf(rows);
    const keys = this.eventRows.get(eventId)?.keys;
    if (keys) this.mainLinesByKeys.set(keys, main);
    return main;
  }

  booksOf(eventId: string): string[] {
    const books = new Set<string>();
    for (const r of this.rowsByEvent.get(eventId)?.values() ?? []) books.add(r.book);
    return [...books].sort();
  }

  marketsOf(eventId: string): MarketId[] {
    const markets = new Set<MarketId>();
    for (const r of this.rowsByEvent.get(eventId)?.values() ?? []) markets.add(r.market);
    return [...markets].sort((a, b) => MARKET_ORDER[a] - MARKET_ORDER[b]);
  }

  bookEventCount(book: string): number {
    return this.bookEvents.get(book)?.size ?? 0;
  }

  bookLastUpdateAt(book: string): number | null {
    return this.bookLastUpdate.get(book) ?? null;
  }

  /** Event ids currently carrying a market, and the number of rows (selections) of it. */
  marketUsage(market: MarketId): { events: ReadonlyMap<string, number> } {
    return { events: this.marketEvents.get(market) ?? new Map() };
  }
}

/** Adds `delta` to a two-level counter, dropping entries that reach zero. */
function bump<K>(index: Map<K, Map<string, number>>, key: K, inner: string, delta: number): void {
  let counts = index.get(key);
  if (!counts) {
    counts = new Map();
    index.set(key, counts);
  }
  const n = (counts.get(inner) ?? 0) + delta;
  if (n <= 0) counts.delete(inner);
  else counts.set(inner, n);
}
