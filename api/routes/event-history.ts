import type { FastifyPluginAsync } from 'fastify';
import { SELECTION_TYPES } from '../../schemas/index.js';
import { authErrorResponses, csvParam, dataEnvelope, errorResponse, notFoundResponse } from '../contract/index.js';
import { historyPointSchema } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { eventHistory } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

/**
 * `GET /events/{id}/history`: every price the books set for one event, oldest first, from
 * ClickHouse (`odds_ticks`), for line-movement charts. Tier rules of the odds endpoints (default
 * books, `sportsbook` within the tier) and of the other history routes (the free tier reads
 * 60 s late); a store that cannot answer is 503.
 */
export const eventHistoryRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  app.get<RouteTypes<'/api/v1/events/{eventId}/history'>>(
    '/events/:eventId/history',
    {
      schema: {
        tags: ['events'],
        summary: "An event's price history (line movement), oldest first",
        description:
          'Every price each book set or confirmed for the event, and each suspension, ordered by time (then book, market, participant, line, selection). ' +
          "`from`/`to` take RFC 3339 or Unix seconds, both inclusive; default the last 24 hours; at most 7 days apart. The books are the tier's default set or `sportsbook` within the tier (403 above it). " +
          'The free tier reads 60 s late (`to` is clamped). At most `limit` points; `meta.truncated` says more remain: ask again from the last `timestamp`.',
        params: { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', minLength: 1, maxLength: 200 } } },
        querystring: {
          type: 'object',
          properties: {
            market: csvParam('Market ids, comma-separated (moneyline, point_spread, total, ...).'),
            selection: csvParam(`Canonical sides, comma-separated: ${SELECTION_TYPES.join(', ')}.`),
            sportsbook: csvParam("Sportsbook ids, comma-separated; default: the tier's default set."),
            from: {
              type: 'string',
              maxLength: 64,
              description: 'Lower bound, inclusive: RFC 3339 or Unix seconds. Default: 24 hours before `to`.',
            },
            to: {
              type: 'string',
              maxLength: 64,
              description: 'Upper bound, inclusive: RFC 3339 or Unix seconds. Default: now (60 s ago for free).',
            },
            limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 2000, description: 'Points, 1 to 10 000.' },
          },
        },
        response: {
          200: dataEnvelope(
            { type: 'array', items: historyPointSchema },
            {
              type: 'object',
              required: ['event_id', 'count', 'truncated', 'from', 'to', 'sportsbooks', 'data_delay_seconds'],
              properties: {
                event_id: { type: 'string' },
                count: { type: 'integer' },
                truncated: { type: 'boolean', description: 'More points remain in the window past the last one returned.' },
                from: { type: 'string', format: 'date-time' },
                to: { type: 'string', format: 'date-time' },
                sportsbooks: { type: 'array', items: { type: 'string' } },
                data_delay_seconds: { type: 'integer' },
              },
            },
          ),
          404: notFoundResponse,
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => eventHistory(deps, tierOf(request), request.params.eventId, request.query),
  );
};
