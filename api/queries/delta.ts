import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { eventMatches, rowMatches } from '../views/index.js';
import { maxLogTime } from '../views/index.js';
import type { LogTime } from '../views/index.js';
import type { OddsFilters } from './odds.js';
import { rowId } from '../../pipeline/snapshot/index.js';
import type { ChangedRows } from './log-changes.js';
import { keyParts } from './lost-removals.js';
import type { LostRemoval } from './lost-removals.js';

export interface DeltaItem {
  /** The row in its current state, or (for a removal) the row that went away. */
  row: OddsRow;
  /** The row's event, for presenting an upsert. */
  event: CanonicalEvent | undefined;
  removed: boolean;
  time: LogTime;
}

export type DeltaResult = { ok: true; items: DeltaItem[]; hasMore: boolean; next: LogTime } | { ok: false; floor: LogTime };

/**
 * `GET /odds/delta`: the rows changed and removed after `since`, each once, at the place of its
 * last change, paged by `offset`/`limit`. A row whose event left the `live` state is a removal
 * for that filter. `ok: false` when `since` is older than the board's change window.
 */
export function oddsDelta(
  board: LiveBoard,
  catalog: Catalog,
  filters: OddsFilters,
  since: LogTime,
  offset: number,
  limit: number,
): DeltaResult {
  const log = board.log;
  if (!log.covers(since)) return { ok: false, floor: log.floor };
  const { event: ef, row: rf } = filters;
  const head = log.head();
  const items: DeltaItem[] = [];
  const eventFilter = { ...ef, live: undefined };
  const page = { skipped: 0, hasMore: false, last: null as LogTime | null };
  const take = (item: DeltaItem): boolean => {
    if (page.skipped < offset) {
      page.skipped++;
      return true;
    }
    if (items.length >= limit) {
      page.hasMore = true;
      return false;
    }
    items.push(item);
    page.last = item.time;
    return true;
  };
  log.scan(since, (change) => {
    const row = change.row ?? change.removed;
    if (!row || !rowMatches(row, rf)) return true;
    const ev = board.event(row.eventId);
    if (change.row === null) {
      if (ev && !eventMatches(ev, eventFilter, catalog)) return true;
      return take({ row, event: ev, removed: true, time: change.time });
    }
    // A row whose event is not known yet is not on /odds either; it comes again when the event does.
    if (!ev || !eventMatches(ev, eventFilter, catalog)) return true;
    if (ef.live !== undefined && ev.isLive !== ef.live) return take({ row, event: ev, removed: true, time: change.time });
    return take({ row, event: ev, removed: false, time: change.time });
  });
  const next = page.hasMore && page.last ? page.last : maxLogTime(head, since);
  return { ok: true, items, hasMore: page.hasMore, next };
}

/**
 * A delta from a position this board did not stamp, exactly: the rows `catchUpRows` found changed
 * since it (nothing before it, nothing missed), each as `oddsDelta` would report its last change
 * (an upsert when it is on `/odds` with these filters now, else a removal), all at `time` (the
 * board's head: where the answer leaves the client). Rows no longer on the board come back in
 * `lost`, named by their key.
 */
export function oddsCatchUp(
  board: LiveBoard,
  catalog: Catalog,
  filters: OddsFilters,
  rows: ChangedRows,
  time: LogTime,
): { items: DeltaItem[]; lost: LostRemoval[] } {
  const { event: ef, row: rf } = filters;
  const eventFilter = { ...ef, live: undefined };
  const items: DeltaItem[] = [];
  const lost: LostRemoval[] = [];
  for (const [key, eventId] of rows) {
    const row = board.row(eventId, key);
    const ev = board.event(eventId);
    if (!row) {
      const { market, book } = keyParts(key, eventId);
      if ((rf.books && !rf.books.has(book)) || (rf.markets && !rf.markets.has(market))) continue;
      if (ev && !eventMatches(ev, eventFilter, catalog)) continue;
      lost.push({ key, id: rowId(key), eventId, book, market });
      continue;
    }
    if (!rowMatches(row, rf)) continue;
    if (!ev || !eventMatches(ev, eventFilter, catalog)) {
      lost.push({ key, id: row.id, eventId, book: row.book, market: row.market });
      continue;
    }
    items.push({ row, event: ev, removed: ef.live !== undefined && ev.isLive !== ef.live, time });
  }
  return { items, lost };
}
