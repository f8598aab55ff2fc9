import type { CanonicalEvent, OddsRow, TierName } from '../../schemas/index.js';
import { pagination } from '../contract/common.js';
import { decodeCursor, encodeCursor, queryFingerprint } from '../contract/cursor.js';
import type { Cursor } from '../contract/cursor.js';
import { presentEvent } from '../contract/events.js';
import { parseOddsFilters } from './parse-filters.js';
import type { OddsFilterQuery } from './parse-filters.js';
import { parseFields, presentGroup, presentOdds, project, selectionKey } from '../contract/odds.js';
import type { PublicOdds } from '../contract/odds.js';
import { putStateInLinks, requestedState } from '../deeplinks/index.js';
import { ApiError } from '../errors.js';
import { TIERS, openBooks, tiersByBatchSize } from '../../schemas/index.js';
import { formatLogTime, parseLogTime } from '../views/log-time.js';
import { parseSort, positionOf } from './odds-query.js';
import type { SortSpec } from './odds-query.js';
import type { MainLines } from '../views/main-lines.js';
import { oddsDelta } from './delta.js';
import { batchOdds, bestOdds, compareOdds, listOdds } from './odds.js';
import type { ReadSide } from './read-side.js';

/**
 * The odds answers (list, best prices, comparison, batch, delta) as every interface gives them:
 * REST routes and MCP tools pass the parsed query and the caller's tier, and present the body as
 * is. Tier rules (books, data delay) and the semantic checks of the query live here, once.
 */
type OddsDeps = Pick<ReadSide, 'catalog' | 'views'>;

export interface OddsQuery extends OddsFilterQuery {
  sort?: string;
  fields?: string;
  group_by?: 'event';
  cursor?: string;
  /** US state for the deep links of the rows. */
  state?: string;
  limit: number;
  offset: number;
}

/**
 * How a plain page presents a row: the public object by default; an interface with a faster
 * form of the same row (REST's ready JSON) passes its own. Projected and grouped pages always
 * use the object.
 */
export type RowPresenter = (row: OddsRow, event: CanonicalEvent, main: MainLines) => unknown;

export function oddsList(deps: OddsDeps, tier: TierName, query: OddsQuery, presentRow?: RowPresenter): Record<string, unknown> {
  const { catalog, views } = deps;
  const { limit } = query;
  const board = views.boardFor(tier);
  const filters = parseOddsFilters(
    {
      sport: query.sport,
      league: query.league,
      sportsbook: query.sportsbook,
      add_sportsbook: query.add_sportsbook,
      market: query.market,
      event: query.event,
      live: query.live,
      team: query.team,
      date: query.date,
      q: query.q,
      min_odds: query.min_odds,
      max_odds: query.max_odds,
    },
    catalog,
    tier,
  );
  const fields = parseFields(query.fields);
  const state = requestedState(query.state);
  const sort: SortSpec | null = parseSort(query.sort);
  const fingerprint = queryFingerprint({
    sport: query.sport,
    league: query.league,
    sportsbook: query.sportsbook,
    add_sportsbook: query.add_sportsbook,
    market: query.market,
    event: query.event,
    live: query.live,
    team: query.team,
    date: query.date,
    q: query.q,
    min_odds: query.min_odds,
    max_odds: query.max_odds,
    sort: query.sort,
    tier,
  });
  let cursor: Cursor | null = null;
  if (query.cursor !== undefined) {
    cursor = decodeCursor(query.cursor);
    if (!cursor) throw new ApiError('invalid_request', "Invalid query parameter 'cursor': not a cursor this API issued");
    if (cursor.q !== fingerprint)
      throw new ApiError('invalid_request', "Invalid query parameter 'cursor': it belongs to a query with other filters or sort");
    if (query.offset > 0) throw new ApiError('invalid_request', "Invalid query parameter 'offset': not allowed together with cursor");
  }

  const { page, total, offset, hasMore } = listOdds(board, catalog, {
    filters,
    sort,
    after: cursor?.p ?? null,
    offset: query.offset,
    limit,
  });
  const last = page[page.length - 1];
  const nextCursor = hasMore && last ? encodeCursor({ q: fingerprint, p: positionOf(last, sort) }) : null;
  const plain = presentRow !== undefined && !fields && query.group_by !== 'event' && state === undefined;
  const rows = plain
    ? []
    : page.map(({ row, event: ev }) => {
        const full = putStateInLinks(presentOdds(catalog, row, ev, board.mainLines(ev.id)), state);
        return fields ? project(full, fields) : full;
      });
  let data: unknown[] = plain ? page.map(({ row, event: ev }) => presentRow(row, ev, board.mainLines(ev.id))) : rows;
  let groups: number | undefined;
  if (query.group_by === 'event') {
    const byEvent = new Map<string, { event: CanonicalEvent; odds: PublicOdds[] }>();
    page.forEach(({ event: ev }, i) => {
      const g = byEvent.get(ev.id) ?? { event: ev, odds: [] };
      g.odds.push(rows[i] as PublicOdds);
      byEvent.set(ev.id, g);
    });
    data = [...byEvent.values()].map((g) => presentGroup(catalog, g.event, g.odds));
    groups = data.length;
  }
  return {
    success: true,
    data,
    pagination: {
      ...pagination(limit, offset, total),
      has_more: hasMore,
      next_offset: hasMore ? offset + page.length : null,
      next_cursor: nextCursor,
    },
    meta: {
      count: page.length,
      total,
      ...(groups === undefined ? {} : { groups }),
      next_since: formatLogTime(board.log.head()),
      sort: query.sort ?? null,
    },
  };
}

export interface BestOddsQuery extends OddsFilterQuery {
  limit: number;
  offset: number;
}

export function bestOddsList(deps: OddsDeps, tier: TierName, q: BestOddsQuery): Record<string, unknown> {
  const { catalog, views } = deps;
  const { limit, offset } = q;
  const board = views.boardFor(tier);
  const filters = parseOddsFilters(
    {
      sport: q.sport,
      league: q.league,
      sportsbook: q.sportsbook,
      add_sportsbook: q.add_sportsbook,
      market: q.market,
      event: q.event,
      live: q.live,
      team: q.team,
      date: q.date,
      q: q.q,
    },
    catalog,
    tier,
  );
  const { page, total } = bestOdds(board, catalog, filters, offset, limit);
  const data = page.map((m) => ({ ...presentOdds(catalog, m.row, m.event, board.mainLines(m.event.id)), book_count: m.bookCount }));
  return {
    success: true,
    data,
    pagination: pagination(limit, offset, total),
    meta: { count: data.length, total, next_since: formatLogTime(board.log.head()) },
  };
}

export interface ComparisonQuery {
  event: string;
  market?: string;
  sportsbook?: string;
  add_sportsbook?: string;
}

export function oddsComparison(deps: OddsDeps, tier: TierName, q: ComparisonQuery): Record<string, unknown> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const filters = parseOddsFilters({ market: q.market, sportsbook: q.sportsbook, add_sportsbook: q.add_sportsbook }, catalog, tier);
  const comparison = compareOdds(board, catalog, q.event, filters.row);
  if (!comparison) throw new ApiError('not_found', `Unknown event '${q.event}' (or it has no odds now)`);
  const e = comparison.event;
  // Keys carry participant names from the feed: no prototype behind them.
  const data: Record<string, PublicOdds[]> = Object.create(null) as Record<string, PublicOdds[]>;
  for (const rows of comparison.outcomes)
    data[selectionKey(rows[0] as OddsRow)] = rows.map((r) => presentOdds(catalog, r, e, board.mainLines(e.id)));
  const books = comparison.books;
  return {
    success: true,
    data,
    meta: {
      event: presentEvent(catalog, board, e, openBooks(tier, [...catalog.books.values()])),
      outcomes: Object.keys(data).length,
      books,
      next_since: formatLogTime(board.log.head()),
    },
  };
}

export interface BatchQuery {
  event_ids: string[];
  sportsbook?: string;
  market?: string;
}

export function oddsBatch(deps: OddsDeps, tier: TierName, body: BatchQuery): Record<string, unknown> {
  const { catalog, views } = deps;
  const ids = [...new Set(body.event_ids)];
  const max = TIERS[tier].batchEvents;
  if (ids.length > max) {
    throw new ApiError(
      'invalid_request',
      `Invalid body field 'event_ids': ${ids.length} events, the ${tier} tier allows at most ${max} per batch (${tiersByBatchSize()})`,
    );
  }
  const board = views.boardFor(tier);
  const { row: rf } = parseOddsFilters({ sportsbook: body.sportsbook, market: body.market }, catalog, tier, 'body field');
  const { events, missing } = batchOdds(board, ids, rf);
  // Event ids are client input: `__proto__` must be a key like any other, not the prototype.
  const data: Record<string, PublicOdds[]> = Object.create(null) as Record<string, PublicOdds[]>;
  let rows = 0;
  for (const { id, event, rows: list } of events) {
    data[id] = event ? list.map((r) => presentOdds(catalog, r, event, board.mainLines(id))) : [];
    rows += list.length;
  }
  return { success: true, data, meta: { events: ids.length, rows, missing } };
}

export interface DeltaQuery {
  since: string;
  sport?: string;
  league?: string;
  sportsbook?: string;
  add_sportsbook?: string;
  market?: string;
  event?: string;
  live?: boolean;
  /** US state for the deep links of the rows. */
  state?: string;
  limit: number;
  offset: number;
}

export function oddsDeltaPage(
  deps: OddsDeps & Pick<ReadSide, 'clock'>,
  tier: TierName,
  query: DeltaQuery,
  presentRow?: RowPresenter,
): Record<string, unknown> {
  const { catalog, views } = deps;
  const since = parseLogTime(query.since);
  if (!since) throw new ApiError('invalid_request', `Invalid query parameter 'since': '${query.since}' is not a valid RFC 3339 date-time`);
  const state = requestedState(query.state);
  const present: RowPresenter =
    presentRow && state === undefined ? presentRow : (row, event, main) => putStateInLinks(presentOdds(catalog, row, event, main), state);
  const board = views.boardFor(tier);
  const filters = parseOddsFilters(
    {
      sport: query.sport,
      league: query.league,
      sportsbook: query.sportsbook,
      add_sportsbook: query.add_sportsbook,
      market: query.market,
      event: query.event,
      live: query.live,
    },
    catalog,
    tier,
  );
  const { limit, offset } = query;
  const delta = oddsDelta(board, catalog, filters, since, offset, limit);
  if (!delta.ok) {
    throw new ApiError(
      'resync_required',
      `Parameter 'since' is older than the change window (oldest answerable: ${formatLogTime(delta.floor)}); reload /odds and poll /odds/delta from its meta.next_since`,
    );
  }
  const data: unknown[] = [];
  const removed: Record<string, unknown>[] = [];
  for (const item of delta.items) {
    const r = item.row;
    if (item.removed || !item.event)
      removed.push({ id: r.id, event_id: r.eventId, sportsbook: r.book, market: r.market, removed_at: formatLogTime(item.time) });
    else data.push(present(r, item.event, board.mainLines(item.event.id)));
  }
  const { hasMore, next } = delta;
  const count = data.length + removed.length;
  return {
    success: true,
    data,
    removed,
    pagination: { limit, offset, has_more: hasMore, next_offset: hasMore ? offset + count : null },
    meta: {
      since: formatLogTime(since),
      next_since: formatLogTime(next),
      server_time: new Date(deps.clock.now()).toISOString(),
      count,
      changed_count: data.length,
      removed_count: removed.length,
    },
  };
}
