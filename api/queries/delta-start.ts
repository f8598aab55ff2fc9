import { ApiError } from '../errors.js';
import { parseLogTime } from '../views/index.js';
import type { LogTime } from '../views/index.js';
import { atOrBefore, decodePosition, encodePosition } from './log-position.js';
import type { Offsets, PositionTrail } from './log-position.js';

/** Where a delta starts on this board, and the position it came from when another board stamped it. */
export interface DeltaStart {
  since: LogTime;
  /** The offsets of a cursor this board did not stamp (its removals must be read from the log too); null otherwise. */
  foreign: Offsets | null;
}

/**
 * Where a delta starts, from `since` (a time on this board's change log) or `cursor` (a position
 * in the changelogs, `log-position.ts`): exactly one of them. A cursor this board stamped itself
 * starts at its exact time; one from another replica, or from before a restart, starts at this
 * board's time for its offsets. Bad input is the 400 naming the parameter; a cursor this board
 * can no longer answer (another log, offsets older than the change window, a delayed board that
 * did not stamp it) is the 410 naming it, as an old `since` is.
 */
export function deltaStart(
  query: { since?: string; cursor?: string },
  positions: PositionTrail | undefined,
  feed: { name: string; live: boolean },
): DeltaStart {
  if (query.since !== undefined && query.cursor !== undefined) {
    throw new ApiError('invalid_request', "Invalid query parameter 'cursor': give either 'cursor' or 'since', not both");
  }
  if (query.cursor === undefined) {
    if (query.since === undefined) throw new ApiError('invalid_request', "Missing required query parameter 'since'");
    const since = parseLogTime(query.since);
    if (!since)
      throw new ApiError('invalid_request', `Invalid query parameter 'since': '${query.since}' is not a valid RFC 3339 date-time`);
    return { since, foreign: null };
  }
  const position = decodePosition(query.cursor);
  if (!position) throw new ApiError('invalid_request', "Invalid query parameter 'cursor': not a cursor of /odds/delta or /odds");
  const resync = (why: string): ApiError =>
    new ApiError('resync_required', `Parameter 'cursor' ${why}; reload /odds and poll /odds/delta from its meta.delta_cursor`);
  if (!positions) throw resync('cannot be followed on this server (it keeps no log positions)');
  if (position.log !== positions.log) throw resync('names a position in another log (the in-process bus restarted, or another cluster)');
  const complete = positions.read?.completeFrom?.();
  if (complete && !atOrBefore(complete, position.offsets)) throw resync("is older than the log's retention of removals");
  if (position.at && position.at.board === boardName(positions, feed)) return { since: position.at.time, foreign: null };
  if (!feed.live) throw resync('was issued by another replica, and delayed boards resume only on the replica that issued the cursor');
  const time = positions.timeOf(position.offsets);
  if (!time) throw resync('is older than the change window');
  return { since: time, foreign: position.offsets };
}

/** The cursor that continues a delta from `time` of the board of `feed`. */
export function deltaCursor(positions: PositionTrail, feed: { name: string; live: boolean }, time: LogTime): string {
  const p = positions.at(time);
  // A delayed board's times are its own: other replicas read the offsets, only this one the time.
  return encodePosition({ ...p, at: { board: boardName(positions, feed), time } });
}

/** Names the board that stamped a time: this run of the live board, or one of its delayed followers. */
function boardName(positions: PositionTrail, feed: { name: string; live: boolean }): string {
  return feed.live ? positions.board : `${positions.board}.${feed.name}`;
}
