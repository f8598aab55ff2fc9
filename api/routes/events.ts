import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, countMetaSchema, dataEnvelope, notFoundResponse, paginatedEnvelope, pagingParams } from '../contract/index.js';
import { eventSchema } from '../contract/index.js';
import { addSportsbookParam, eventSearchParams, sharedFilterParams } from '../contract/index.js';
import { oddsRowSchema } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { eventDetail, eventMarkets, eventOdds, eventsList } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

const { sport, league, sportsbook, live, market } = sharedFilterParams;
const eventParams = { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', maxLength: 200 } } } as const;

export const eventsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  app.get<RouteTypes<'/api/v1/events'>>(
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
            ...eventSearchParams,
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

  app.get<RouteTypes<'/api/v1/events/{eventId}'>>(
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
    async (request) => eventDetail(deps, tierOf(request), request.params.eventId),
  );

  app.get<RouteTypes<'/api/v1/events/{eventId}/markets'>>(
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
    async (request) => eventMarkets(deps, tierOf(request), request.params.eventId),
  );

  app.get<RouteTypes<'/api/v1/events/{eventId}/odds'>>(
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
    async (request) => eventOdds(deps, tierOf(request), request.params.eventId, request.query),
  );
};
