import type { CanonicalEvent } from '../../schemas/index.js';
import { presentedChange } from '../views/index.js';
import type { LiveBoard } from '../views/index.js';
import type { LogTime } from '../views/index.js';
import { atOrBefore } from './log-position.js';
import type { Offsets, PositionTrail } from './log-position.js';
import type { ChangelogReader } from './lost-removals.js';

/** Every odds row key whose state may differ between two places in the log, with its event id. */
export type ChangedRows = Map<string, string>;

/**
 * What the log read up to this board's position when the catch-up began: the rows and events
 * changed after the client's position, and the board's change-log time then (what changed after
 * that time the board's own change log lists).
 */
export interface LogCatchUp {
  rows: ChangedRows;
  /** Events changed since, each with its state at the position when the log still had it (null: not there then). */
  events: Map<string, CanonicalEvent | null | undefined>;
  time: LogTime;
}

/** Why a board cannot catch a position up: the caller answers with a fresh snapshot instead. */
export type CatchUpRefusal = 'no_positions' | 'other_log' | 'behind' | 'retention';

/** How long a catch-up waits for this board to reach a position another replica already served. */
export const CATCH_UP_WAIT_MS = 5000;

/**
 * Reads the changelogs from `from` (a position another replica, or this one before a restart,
 * served) up to where this board stands now. The rows and events found there, and everything this
 * board's own change log lists after the time captured with the read's end, are exactly what
 * changed after `from`: nothing before it, nothing missed. A board behind `from` (a replica still
 * loading) is waited for, up to `waitMs`.
 */
export async function readLogSince(
  positions: PositionTrail | undefined,
  read: ChangelogReader | null | undefined,
  from: { log: string; offsets: Offsets },
  board: LiveBoard,
  waitMs = CATCH_UP_WAIT_MS,
): Promise<LogCatchUp | CatchUpRefusal> {
  if (!positions || !read) return 'no_positions';
  if (from.log !== positions.log) return 'other_log';
  const deadline = Date.now() + waitMs;
  while (!atOrBefore(from.offsets, positions.now().offsets)) {
    if (Date.now() >= deadline) return 'behind';
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (read.completeFrom && !atOrBefore(read.completeFrom(), from.offsets)) return 'retention';
  // The same turn: these offsets are exactly what the board had applied at this change-log time.
  const upTo = positions.now().offsets;
  const time = board.log.head();
  const rows: ChangedRows = new Map();
  const events = new Map<string, CanonicalEvent | null | undefined>();
  await read.odds(from.offsets[0] ?? [], upTo[0] ?? [], (change) => rows.set(change.key, change.eventId));
  await read.events(from.offsets[1] ?? [], upTo[1] ?? [], (eventId) => events.set(eventId, undefined));
  // What those events were at the position: an event that changed in nothing its rows present
  // (a new last-seen time) leaves its rows out. The events changelog is small (a record per event change).
  if (events.size > 0) {
    await read.events([], from.offsets[1] ?? [], (eventId, event) => {
      if (events.has(eventId)) events.set(eventId, event);
    });
  }
  return { rows, events, time };
}

/**
 * The catch-up's rows once the caller is back in step with the board (in the same turn as it
 * joins the live frames): those read from the log, every row of an event changed there, and
 * what the board changed after the read's time. Null when the board's change log no longer
 * reaches that time.
 */
export function catchUpRows(board: LiveBoard, read: LogCatchUp): ChangedRows | null {
  if (!board.log.covers(read.time)) return null;
  const rows = new Map(read.rows);
  for (const [eventId, then] of read.events) {
    const now = board.event(eventId);
    if (then && now && !presentedChange(then, now)) continue;
    for (const [key] of board.entriesOf(eventId)) rows.set(key, eventId);
  }
  board.log.scan(read.time, (change) => {
    const row = change.row ?? change.removed;
    if (row) rows.set(change.key, row.eventId);
    return true;
  });
  return rows;
}
