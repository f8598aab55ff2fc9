import type { CanonicalEvent, OddsRow, TierName } from '../../schemas/index.js';
import { pagination } from '../contract/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Cursor } from './cursor.js';
import { presentEvent } from '../contract/index.js';
import { parseOddsFilters } from './parse-filters.js';
import { listingOf } from './odds-listing.js';
import { parseFields, presentGroup, presentOdds, project, selectionKey } from '../contract/index.js';
import type { OddsListItem, PublicOdds, ReadyRow } from '../contract/index.js';
import { RawRows } from '../contract/index.js';
import type { QueryOf, ReplyOf, ReplyWithData, RouteTypes } from '../contract/index.js';
import { putStateInLinks, requestedState } from '../deeplinks/index.js';
import { ApiError } from '../errors.js';
import { TIERS, openBooks, tiersByBatchSize } from '../../schemas/index.js';
import { formatLogTime } from '../views/index.js';
import { parseSort, positionOf } from './odds-query.js';
import type { Match, SortSpec } from './odds-query.js';
import type { MainLines } from '../views/index.js';
import { oddsCatchUp, oddsDelta } from './delta.js';
import type { DeltaResult } from './delta.js';
import { catchUpRows, readLogSince } from './log-changes.js';
import { rowAtCommission } from '../../pipeline/opportunities/index.js';
import { rowAtRate } from './account-rate.js';
import { deltaCursor, deltaStart } from './delta-start.js';
import { lostRemovals } from './lost-removals.js';
import { batchOdds, bestOdds, compareOdds, listOdds } from './odds.js';
import type { ReadSide } from './read-side.js';

/**
 * The odds answers (list, best prices, comparison, batch, delta) as every interface gives them:
 * REST routes and MCP tools pass the parsed query and the caller's tier, and present the body as
 * is. Tier rules (books, data delay) and the semantic checks of the query live here, once.
 */
type OddsDeps = Pick<ReadSide, 'catalog' | 'views'>;

export type OddsQuery = QueryOf<'/api/v1/odds'>;

/**
 * A row's JSON as the route's schema writes it: an interface whose serializer splices such rows
 * (REST, contract/odds-fragments.ts) passes one, and a plain page's `data` is then those rows,
 * serialized ahead (`RawRows`). Projected, grouped and deep-link-state pages always present objects.
 */
export type RowSerializer = (row: OddsRow, event: CanonicalEvent, main: MainLines) => ReadyRow;

/** The rows of a plain page, serialized ahead; an empty page stays a plain empty list. */
function rawRows(json: ReadyRow[]): RawRows | PublicOdds[] {
  return json.length > 0 ? new RawRows(json) : [];
}

export function oddsList(
  deps: OddsDeps & Pick<ReadSide, 'positions'>,
  tier: TierName,
  query: OddsQuery,
  serializeRow?: RowSerializer,
): ReplyWithData<'/api/v1/odds', RawRows> {
  const { catalog, views } = deps;
  const { limit } = query;
  const board = views.boardFor(tier);
  const { filters, fingerprint } = listingOf(catalog, tier, query, query.sort);
  const fields = parseFields(query.fields);
  const state = requestedState(query.state);
  const sort: SortSpec | null = parseSort(query.sort);
  // A cursor belongs to the filters and sort it was issued for.
  let cursor: Cursor | null = null;
  if (query.cursor !== undefined) {
    cursor = decodeCursor(query.cursor);
    if (!cursor) throw new ApiError('invalid_request', "Invalid query parameter 'cursor': not a cursor this API issued");
    if (cursor.q !== fingerprint)
      throw new ApiError('invalid_request', "Invalid query parameter 'cursor': it belongs to a query with other filters or sort");
    if (query.offset > 0) throw new ApiError('invalid_request', "Invalid query parameter 'offset': not allowed together with cursor");
  }

  const {
    page: listed,
    total,
    offset,
    hasMore,
  } = listOdds(board, catalog, {
    filters,
    sort,
    after: cursor?.p ?? null,
    offset: query.offset,
    limit,
  });
  // Filters and order are the board's; the caller's own commission rate prices the page's exchange rows.
  const commission = query.commission;
  const page = commission === undefined ? listed : listed.map((m) => ({ ...m, row: rowAtRate(m.row, commission) }));
  const last = listed[listed.length - 1];
  const nextCursor = hasMore && last ? encodeCursor({ q: fingerprint, p: positionOf(last, sort) }) : null;
  // Rows serialized ahead are the board's; a page priced at another rate is presented row by row.
  const plain = serializeRow !== undefined && !fields && query.group_by !== 'event' && state === undefined && commission === undefined;
  const present = ({ row, event: ev }: Match): Partial<PublicOdds> => {
    const full = putStateInLinks(presentOdds(catalog, row, ev, board.mainLines(ev.id)), state);
    return fields ? project(full, fields) : full;
  };
  let data: OddsListItem[] | RawRows;
  let groups: number | undefined;
  if (plain) data = rawRows(page.map(({ row, event: ev }) => serializeRow(row, ev, board.mainLines(ev.id))));
  else if (query.group_by === 'event') {
    const byEvent = new Map<string, { event: CanonicalEvent; odds: Partial<PublicOdds>[] }>();
    for (const m of page) {
      const g = byEvent.get(m.event.id) ?? { event: m.event, odds: [] };
      g.odds.push(present(m));
      byEvent.set(m.event.id, g);
    }
    data = [...byEvent.values()].map((g) => presentGroup(catalog, g.event, g.odds));
    groups = data.length;
  } else data = page.map(present);
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
      ...(deps.positions ? { delta_cursor: deltaCursor(deps.positions, feedOf(views, tier), board.log.head()) } : {}),
      sort: query.sort ?? null,
    },
  };
}

/** One outcome's rows at the caller's rate, best price first again (ties keep the board's order). */
function bestFirstAtRate(rows: readonly OddsRow[], commission: number | undefined): readonly OddsRow[] {
  if (commission === undefined) return rows;
  return rows.map((r) => rowAtCommission(r, commission)).sort((a, b) => (b.priceDecimal ?? 0) - (a.priceDecimal ?? 0));
}

export type BestOddsQuery = QueryOf<'/api/v1/odds/best'>;

export function bestOddsList(deps: OddsDeps, tier: TierName, q: BestOddsQuery): ReplyOf<'/api/v1/odds/best'> {
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
  // The best book at the caller's own rate: its rows come back priced at it.
  const { page, total } = bestOdds(board, catalog, filters, offset, limit, q.commission);
  const data = page.map((m) => ({
    ...presentOdds(catalog, m.row, m.event, board.mainLines(m.event.id)),
    book_count: m.bookCount,
  }));
  return {
    success: true,
    data,
    pagination: pagination(limit, offset, total),
    meta: { count: data.length, total, next_since: formatLogTime(board.log.head()) },
  };
}

export type ComparisonQuery = QueryOf<'/api/v1/odds/comparison'>;
type OddsByKey = ReplyOf<'/api/v1/odds/comparison'>['data'];

export function oddsComparison(deps: OddsDeps, tier: TierName, q: ComparisonQuery): ReplyOf<'/api/v1/odds/comparison'> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const filters = parseOddsFilters({ market: q.market, sportsbook: q.sportsbook, add_sportsbook: q.add_sportsbook }, catalog, tier);
  const comparison = compareOdds(board, catalog, q.event, filters.row);
  if (!comparison) throw new ApiError('not_found', `Unknown event '${q.event}' (or it has no odds now)`);
  const e = comparison.event;
  // Keys carry participant names from the feed: no prototype behind them.
  const data: OddsByKey = Object.create(null) as OddsByKey;
  for (const rows of comparison.outcomes)
    data[selectionKey(rows[0] as OddsRow)] = bestFirstAtRate(rows, q.commission).map((r) =>
      presentOdds(catalog, r, e, board.mainLines(e.id)),
    );
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

export type BatchQuery = RouteTypes<'/api/v1/odds/batch', 'post'>['Body'];
type OddsByEvent = ReplyOf<'/api/v1/odds/batch', 'post'>['data'];

export function oddsBatch(deps: OddsDeps, tier: TierName, body: BatchQuery): ReplyOf<'/api/v1/odds/batch', 'post'> {
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
  const data: OddsByEvent = Object.create(null) as OddsByEvent;
  let rows = 0;
  for (const { id, event, rows: list } of events) {
    data[id] = event ? list.map((r) => presentOdds(catalog, rowAtRate(r, body.commission), event, board.mainLines(id))) : [];
    rows += list.length;
  }
  return { success: true, data, meta: { events: ids.length, rows, missing } };
}

/** The board a tier reads, as a delta position names it. */
function feedOf(views: ReadSide['views'], tier: TierName): { name: string; live: boolean } {
  return { name: views.feedFor(tier), live: views.boardFor(tier) === views.live };
}

export type DeltaQuery = QueryOf<'/api/v1/odds/delta'>;
type RemovedRow = ReplyOf<'/api/v1/odds/delta'>['removed'][number];

/** A removal as the delta names it, from the board's row or from the changelog's key alone. */
function removedRow(r: { id: string; eventId: string; book: string; market: RemovedRow['market'] }, at: string): RemovedRow {
  return { id: r.id, event_id: r.eventId, sportsbook: r.book, market: r.market, removed_at: at };
}

export async function oddsDeltaPage(
  deps: OddsDeps & Pick<ReadSide, 'clock' | 'positions'>,
  tier: TierName,
  query: DeltaQuery,
  serializeRow?: RowSerializer,
): Promise<ReplyWithData<'/api/v1/odds/delta', RawRows>> {
  const { catalog, views } = deps;
  const board = views.boardFor(tier);
  const feed = feedOf(views, tier);
  const { since, foreign } = deltaStart(query, deps.positions, feed);
  const state = requestedState(query.state);
  const { commission } = query;
  // A row priced at the caller's own rate is presented afresh, not from its serialized fragment.
  const serialize = state === undefined && commission === undefined ? serializeRow : undefined;
  const { filters } = listingOf(catalog, tier, query, undefined);
  const { limit, offset } = query;
  const positions = deps.positions;
  // A position another replica (or this one before a restart) stamped: read from the log what
  // changed since it, and answer exactly that when it fits one page.
  const read =
    foreign && positions?.read && offset === 0
      ? await readLogSince(positions, positions.read, { log: positions.log, offsets: foreign }, views.live, 0)
      : null;
  const sinceRead = read !== null && typeof read !== 'string' ? catchUpRows(views.live, read) : null;
  const caughtUp = sinceRead !== null && sinceRead.size <= limit ? oddsCatchUp(board, catalog, filters, sinceRead, board.log.head()) : null;
  // Else from this board's checkpoint at or before the position; only the first page: later
  // pages continue by a cursor this board stamped.
  const lost =
    caughtUp?.lost ??
    (foreign && positions?.read && offset === 0
      ? await lostRemovals(positions.read.odds, foreign[0] ?? [], positions.now().offsets[0] ?? [], views.live, catalog, filters)
      : []);
  const delta: DeltaResult = caughtUp
    ? { ok: true, items: caughtUp.items, hasMore: false, next: board.log.head() }
    : oddsDelta(board, catalog, filters, since, offset, limit);
  if (!delta.ok) {
    throw new ApiError(
      'resync_required',
      `Parameter '${query.cursor === undefined ? 'since' : 'cursor'}' is older than the change window (oldest answerable: ${formatLogTime(delta.floor)}); reload /odds and poll /odds/delta from its meta.next_since`,
    );
  }
  const rows: PublicOdds[] = [];
  const json: ReadyRow[] = [];
  const removed: RemovedRow[] = [];
  const reported = new Set(delta.items.map((item) => item.row.id));
  const removedAt = formatLogTime(since);
  for (const r of lost) {
    if (!reported.has(r.id)) removed.push(removedRow(r, removedAt));
  }
  for (const item of delta.items) {
    const r = item.row;
    if (item.removed || !item.event) removed.push(removedRow(r, formatLogTime(item.time)));
    else if (serialize) json.push(serialize(r, item.event, board.mainLines(item.event.id)));
    else rows.push(putStateInLinks(presentOdds(catalog, rowAtRate(r, commission), item.event, board.mainLines(item.event.id)), state));
  }
  const { hasMore, next } = delta;
  const changed = rows.length + json.length;
  const count = changed + removed.length;
  const nextCursor = deps.positions ? deltaCursor(deps.positions, feed, next) : undefined;
  return {
    success: true,
    data: serialize ? rawRows(json) : rows,
    removed,
    pagination: {
      limit,
      offset,
      has_more: hasMore,
      next_offset: hasMore ? offset + count : null,
      ...(nextCursor !== undefined ? { next_cursor: hasMore ? nextCursor : null } : {}),
    },
    meta: {
      since: formatLogTime(since),
      next_since: formatLogTime(next),
      ...(nextCursor !== undefined ? { next_cursor: nextCursor } : {}),
      server_time: new Date(deps.clock.now()).toISOString(),
      count,
      changed_count: changed,
      removed_count: removed.length,
    },
  };
}
