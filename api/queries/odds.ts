import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { LiveBoard } from '../views/board.js';
import type { Catalog } from '../views/catalog.js';
import { eventMatches, rowMatches } from '../views/filters.js';
import type { EventFilter, RowFilter } from '../views/filters.js';
import { candidateEvents, comparePositions, forEachMatch, positionOf } from '../views/odds-query.js';
import type { Match, Position, SortSpec } from '../views/odds-query.js';
import { betterPrice, sameOutcome } from './row-identity.js';

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
 * One page of `GET /odds`. In board order one pass counts every match and materialises only the
 * page: without price bounds an event's matches are counted from the board's counters, so only
 * the events the page overlaps are visited row by row. Sorted, every match is placed and sorted.
 */
export function listOdds(board: LiveBoard, catalog: Catalog, q: OddsListQuery): OddsPage {
  const { filters, sort, limit } = q;
  const after = q.after ?? undefined;
  const page: Match[] = [];
  let total = 0;
  let offset = q.offset;
  if (sort === null) {
    const countable = filters.row.minOdds === undefined && filters.row.maxOdds === undefined && filters.row.marketTest === undefined;
    let passed = after === undefined;
    let first = -1;
    const end = offset + limit;
    for (const ev of candidateEvents(board, filters.event)) {
      if (!eventMatches(ev, filters.event, catalog)) continue;
      if (countable) {
        const n = board.countRows(ev.id, filters.row.books, filters.row.markets);
        const skip = after
          ? page.length >= limit || ev.startTime < after.t || (ev.startTime === after.t && ev.id < after.e)
          : total + n <= offset || total >= end;
        if (skip) {
          total += n;
          continue;
        }
      }
      for (const row of board.rowsOf(ev.id)) {
        if (!rowMatches(row, filters.row)) continue;
        if (!passed && after && comparePositions(positionOf({ row, event: ev }, null), after, null) > 0) passed = true;
        if (passed && (after ? page.length < limit : total >= offset && total < end)) {
          if (first < 0) first = total;
          page.push({ row, event: ev });
        }
        total++;
      }
    }
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

/** `GET /odds/best`: one row per outcome, the best price among the served books, in board order. */
export function bestOdds(board: LiveBoard, catalog: Catalog, filters: OddsFilters, offset: number, limit: number): { page: BestMatch[]; total: number } {
  const page: BestMatch[] = [];
  let total = 0;
  let best: Match | null = null;
  let books = 0;
  const flush = (): void => {
    if (best && total >= offset && total < offset + limit) page.push({ ...best, bookCount: books });
    if (best) total++;
  };
  forEachMatch(board, catalog, filters.event, filters.row, (row, ev) => {
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

/** `GET /odds/comparison`: null when the event is unknown or has no odds. */
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
