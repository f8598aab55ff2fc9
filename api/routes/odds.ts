import { deepLinkStateParam, putStateInLinks, requestedState } from '../deeplinks/index.js';
import type { FastifyPluginAsync } from 'fastify';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { authErrorResponses, csvParam, dataEnvelope, notFoundResponse, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import { decodeCursor, encodeCursor, queryFingerprint } from '../contract/cursor.js';
import type { Cursor } from '../contract/cursor.js';
import { eventSchema, presentEvent } from '../contract/events.js';
import { addSportsbookParam, parseOddsFilters, sharedFilterParams } from '../contract/filters.js';
import type { OddsFilterQuery } from '../contract/filters.js';
import { CORE_ODDS_FIELDS, ODDS_FIELDS, bestOddsRowSchema, oddsListItemSchema, oddsRowSchema, parseFields, presentGroup, presentOdds, project, selectionKey } from '../contract/odds.js';
import type { PublicOdds } from '../contract/odds.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { openBooks } from '../tiers.js';
import { formatLogTime } from '../views/log-time.js';
import { SORT_VALUES, parseSort, positionOf } from '../views/odds-query.js';
import type { SortSpec } from '../views/odds-query.js';
import { bestOdds, compareOdds, listOdds } from '../queries/index.js';
import { tierOf } from '../plugins/auth.js';

const { sport, league, sportsbook, market, event, event_id: eventId, live, team, date, q, min_odds: minOdds, max_odds: maxOdds } = sharedFilterParams;

interface OddsQuery extends OddsFilterQuery {
  sort?: string;
  fields?: string;
  group_by?: 'event';
  cursor?: string;
  state?: string;
  limit: number;
  offset: number;
}

const listMeta = {
  type: 'object',
  properties: {
    count: { type: 'integer', description: 'Rows on this page.' },
    total: { type: 'integer', description: 'Rows matching the query.' },
    groups: { type: 'integer', description: 'group_by=event: event groups on this page.' },
    next_since: { type: 'string', format: 'date-time', description: 'Pass as `since` to /odds/delta to receive every change after this snapshot.' },
    sort: { type: ['string', 'null'] },
  },
} as const;

export const oddsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, views } = deps;

  app.get<{ Querystring: OddsQuery }>('/odds', {
    schema: {
      tags: ['odds'],
      summary: 'Latest odds, filtered, sorted, projected or grouped',
      description:
        'Latest price of every (event, market, selection, line, sportsbook) the key may see. Default order is the board order ' +
        '(event start, market, line, selection, sportsbook); `sort` orders by one of eight keys. Page with `limit`/`offset`, ' +
        'or walk consistently with `cursor`/`next_cursor` (a walk over live data neither repeats nor skips rows). Free-tier keys ' +
        'read a board delayed by the tier\'s data delay. `meta.next_since` starts a /odds/delta poll from this snapshot.',
      querystring: {
        type: 'object',
        properties: {
          sport, league, sportsbook, add_sportsbook: addSportsbookParam, market, event, event_id: eventId, live, team, date, q, min_odds: minOdds, max_odds: maxOdds,
          sort: { type: 'string', enum: [...SORT_VALUES], description: 'Sort key; a leading - sorts descending. Ties keep board order.' },
          fields: { type: 'string', maxLength: 2000, description: `Comma-separated fields to return on top of the core (${CORE_ODDS_FIELDS.join(', ')}); -name drops one (id always stays); only -names: every field but those. Fields: ${ODDS_FIELDS.join(', ')}.` },
          group_by: { type: 'string', enum: ['event'], description: 'event: group the rows of the page by event.' },
          cursor: { type: 'string', maxLength: 2000, description: 'next_cursor of the previous page; use with the same filters and sort, and without offset.' },
          state: deepLinkStateParam,
          ...pagingParams(100, 1000),
        },
      },
      response: { 200: paginatedEnvelope(oddsListItemSchema, listMeta), ...authErrorResponses },
    },
  }, async (request) => {
    const query = request.query;
    const { limit } = query;
    const tier = tierOf(request);
    const board = views.boardFor(tier);
    const filters = parseOddsFilters({
      sport: query.sport, league: query.league, sportsbook: query.sportsbook, add_sportsbook: query.add_sportsbook, market: query.market, event: query.event,
      live: query.live, team: query.team, date: query.date, q: query.q, min_odds: query.min_odds, max_odds: query.max_odds,
    }, catalog, tier);
    const fields = parseFields(query.fields);
    const state = requestedState(query.state);
    const sort: SortSpec | null = parseSort(query.sort);
    const fingerprint = queryFingerprint({
      sport: query.sport, league: query.league, sportsbook: query.sportsbook, add_sportsbook: query.add_sportsbook, market: query.market,
      event: query.event, live: query.live, team: query.team, date: query.date, q: query.q, min_odds: query.min_odds, max_odds: query.max_odds,
      sort: query.sort, tier,
    });
    let cursor: Cursor | null = null;
    if (query.cursor !== undefined) {
      cursor = decodeCursor(query.cursor);
      if (!cursor) throw new ApiError('invalid_request', "Invalid query parameter 'cursor': not a cursor this API issued");
      if (cursor.q !== fingerprint) throw new ApiError('invalid_request', "Invalid query parameter 'cursor': it belongs to a query with other filters or sort");
      if (query.offset > 0) throw new ApiError('invalid_request', "Invalid query parameter 'offset': not allowed together with cursor");
    }

    const { page, total, offset, hasMore } = listOdds(board, catalog, { filters, sort, after: cursor?.p ?? null, offset: query.offset, limit });
    const last = page[page.length - 1];
    const nextCursor = hasMore && last ? encodeCursor({ q: fingerprint, p: positionOf(last, sort) }) : null;
    const rows = page.map(({ row, event: ev }) => {
      const full = putStateInLinks(presentOdds(catalog, row, ev, board.mainLines(ev.id)), state);
      return fields ? project(full, fields) : full;
    });
    let data: PublicOdds[] = rows;
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
      pagination: { ...pagination(limit, offset, total), has_more: hasMore, next_offset: hasMore ? offset + page.length : null, next_cursor: nextCursor },
      meta: { count: page.length, total, ...(groups === undefined ? {} : { groups }), next_since: formatLogTime(board.log.head()), sort: query.sort ?? null },
    };
  });

  app.get<{ Querystring: OddsFilterQuery & { limit: number; offset: number } }>('/odds/best', {
    schema: {
      tags: ['odds'],
      summary: 'Best price per selection across the sportsbooks the key may see',
      description:
        'One row per outcome (event, market, participant, selection, line): the sportsbook with the highest decimal price ' +
        '(ties: the most recent price), with `book_count`, the number of books quoting it. Board order.',
      querystring: {
        type: 'object',
        properties: { sport, league, sportsbook, add_sportsbook: addSportsbookParam, market, event, event_id: eventId, live, team, date, q, ...pagingParams(100, 1000) },
      },
      response: { 200: paginatedEnvelope(bestOddsRowSchema, listMeta), ...authErrorResponses },
    },
  }, async (request) => {
    const { limit, offset } = request.query;
    const tier = tierOf(request);
    const board = views.boardFor(tier);
    const q = request.query;
    const filters = parseOddsFilters(
      { sport: q.sport, league: q.league, sportsbook: q.sportsbook, add_sportsbook: q.add_sportsbook, market: q.market, event: q.event, live: q.live, team: q.team, date: q.date, q: q.q },
      catalog,
      tier,
    );
    const { page, total } = bestOdds(board, catalog, filters, offset, limit);
    const data = page.map((m) => ({ ...presentOdds(catalog, m.row, m.event, board.mainLines(m.event.id)), book_count: m.bookCount }));
    return { success: true, data, pagination: pagination(limit, offset, total), meta: { count: data.length, total, next_since: formatLogTime(board.log.head()) } };
  });

  app.get<{ Querystring: OddsFilterQuery & { event: string } }>('/odds/comparison', {
    schema: {
      tags: ['odds'],
      summary: "One event's prices side by side across sportsbooks",
      description:
        'Maps each outcome of the event (`market:participant:stat:selection:line`, empty parts left out, e.g. `moneyline:home`, ' +
        '`point_spread:away:2.5`) to its rows across the sportsbooks the key may see, best price first. 400 without `event`, ' +
        '404 for an event without odds.',
      querystring: {
        type: 'object',
        required: ['event'],
        properties: {
          event: { type: 'string', minLength: 1, maxLength: 200, description: 'Event id.' },
          event_id: { type: 'string', maxLength: 200, description: 'Alias of event (what the reference SDK sends).' },
          market: csvParam('Market ids, comma-separated.'),
          sportsbook,
          add_sportsbook: addSportsbookParam,
        },
      },
      response: {
        200: dataEnvelope(
          { type: 'object', additionalProperties: { type: 'array', items: oddsRowSchema }, description: 'Outcome key -> rows, best price first.' },
          { type: 'object', properties: { event: eventSchema, outcomes: { type: 'integer' }, books: { type: 'array', items: { type: 'string' } }, next_since: { type: 'string' } } },
        ),
        404: notFoundResponse,
        ...authErrorResponses,
      },
    },
  }, async (request) => {
    const tier = tierOf(request);
    const board = views.boardFor(tier);
    const filters = parseOddsFilters({ market: request.query.market, sportsbook: request.query.sportsbook, add_sportsbook: request.query.add_sportsbook }, catalog, tier);
    const comparison = compareOdds(board, catalog, request.query.event, filters.row);
    if (!comparison) throw new ApiError('not_found', `Unknown event '${request.query.event}' (or it has no odds now)`);
    const e = comparison.event;
    // Keys carry participant names from the feed: no prototype behind them.
    const data: Record<string, PublicOdds[]> = Object.create(null) as Record<string, PublicOdds[]>;
    for (const rows of comparison.outcomes) data[selectionKey(rows[0] as OddsRow)] = rows.map((r) => presentOdds(catalog, r, e, board.mainLines(e.id)));
    const books = comparison.books;
    return {
      success: true,
      data,
      meta: { event: presentEvent(catalog, board, e, openBooks(tier, [...catalog.books.values()])), outcomes: Object.keys(data).length, books, next_since: formatLogTime(board.log.head()) },
    };
  });
};
