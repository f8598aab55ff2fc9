import { deepLinkStateParam } from '../deeplinks/index.js';
import type { FastifyPluginAsync } from 'fastify';
import {
  authErrorResponses,
  errorResponse,
  paginationSchema,
  pagingParams,
  updatedAtSchema,
  withIgnoredParams,
} from '../contract/index.js';
import { commissionParam, oddsScopeParams } from '../contract/index.js';
import { oddsRowSchema, removedRowSchema } from '../contract/index.js';
import { fragmentsFor, rawRowsSerializerCompiler } from '../contract/index.js';
import type { RawRows } from '../contract/index.js';
import type { RouteTypesWithData } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { oddsDeltaPage } from '../queries/index.js';
import type { RowSerializer } from '../queries/index.js';

const deltaResponse = {
  type: 'object',
  required: ['success', 'data', 'removed', 'pagination', 'meta', 'updated_at'],
  properties: {
    success: { type: 'boolean' },
    data: {
      type: 'array',
      items: oddsRowSchema,
      description: 'Rows added or changed since `since`, in their current state, in the order of their last change.',
    },
    removed: {
      type: 'array',
      items: removedRowSchema,
      description:
        'Rows gone since `since` (pulled, or out of the `live` filter now). A suspended row is not gone: it comes in `data` with is_active false.',
    },
    pagination: paginationSchema,
    meta: withIgnoredParams({
      type: 'object',
      required: ['since', 'next_since', 'server_time', 'count'],
      properties: {
        since: { type: 'string', format: 'date-time', description: 'The `since` this answer starts after, normalised.' },
        next_since: {
          type: 'string',
          format: 'date-time',
          description: 'Pass back verbatim as the next `since`: the next answer starts right after this one.',
        },
        next_cursor: {
          type: 'string',
          description:
            'The same place as `next_since`, as a position in the changelogs: pass back as the next `cursor` to continue on any ' +
            'replica or after a restart.',
        },
        server_time: { type: 'string', format: 'date-time', description: 'Wall time of the answer (by the system clock).' },
        count: { type: 'integer', description: 'Changed plus removed rows on this page.' },
        changed_count: { type: 'integer' },
        removed_count: { type: 'integer' },
        pagination: { ...paginationSchema, description: 'Same as the top-level pagination.' },
      },
    }),
    updated_at: updatedAtSchema,
  },
} as const;

export const oddsDeltaRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const fragments = fragmentsFor(deps.catalog, 'row');
  const serialized: RowSerializer = (row, event, main) => fragments.of(row, event, main);

  app.get<RouteTypesWithData<'/api/v1/odds/delta', RawRows>>(
    '/odds/delta',
    {
      // Changed rows are the same ready JSON /odds serves (contract/odds-fragments.ts).
      serializerCompiler: rawRowsSerializerCompiler,
      schema: {
        tags: ['odds'],
        summary: 'Odds changed and removed since a time',
        description:
          'Rows changed since `since` (in their current state) and rows removed since then, each once, in the order of their ' +
          'last change, with `meta.next_since` to pass back as the next `since`. A client that loads /odds, then polls this ' +
          "endpoint from the snapshot's `meta.next_since` and applies `data` (upsert by id) and `removed` (delete by id) mirrors " +
          '/odds exactly: no gap, no double. When `has_more` is true, `next_since` is the place of the last item of the page, so ' +
          'polling on from it continues the same delta. Cost is proportional to the changes since `since`. A `since` older than ' +
          'the in-memory change window answers 410 resync_required: reload /odds and start again from its `meta.next_since`. ' +
          '`cursor` (from `meta.next_cursor`, or /odds `meta.delta_cursor`) is the same place as a position in the changelogs: ' +
          'any replica, and a restarted one, continues from it.',
        querystring: {
          type: 'object',
          properties: {
            since: {
              type: 'string',
              format: 'date-time',
              description:
                "RFC 3339 time; best the `next_since` of the previous answer (or of /odds), passed back verbatim. This replica's " +
                'clock: prefer `cursor` behind a load balancer. Give `since` or `cursor`, not both.',
            },
            cursor: {
              type: 'string',
              maxLength: 65536,
              description:
                'A position in the changelogs: `meta.next_cursor` of the previous answer, or `meta.delta_cursor` of /odds. Any ' +
                'replica continues from it, and so does a restarted one (within the log retention).',
            },
            ...oddsScopeParams,
            state: deepLinkStateParam,
            commission: commissionParam,
            ...pagingParams(1000, 5000),
          },
        },
        response: {
          200: deltaResponse,
          ...authErrorResponses,
          410: errorResponse(
            'resync_required: `since` or `cursor` is older than the change window (or `cursor` names another log); reload /odds and poll from its meta.',
          ),
        },
      },
    },
    async (request) => oddsDeltaPage(deps, tierOf(request), request.query, serialized),
  );
};
