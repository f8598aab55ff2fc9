import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { compareRows } from '../views/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { eventMatches, rowMatches } from '../views/index.js';
import type { EventFilter, RowFilter } from '../views/index.js';
import { candidateEvents, comparePositions, forEachMatch, positionOf } from './odds-query.js';
import type { Match, Position, SortSpec } from './odds-query.js';
import { betterPrice, sameOutcome } from '../views/index.js';
import { rowAtRate } from './account-rate.js';

/** The shared odds filters, parsed: which events, and which rows of them. */
export interface OddsFilters {
  event: EventFilter;
  row: RowFilter;
}

export interface OddsListQuery {
  filters: OddsFilters;
  sort: SortSpec | null;
  /** Start strictly after this position (a cursor); `offset` is then ignored. */
  after?: Position | null;
  offset: number;
  limit: number;
}

export interface OddsPage {
  page: Match[];
  /** Rows matching the filters. */
  total: number;
  /** Where the page starts in the whole result (computed from the cursor when there is one). */
  offset: number;
  hasMore: boolean;
}

/**
 * One page of `GET /odds`. Without a sort and without price bounds the page comes from the
 * board's indexes: the events matching the filters with their match counts and running totals
 * (kept per filter until the board's shape changes), a binary search to the event where the
 * offset or cursor falls, then only the page's rows, read through each event's market and book
 * index. O(page + log events) once the filter's counts exist; building them costs O(events).
 * Sorted, or bounded by price, every match is visited and (sorted) placed.
 */
export function listOdds(board: LiveBoard, catalog: Catalog, q: OddsListQuery): OddsPage {
  const { filters, sort } = q;
  const indexed =
    sort === null && filters.row.minOdds === undefined && filters.row.maxOdds === undefined && filters.row.marketTest === undefined;
  return indexed ? indexedPage(board, catalog, q) : scannedPage(board, catalog, q);
}

/** The events matching a filter in board order, with running totals of their matching rows. */
interface MatchIndex {
  ids: string[];
  starts: number[];
  /** prefix[i]: matching rows in the events before i; prefix[ids.length] is the total. */
  prefix: number[];
}

function matchIndex(board: LiveBoard, catalog: Catalog, filters: OddsFilters): MatchIndex {
  const build = (): MatchIndex => {
    const index: MatchIndex = { ids: [], starts: [], prefix: [0] };
    let total = 0;
    for (const ev of candidateEvents(board, filters.event)) {
      if (!eventMatches(ev, filters.event, catalog)) continue;
      const n = board.countRows(ev.id, filters.row.books, filters.row.markets);
      if (n === 0) continue;
      total += n;
      index.ids.push(ev.id);
      index.starts.push(ev.startTime);
      index.prefix.push(total);
    }
    return index;
  };
  // `q` reads league names from the catalog: not a pure function of the board, so not kept.
  return filters.event.q ? build() : board.derive(indexName(filters), build);
}

/** The match index's names by filters: a listing's filters stay one object for as long as it is kept (odds-listing.ts). */
const indexNames = new WeakMap<OddsFilters, string>();

function indexName(filters: OddsFilters): string {
  let name = indexNames.get(filters);
  if (name === undefined) indexNames.set(filters, (name = `odds:${signatureOf(filters)}`));
  return name;
}

function signatureOf({ event: e, row: r }: OddsFilters): string {
  const list = (s: ReadonlySet<string> | undefined): string => (s ? [...s].sort().join(',') : '*');
  return [
    list(e.sports),
    list(e.leagues),
    list(e.eventIds),
    String(e.live),
    list(e.teamIds),
    e.date ?? '*',
    list(r.books),
    list(r.markets),
  ].join('|');
}

function indexedPage(board: LiveBoard, catalog: Catalog, q: OddsListQuery): OddsPage {
  const { filters, limit } = q;
  const { books, markets } = filters.row;
  const index = matchIndex(board, catalog, filters);
  const n = index.ids.length;
  const total = index.prefix[n] ?? 0;
  const after = q.after ?? undefined;
  let i: number;
  let offset: number;
  let skip: number;
  if (after) {
    // The first event at or after the cursor's event.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = index.starts[mid] as number;
      const id = index.ids[mid] as string;
      if (t < after.t || (t === after.t && id < after.e)) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
    offset = index.prefix[i] ?? total;
    skip = 0;
    if (index.ids[i] === after.e && index.starts[i] === after.t) {
      for (const row of board.matchingRows(after.e, books, markets)) {
        if (compareRows(row, after.r) > 0) break;
        skip++;
      }
      offset += skip;
    }
  } else {
    offset = q.offset;
    // The last event whose running total is at most the offset.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((index.prefix[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    i = lo;
    skip = offset - (index.prefix[i] ?? 0);
  }
  const page: Match[] = [];
  const rows: OddsRow[] = [];
  for (; i < n && page.length < limit && offset < total; i++) {
    const event = board.event(index.ids[i] as string);
    if (!event) continue;
    rows.length = 0;
    board.pageRows(event.id, books, markets, skip, limit - page.length, rows);
    for (const row of rows) page.push({ row, event });
    skip = 0;
  }
  return { page, total, offset, hasMore: offset + page.length < total };
}

function scannedPage(board: LiveBoard, catalog: Catalog, q: OddsListQuery): OddsPage {
  const { filters, sort, limit } = q;
  const after = q.after ?? undefined;
  const page: Match[] = [];
  let total = 0;
  let offset = q.offset;
  if (sort === null) {
    let passed = after === undefined;
    let first = -1;
    const end = offset + limit;
    forEachMatch(board, catalog, filters.event, filters.row, (row, ev) => {
      if (!passed && after && comparePositions(positionOf({ row, event: ev }, null), after, null) > 0) passed = true;
      if (passed && (after ? page.length < limit : total >= offset && total < end)) {
        if (first < 0) first = total;
        page.push({ row, event: ev });
      }
      total++;
    });
    if (after) offset = first >= 0 ? first : total;
  } else {
    const all: { m: Match; p: Position }[] = [];
    forEachMatch(board, catalog, filters.event, filters.row, (row, ev) => {
      const m = { row, event: ev };
      all.push({ m, p: positionOf(m, sort) });
    });
    all.sort((a, b) => comparePositions(a.p, b.p, sort));
    total = all.length;
    if (after) {
      let lo = 0;
      let hi = all.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (comparePositions((all[mid] as { p: Position }).p, after, sort) > 0) hi = mid;
        else lo = mid + 1;
      }
      offset = lo;
    }
    for (const x of all.slice(offset, offset + limit)) page.push(x.m);
  }
  return { page, total, offset, hasMore: offset + page.length < total };
}

/** Every row matching the filters, in board order (a stream's snapshot). */
export function allOdds(board: LiveBoard, catalog: Catalog, filters: OddsFilters): Match[] {
  const out: Match[] = [];
  forEachMatch(board, catalog, filters.event, filters.row, (row, event) => {
    out.push({ row, event });
  });
  return out;
}

/** True when a row of `event` is served under the filters (what a stream subscriber mirrors). */
export function oddsMatch(row: OddsRow, event: CanonicalEvent, filters: OddsFilters, catalog: Catalog): boolean {
  return rowMatches(row, filters.row) && eventMatches(event, filters.event, catalog);
}

export interface BestMatch extends Match {
  /** Books (of those served) quoting the outcome. */
  bookCount: number;
}

/**
 * `GET /odds/best`: one row per outcome, the best price among the served books, in board order.
 * Suspended rows are left out (a frozen price cannot be bet), so are outcomes with no other.
 * With the caller's own exchange `commission`, exchange rows compete at their price at that rate
 * (and come back priced at it): the best book is the best for that caller.
 */
export function bestOdds(
  board: LiveBoard,
  catalog: Catalog,
  filters: OddsFilters,
  offset: number,
  limit: number,
  commission?: number,
): { page: BestMatch[]; total: number } {
  const page: BestMatch[] = [];
  let total = 0;
  let best: Match | null = null;
  let books = 0;
  const flush = (): void => {
    if (best && total >= offset && total < offset + limit) page.push({ ...best, bookCount: books });
    if (best) total++;
  };
  forEachMatch(board, catalog, filters.event, filters.row, (boardRow, ev) => {
    if (!boardRow.isActive) return;
    const row = rowAtRate(boardRow, commission);
    if (best && sameOutcome(best.row, row)) {
      books++;
      if (betterPrice(row, best.row)) best = { row, event: ev };
      return;
    }
    flush();
    best = { row, event: ev };
    books = 1;
  });
  flush();
  return { page, total };
}

export interface Comparison {
  event: CanonicalEvent;
  /** Each outcome of the event with its rows across the served books, best price first; board order. */
  outcomes: OddsRow[][];
  books: string[];
}

/** `GET /odds/comparison`: null when the event is unknown or has no odds. Suspended rows are left out, as on /odds/best. */
export function compareOdds(board: LiveBoard, catalog: Catalog, eventId: string, rowFilter: RowFilter): Comparison | null {
  const e = board.event(eventId);
  if (!e || !board.hasOdds(e.id)) return null;
  const outcomes: OddsRow[][] = [];
  const books = new Set<string>();
  let group: OddsRow[] = [];
  const flush = (): void => {
    if (group.length === 0) return;
    group.sort((a, b) => b.priceDecimal - a.priceDecimal || b.ts - a.ts);
    outcomes.push(group);
    group = [];
  };
  forEachMatch(board, catalog, { eventIds: new Set([e.id]) }, rowFilter, (row) => {
    if (!row.isActive) return;
    const first = group[0];
    if (first && !sameOutcome(first, row)) flush();
    group.push(row);
    books.add(row.book);
  });
  flush();
  return { event: e, outcomes, books: [...books].sort() };
}

export interface BatchResult {
  /** Per requested id (duplicates once), its rows in board order. */
  events: { id: string; event: CanonicalEvent | undefined; rows: OddsRow[] }[];
  /** Ids unknown or without odds. */
  missing: string[];
}

/** `POST /odds/batch`. */
export function batchOdds(board: LiveBoard, ids: readonly string[], rowFilter: RowFilter): BatchResult {
  const events: BatchResult['events'] = [];
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const e = board.event(id);
    const rows: OddsRow[] = [];
    if (e) for (const r of board.rowsOf(id)) if (rowMatches(r, rowFilter)) rows.push(r);
    if (!e || !board.hasOdds(id)) missing.push(id);
    events.push({ id, event: e, rows });
  }
  return { events, missing };
}
