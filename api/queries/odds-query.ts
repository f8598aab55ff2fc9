import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { compareRows } from '../views/index.js';
import type { LiveBoard, RowPlace } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { eventMatches, rowMatches } from '../views/index.js';
import type { EventFilter, RowFilter } from '../views/index.js';

export interface Match {
  row: OddsRow;
  event: CanonicalEvent;
}

/**
 * Visits the rows matching both filters in board order; stops when `visit` returns false. An
 * event's rows are read through its market and book index, so rows of other books and markets
 * are not visited.
 */
export function forEachMatch(
  board: LiveBoard,
  catalog: Catalog,
  ef: EventFilter,
  rf: RowFilter,
  visit: (row: OddsRow, event: CanonicalEvent) => boolean | void,
): void {
  for (const e of candidateEvents(board, ef)) {
    if (!eventMatches(e, ef, catalog)) continue;
    for (const r of board.matchingRows(e.id, rf.books, rf.markets)) {
      if (!rowMatches(r, rf)) continue;
      if (visit(r, e) === false) return;
    }
  }
}

/** Events with odds that may match, in board order: a few named ones are looked up, not searched for. */
export function candidateEvents(board: LiveBoard, ef: EventFilter): readonly CanonicalEvent[] {
  return ef.eventIds && ef.eventIds.size <= 16 ? eventsById(board, ef.eventIds) : board.activeEvents();
}

function eventsById(board: LiveBoard, ids: ReadonlySet<string>): CanonicalEvent[] {
  const out: CanonicalEvent[] = [];
  for (const id of ids) {
    const e = board.event(id);
    if (e && board.hasOdds(id)) out.push(e);
  }
  return out.sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The eight sort keys of `GET /odds`; `-key` sorts descending. */
export const SORT_KEYS = [
  'odds_american',
  'odds_decimal',
  'probability',
  'timestamp',
  'event_start_time',
  'sportsbook',
  'sport',
  'league',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
/** Other names clients use for a sort key: the reference's pages also call probability odds_probability. */
const SORT_ALIASES: ReadonlyMap<string, SortKey> = new Map([['odds_probability', 'probability']]);
export const SORT_VALUES: readonly string[] = [...SORT_KEYS, ...SORT_ALIASES.keys()].flatMap((k) => [k, `-${k}`]);

export interface SortSpec {
  key: SortKey;
  desc: boolean;
}

export function parseSort(value: string | undefined): SortSpec | null {
  if (value === undefined) return null;
  const desc = value.startsWith('-');
  const name = desc ? value.slice(1) : value;
  const key = SORT_ALIASES.get(name) ?? (name as SortKey);
  return SORT_KEYS.includes(key) ? { key, desc } : null;
}

export function sortValue(m: Match, key: SortKey): number | string {
  switch (key) {
    case 'odds_american':
      return m.row.priceAmerican;
    case 'odds_decimal':
      return m.row.priceDecimal;
    case 'probability':
      return m.row.probability;
    case 'timestamp':
      return m.row.ts;
    case 'event_start_time':
      return m.event.startTime;
    case 'sportsbook':
      return m.row.book;
    case 'sport':
      return m.event.sport;
    case 'league':
      return m.event.league;
  }
}

/**
 * A place in a listing: the sort value (when sorted) and the board position (event start, event
 * id, row place), which breaks every tie, so the order is total and a cursor names one point.
 */
export interface Position {
  v: number | string | null;
  t: number;
  e: string;
  r: RowPlace;
}

export function positionOf(m: Match, sort: SortSpec | null): Position {
  const { market, participant, statCategory, line, selection, book } = m.row;
  return {
    v: sort ? sortValue(m, sort.key) : null,
    t: m.event.startTime,
    e: m.event.id,
    r: { market, participant, statCategory, line, selection, book },
  };
}

function cmp(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function comparePositions(a: Position, b: Position, sort: SortSpec | null): number {
  if (sort && a.v !== null && b.v !== null) {
    const c = cmp(a.v, b.v);
    if (c !== 0) return sort.desc ? -c : c;
  }
  return a.t - b.t || (a.e < b.e ? -1 : a.e > b.e ? 1 : 0) || compareRows(a.r, b.r);
}
