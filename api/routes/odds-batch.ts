import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, dataEnvelope, errorResponse } from '../contract/index.js';
import { commissionParam, oddsRowSchema } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { MAX_BATCH_EVENTS, tiersByBatchSize } from '../../schemas/index.js';
import { oddsBatch } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

export const oddsBatchRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  app.post<RouteTypes<'/api/v1/odds/batch', 'post'>>(
    '/odds/batch',
    {
      schema: {
        tags: ['odds'],
        summary: 'Odds of many events in one request',
        description:
          `Maps every requested event id to its rows (an empty array for an unknown event or one without odds; those ids are ` +
          `also listed in meta.missing). Duplicated ids count once. The number of events is bounded by the tier: ${tiersByBatchSize()}.`,
        body: {
          type: 'object',
          required: ['event_ids'],
          additionalProperties: false,
          properties: {
            event_ids: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_BATCH_EVENTS,
              items: { type: 'string', minLength: 1, maxLength: 200 },
              description: "Event ids; at most the tier's batch size.",
            },
            sportsbook: { type: 'string', maxLength: 2000, description: 'Sportsbook ids, comma-separated (within the tier).' },
            market: { type: 'string', maxLength: 2000, description: 'Market ids, comma-separated.' },
            commission: commissionParam,
          },
        },
        response: {
          200: dataEnvelope(
            {
              type: 'object',
              additionalProperties: { type: 'array', items: oddsRowSchema },
              description: 'Event id -> its rows in board order.',
            },
            {
              type: 'object',
              properties: { events: { type: 'integer' }, rows: { type: 'integer' }, missing: { type: 'array', items: { type: 'string' } } },
            },
          ),
          ...authErrorResponses,
          413: errorResponse('payload_too_large: the body is over 1 MiB.'),
          415: errorResponse(
            'unsupported_media_type: the body is not plain UTF-8 JSON (compressed, another charset, or another content-type).',
          ),
        },
      },
    },
    async (request) => oddsBatch(deps, tierOf(request), request.body),
  );
};
