import { openBooks } from '../../schemas/index.js';
import type { CanonicalEvent, TierName } from '../../schemas/index.js';
import { pagination } from '../contract/index.js';
import { presentEvent } from '../contract/index.js';
import { parseOddsFilters } from './parse-filters.js';
import { presentOdds } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { LiveBoard } from '../views/index.js';
import { rowMatches } from '../views/index.js';
import type { ReadSide } from './read-side.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

/**
 * One event of the tier's board (`GET /events/{id}`, its markets and its odds). Events are served
 * from the tier's board, so a delayed tier sees events and odds alike delayed; an id the board
 * does not know is 404.
 */
type EventDeps = Pick<ReadSide, 'catalog' | 'views'>;

function eventOr404(board: LiveBoard, id: string): CanonicalEvent {
  const e = board.event(id);
  if (!e) throw new ApiError('not_found', `Unknown event '${id}'`);
  return e;
}

export function eventDetail(deps: EventDeps, tier: TierName, eventId: string): ReplyOf<'/api/v1/events/{eventId}'> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const visible = openBooks(tier, [...catalog.books.values()]);
  return { success: true, data: presentEvent(catalog, board, eventOr404(board, eventId), visible) };
}

/** Market ids with at least one row for the event now, in board order. */
export function eventMarkets(deps: Pick<ReadSide, 'views'>, tier: TierName, eventId: string): ReplyOf<'/api/v1/events/{eventId}/markets'> {
  const board = deps.views.boardFor(tier);
  return { success: true, data: board.marketsOf(eventOr404(board, eventId).id) };
}

export type EventOddsQuery = QueryOf<'/api/v1/events/{eventId}/odds'>;

/** The event's rows in board order, from the books the tier serves (`sportsbook` and `add_sportsbook` as on /odds). */
export function eventOdds(deps: EventDeps, tier: TierName, eventId: string, q: EventOddsQuery): ReplyOf<'/api/v1/events/{eventId}/odds'> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const e = eventOr404(board, eventId);
  const { limit, offset } = q;
  const { row } = parseOddsFilters({ sportsbook: q.sportsbook, add_sportsbook: q.add_sportsbook, market: q.market }, catalog, tier);
  const rows = board.rowsOf(e.id).filter((r) => rowMatches(r, row));
  const main = board.mainLines(e.id);
  const data = rows.slice(offset, offset + limit).map((r) => presentOdds(catalog, r, e, main));
  return { success: true, data, pagination: pagination(limit, offset, rows.length), meta: { count: data.length, total: rows.length } };
}
