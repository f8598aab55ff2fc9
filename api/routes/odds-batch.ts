import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, dataEnvelope, errorResponse } from '../contract/common.js';
import { parseOddsFilters } from '../contract/filters.js';
import { oddsRowSchema, presentOdds } from '../contract/odds.js';
import type { PublicOdds } from '../contract/odds.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { tierOf } from '../plugins/auth.js';
import { MAX_BATCH_EVENTS, TIERS, tiersByBatchSize } from '../tiers.js';
import { batchOdds } from '../queries/index.js';

interface BatchBody {
  event_ids: string[];
  sportsbook?: string;
  market?: string;
}

export const oddsBatchRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, views } = deps;

  app.post<{ Body: BatchBody }>('/odds/batch', {
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
            description: 'Event ids; at most the tier\'s batch size.',
          },
          sportsbook: { type: 'string', maxLength: 2000, description: 'Sportsbook ids, comma-separated (within the tier).' },
          market: { type: 'string', maxLength: 2000, description: 'Market ids, comma-separated.' },
        },
      },
      response: {
        200: dataEnvelope(
          { type: 'object', additionalProperties: { type: 'array', items: oddsRowSchema }, description: 'Event id -> its rows in board order.' },
          { type: 'object', properties: { events: { type: 'integer' }, rows: { type: 'integer' }, missing: { type: 'array', items: { type: 'string' } } } },
        ),
        ...authErrorResponses,
        413: errorResponse('payload_too_large: the body is over 1 MiB.'),
        415: errorResponse('unsupported_media_type: the body is not plain UTF-8 JSON (compressed, another charset, or another content-type).'),
      },
    },
  }, async (request) => {
    const tier = tierOf(request);
    const ids = [...new Set(request.body.event_ids)];
    const max = TIERS[tier].batchEvents;
    if (ids.length > max) {
      throw new ApiError('invalid_request', `Invalid body field 'event_ids': ${ids.length} events, the ${tier} tier allows at most ${max} per batch (${tiersByBatchSize()})`);
    }
    const board = views.boardFor(tier);
    const { row: rf } = parseOddsFilters({ sportsbook: request.body.sportsbook, market: request.body.market }, catalog, tier, 'body field');
    const { events, missing } = batchOdds(board, ids, rf);
    // Event ids are client input: `__proto__` must be a key like any other, not the prototype.
    const data: Record<string, PublicOdds[]> = Object.create(null) as Record<string, PublicOdds[]>;
    let rows = 0;
    for (const { id, event, rows: list } of events) {
      data[id] = event ? list.map((r) => presentOdds(catalog, r, event, board.mainLines(id))) : [];
      rows += list.length;
    }
    return { success: true, data, meta: { events: ids.length, rows, missing } };
  });
};
