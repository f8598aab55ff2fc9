import { SPLITS_BOOKS, isSplitsBook } from '../../schemas/index.js';
import type { CanonicalEvent, SplitMarket, SplitSide, SplitSideRecord, SplitsBook, SplitsSnapshot } from '../../schemas/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { eventMatches } from '../views/index.js';
import type { EventFilter } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import { SPLITS_RETENTION_MS } from '../views/index.js';

/**
 * The splits queries every interface calls (REST today, streams and MCP next): typed inputs,
 * typed results, no HTTP. Current splits come from the in-memory `SplitsBoard`; history from
 * ClickHouse's `splits_history`, topped up with the latest snapshots still on their way there.
 */

export const SPLIT_SIGNALS = ['rlm', 'divergence'] as const;
export type SplitSignalKind = (typeof SPLIT_SIGNALS)[number];

const BOOK_ORDER = new Map<string, number>(SPLITS_BOOKS.map((b, i) => [b, i]));

export interface SplitsQuery {
  event: EventFilter;
  books?: ReadonlySet<string>;
  markets?: ReadonlySet<SplitMarket>;
  signals?: ReadonlySet<SplitSignalKind>;
  /** Data delay of the reader's tier. */
  delayMs: number;
}

export interface SplitsMatch {
  snapshot: SplitsSnapshot;
  event: CanonicalEvent;
}

export interface SplitsResult {
  /** Every match, by event start, event id, then book (recreational first). */
  matches: SplitsMatch[];
  /** Newest snapshot time among every snapshot the reader can see; null when none. */
  newestAt: number | null;
}

/**
 * Current splits, one per event and book, for events the reader's board has odds for (a game
 * off the board is over or pulled: its splits stay in the history). `markets` keeps records
 * carrying one of those markets; `signals` keeps records where one of those signals is up on
 * one of the requested markets (all markets without `markets`).
 */
export function querySplits(splits: SplitsBoard, board: LiveBoard, catalog: Catalog, q: SplitsQuery): SplitsResult {
  const matches: SplitsMatch[] = [];
  let newestAt: number | null = null;
  for (const s of splits.latest(q.delayMs)) {
    if (newestAt === null || s.ts > newestAt) newestAt = s.ts;
    const event = splitsMatch(s, board, catalog, q);
    if (event) matches.push({ snapshot: s, event });
  }
  matches.sort(
    (a, b) =>
      a.event.startTime - b.event.startTime ||
      (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0) ||
      (BOOK_ORDER.get(a.snapshot.book) ?? 9) - (BOOK_ORDER.get(b.snapshot.book) ?? 9),
  );
  return { matches, newestAt };
}

/**
 * Whether one snapshot belongs in the answer to `q` (its event as the reader's board has it, or
 * undefined): the test `/splits` applies to each record, and a `splits` stream channel to each
 * snapshot it is handed.
 */
export function splitsMatch(
  s: SplitsSnapshot,
  board: LiveBoard,
  catalog: Catalog,
  q: Omit<SplitsQuery, 'delayMs'>,
): CanonicalEvent | undefined {
  if (q.books && !q.books.has(s.book)) return undefined;
  const event = board.event(s.eventId);
  if (!event || !board.hasOdds(event.id) || !eventMatches(event, q.event, catalog)) return undefined;
  if (q.markets && !s.sides.some((x) => q.markets?.has(x.market))) return undefined;
  if (q.signals && !hasSignal(s, q.signals, q.markets)) return undefined;
  return event;
}

function hasSignal(s: SplitsSnapshot, kinds: ReadonlySet<SplitSignalKind>, markets: ReadonlySet<SplitMarket> | undefined): boolean {
  for (const [market, signals] of Object.entries(s.signals) as [SplitMarket, NonNullable<SplitsSnapshot['signals'][SplitMarket]>][]) {
    if (markets && !markets.has(market)) continue;
    if (kinds.has('rlm') && signals.rlm) return true;
    if (kinds.has('divergence') && signals.divergence) return true;
  }
  return false;
}

export interface SplitsHistoryQuery {
  eventId: string;
  books?: ReadonlySet<string>;
  /** Epoch ms bounds, inclusive; defaults: the retention window up to now. */
  from?: number;
  to?: number;
  limit: number;
  delayMs: number;
}

export interface HistoryEntry {
  book: SplitsBook;
  ts: number;
  sides: SplitSideRecord[];
}

export interface SplitsHistoryResult {
  /** Oldest first. */
  entries: HistoryEntry[];
  /** Entries in the window before `limit` applied. */
  matched: number;
  /** Newest snapshot of the event the reader can see, within the retention; null when none. */
  newestAt: number | null;
}

interface HistoryRow {
  ts: number;
  sportsbook: string;
  market: string;
  side: string;
  line: number | null;
  odds_american: number | null;
  bet_pct: number;
  handle_pct: number;
  [column: string]: unknown;
}

/**
 * An event's splits series. Without `books` the newest `limit` entries of the window; with
 * `books` every entry of those books in the window (the limit does not apply, as the contract
 * says). The store has what the sink wrote; the latest snapshot of each book may not be there
 * yet (sinks batch for a second), so it comes from memory when missing.
 */
export async function querySplitsHistory(
  store: OlapStore,
  splits: SplitsBoard,
  now: number,
  q: SplitsHistoryQuery,
): Promise<SplitsHistoryResult> {
  const visibleTo = now - q.delayMs;
  const from = Math.max(q.from ?? -Infinity, now - SPLITS_RETENTION_MS);
  const to = Math.min(q.to ?? Infinity, visibleTo);
  const books = q.books ? [...q.books] : [...SPLITS_BOOKS];
  const byEntry = new Map<string, HistoryEntry>();
  if (from <= to) {
    const rows = await store.query<HistoryRow>(
      `SELECT toFloat64(toUnixTimestamp64Milli(snapshot_time)) AS ts, sportsbook, market, side, line, odds_american, bet_pct, handle_pct
       FROM splits_history FINAL
       WHERE event_id = {event:String} AND sportsbook IN {books:Array(String)}
         AND snapshot_time >= fromUnixTimestamp64Milli({from:Int64}) AND snapshot_time <= fromUnixTimestamp64Milli({to:Int64})
       ORDER BY snapshot_time, sportsbook, market, side`,
      { event: q.eventId, books, from: Math.floor(from), to: Math.floor(to) },
    );
    for (const r of rows) {
      const book = r.sportsbook;
      // The statement asks for splits books only; a table row written otherwise is not served.
      if (!isSplitsBook(book)) continue;
      const key = `${r.ts}|${book}`;
      let entry = byEntry.get(key);
      if (!entry) {
        entry = { book, ts: Number(r.ts), sides: [] };
        byEntry.set(key, entry);
      }
      entry.sides.push({
        market: r.market as SplitMarket,
        side: r.side as SplitSide,
        betPct: r.bet_pct,
        handlePct: r.handle_pct,
        line: r.line,
        priceAmerican: r.odds_american === null ? null : Number(r.odds_american),
      });
    }
  }
  let newestAt: number | null = null;
  for (const s of splits.latestOf(q.eventId, books, q.delayMs)) {
    if (s.ts >= now - SPLITS_RETENTION_MS && (newestAt === null || s.ts > newestAt)) newestAt = s.ts;
    if (s.ts < from || s.ts > to) continue;
    const key = `${s.ts}|${s.book}`;
    if (!byEntry.has(key)) byEntry.set(key, { book: s.book, ts: s.ts, sides: s.sides });
  }
  const all = [...byEntry.values()].sort((a, b) => a.ts - b.ts || (BOOK_ORDER.get(a.book) ?? 9) - (BOOK_ORDER.get(b.book) ?? 9));
  for (const e of all) if (newestAt === null || e.ts > newestAt) newestAt = e.ts;
  const entries = q.books || all.length <= q.limit ? all : all.slice(all.length - q.limit);
  return { entries, matched: all.length, newestAt };
}
