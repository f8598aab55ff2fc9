import type { FastifyPluginAsync } from 'fastify';
import type { CanonicalEvent, TierName } from '../../schemas/index.js';
import { openBooks } from '../../schemas/index.js';
import type { LiveBoard } from '../views/board.js';
import {
  authErrorResponses,
  countMetaSchema,
  dataEnvelope,
  notFoundResponse,
  pagination,
  paginatedEnvelope,
  pagingParams,
} from '../contract/common.js';
import { eventSchema, presentEvent } from '../contract/events.js';
import { addSportsbookParam, parseOddsFilters, sharedFilterParams } from '../contract/filters.js';
import { oddsRowSchema, presentOdds } from '../contract/odds.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/auth.js';
import { ApiError } from '../errors.js';
import { rowMatches } from '../views/filters.js';
import { eventsList } from '../queries/index.js';
import type { EventsQuery } from '../queries/index.js';

const { sport, league, sportsbook, live, team, date, q, market } = sharedFilterParams;
const eventParams = { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', maxLength: 200 } } } as const;

export const eventsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, views } = deps;
  const visibleBooks = (tier: TierName): Set<string> => openBooks(tier, [...catalog.books.values()]);

  /** Events are served from the tier's board, so a delayed tier sees events and odds alike delayed. */
  function eventOr404(board: LiveBoard, id: string): CanonicalEvent {
    const e = board.event(id);
    if (!e) throw new ApiError('not_found', `Unknown event '${id}'`);
    return e;
  }

  app.get<{ Querystring: EventsQuery }>(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Events that currently have odds',
        description:
          'Events aggregated from the current odds of the board the key reads (delayed for the free tier), by start time. `sportsbook` keeps events that any of the books lists.',
        querystring: {
          type: 'object',
          properties: {
            sport,
            league,
            sportsbook,
            live,
            team,
            date,
            q,
            has_score: {
              type: 'boolean',
              description: 'true: only events with a live score (a game-state source reports on them); false: only events without one.',
            },
            ...pagingParams(50, 1000),
          },
        },
        response: { 200: paginatedEnvelope(eventSchema, countMetaSchema), ...authErrorResponses },
      },
    },
    async (request) => eventsList(deps, tierOf(request), request.query),
  );

  app.get<{ Params: { eventId: string } }>(
    '/events/:eventId',
    {
      schema: {
        tags: ['events'],
        summary: 'One event',
        description: 'One event by id; 404 when the board does not know it.',
        params: eventParams,
        response: { 200: dataEnvelope(eventSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const tier = tierOf(request);
      const board = views.boardFor(tier);
      return { success: true, data: presentEvent(catalog, board, eventOr404(board, request.params.eventId), visibleBooks(tier)) };
    },
  );

  app.get<{ Params: { eventId: string } }>(
    '/events/:eventId/markets',
    {
      schema: {
        tags: ['events'],
        summary: 'Market types currently offered for an event',
        description: 'Market ids with at least one row for the event now, in board order; 404 for an unknown event.',
        params: eventParams,
        response: { 200: dataEnvelope({ type: 'array', items: { type: 'string' } }), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const board = views.boardFor(tierOf(request));
      return { success: true, data: board.marketsOf(eventOr404(board, request.params.eventId).id) };
    },
  );

  app.get<{
    Params: { eventId: string };
    Querystring: { sportsbook?: string; add_sportsbook?: string; market?: string; limit: number; offset: number };
  }>(
    '/events/:eventId/odds',
    {
      schema: {
        tags: ['events'],
        summary: "An event's odds across sportsbooks",
        description:
          "The event's rows in board order, from the sportsbooks the key's tier serves (`sportsbook` and `add_sportsbook` as on /odds); 404 for an unknown event.",
        params: eventParams,
        querystring: { type: 'object', properties: { sportsbook, add_sportsbook: addSportsbookParam, market, ...pagingParams(100, 1000) } },
        response: { 200: paginatedEnvelope(oddsRowSchema, countMetaSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const tier = tierOf(request);
      const board = views.boardFor(tier);
      const e = eventOr404(board, request.params.eventId);
      const { limit, offset } = request.query;
      const { row } = parseOddsFilters(
        { sportsbook: request.query.sportsbook, add_sportsbook: request.query.add_sportsbook, market: request.query.market },
        catalog,
        tier,
      );
      const rows = board.rowsOf(e.id).filter((r) => rowMatches(r, row));
      const main = board.mainLines(e.id);
      const data = rows.slice(offset, offset + limit).map((r) => presentOdds(catalog, r, e, main));
      return { success: true, data, pagination: pagination(limit, offset, rows.length), meta: { count: data.length, total: rows.length } };
    },
  );
};
