import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, dataEnvelope, errorSchema, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import { eventSchema, presentEvent } from '../contract/events.js';
import { parseFilters, sharedFilterParams } from '../contract/filters.js';
import type { SharedFilterQuery } from '../contract/filters.js';
import { oddsRowSchema, presentOdds } from '../contract/odds.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { eventMatches, rowMatches } from '../views/filters.js';

const { sport, league, sportsbook, live, team, date, q, market } = sharedFilterParams;
const eventParams = { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', maxLength: 200 } } } as const;

export const eventsRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { board, catalog } = deps;

  function eventOr404(id: string): NonNullable<ReturnType<typeof board.event>> {
    const e = board.event(id);
    if (!e) throw new ApiError('not_found', `Unknown event '${id}'`);
    return e;
  }

  app.get<{ Querystring: SharedFilterQuery & { has_score?: boolean; limit: number; offset: number } }>('/events', {
    schema: {
      tags: ['events'],
      summary: 'Events that currently have odds',
      querystring: {
        type: 'object',
        properties: {
          sport, league, sportsbook, live, team, date, q,
          has_score: { type: 'boolean', description: 'true: only events with a live score. No score feed is connected yet, so true matches nothing.' },
          ...pagingParams(50, 500),
        },
      },
      response: { 200: paginatedEnvelope(eventSchema, { type: 'object', additionalProperties: true }), ...authErrorResponses },
    },
  }, async (request) => {
    const { limit, offset, has_score: hasScore } = request.query;
    const { event: filter, row } = parseFilters(request.query, catalog);
    const matches = board.activeEvents().filter(
      (e) => eventMatches(e, filter, catalog) && hasScore !== true && (!row.books || board.booksOf(e.id).some((b) => row.books?.has(b))),
    );
    const data = matches.slice(offset, offset + limit).map((e) => presentEvent(catalog, board, e));
    return { success: true, data, pagination: pagination(limit, offset, matches.length), meta: { count: data.length, total: matches.length } };
  });

  app.get<{ Params: { eventId: string } }>('/events/:eventId', {
    schema: { tags: ['events'], summary: 'One event', params: eventParams, response: { 200: dataEnvelope(eventSchema), 404: errorSchema, ...authErrorResponses } },
  }, async (request) => ({ success: true, data: presentEvent(catalog, board, eventOr404(request.params.eventId)) }));

  app.get<{ Params: { eventId: string } }>('/events/:eventId/markets', {
    schema: {
      tags: ['events'],
      summary: 'Market types currently offered for an event',
      params: eventParams,
      response: { 200: dataEnvelope({ type: 'array', items: { type: 'string' } }), 404: errorSchema, ...authErrorResponses },
    },
  }, async (request) => ({ success: true, data: board.marketsOf(eventOr404(request.params.eventId).id) }));

  app.get<{ Params: { eventId: string }; Querystring: { sportsbook?: string; market?: string; limit: number; offset: number } }>('/events/:eventId/odds', {
    schema: {
      tags: ['events'],
      summary: "An event's odds across sportsbooks",
      params: eventParams,
      querystring: { type: 'object', properties: { sportsbook, market, ...pagingParams(100, 1000) } },
      response: { 200: paginatedEnvelope(oddsRowSchema), 404: errorSchema, ...authErrorResponses },
    },
  }, async (request) => {
    const e = eventOr404(request.params.eventId);
    const { limit, offset } = request.query;
    const { row } = parseFilters({ sportsbook: request.query.sportsbook, market: request.query.market }, catalog);
    const rows = board.rowsOf(e.id).filter((r) => rowMatches(r, row));
    const data = rows.slice(offset, offset + limit).map((r) => presentOdds(catalog, r, e));
    return { success: true, data, pagination: pagination(limit, offset, rows.length), meta: { count: data.length, total: rows.length } };
  });
};
