import type { TierName } from '../../schemas/index.js';
import { pagination } from '../contract/index.js';
import { presentEvent } from '../contract/index.js';
import { parseFilters } from './parse-filters.js';
import { tierRefusal } from './access.js';
import { openBooks, tierNeededFor } from '../../schemas/index.js';
import { eventMatches } from '../views/index.js';
import type { ReadSide } from './read-side.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

export type EventsQuery = QueryOf<'/api/v1/events'>;

/**
 * `GET /events` and the get_events tool: events of the tier's board (delayed for the free tier),
 * by start time, with the books the tier may see.
 */
export function eventsList(
  deps: Pick<ReadSide, 'catalog' | 'views' | 'gameStates'>,
  tier: TierName,
  query: EventsQuery,
): ReplyOf<'/api/v1/events'> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const visible = openBooks(tier, [...catalog.books.values()]);
  const { limit, offset, has_score: hasScore } = query;
  const { sport: sp, league: lg, sportsbook: sb, live: lv, team: tm, date: dt, q: text } = query;
  const { event: filter, row } = parseFilters({ sport: sp, league: lg, sportsbook: sb, live: lv, team: tm, date: dt, q: text }, catalog);
  // Filtering by a book the tier may not see would tell which events that book lists.
  for (const b of row.books ?? []) {
    if (!visible.has(b)) {
      const needed = tierNeededFor(catalog.books.get(b));
      throw tierRefusal(tier, needed, `Sportsbook '${b}' needs the ${needed} tier or higher; this key is ${tier}`);
    }
  }
  const matches = board
    .activeEvents()
    .filter(
      (e) =>
        eventMatches(e, filter, catalog) &&
        (hasScore === undefined || (deps.gameStates?.get(e.id) !== undefined) === hasScore) &&
        (!row.books || board.booksOf(e.id).some((b) => row.books?.has(b))),
    );
  const data = matches.slice(offset, offset + limit).map((e) => presentEvent(catalog, board, e, visible));
  return {
    success: true,
    data,
    pagination: pagination(limit, offset, matches.length),
    meta: { count: data.length, total: matches.length },
  };
}
