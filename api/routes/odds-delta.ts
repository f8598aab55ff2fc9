import { deepLinkStateParam, putStateInLinks, requestedState } from '../deeplinks/index.js';
import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, errorResponse, paginationSchema, pagingParams } from '../contract/common.js';
import { addSportsbookParam, parseOddsFilters, sharedFilterParams } from '../contract/filters.js';
import { oddsRowSchema, presentOdds, removedRowSchema } from '../contract/odds.js';
import type { PublicOdds } from '../contract/odds.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { tierOf } from '../plugins/auth.js';
import { formatLogTime, parseLogTime } from '../views/log-time.js';
import { oddsDelta } from '../queries/index.js';

const { sport, league, sportsbook, market, event, event_id: eventId, live } = sharedFilterParams;

interface DeltaQuery {
  since: string;
  sport?: string;
  league?: string;
  sportsbook?: string;
  add_sportsbook?: string;
  market?: string;
  event?: string;
  live?: boolean;
  state?: string;
  limit: number;
  offset: number;
}

const deltaResponse = {
  type: 'object',
  required: ['success', 'data', 'removed', 'pagination', 'meta'],
  properties: {
    success: { type: 'boolean' },
    data: { type: 'array', items: oddsRowSchema, description: 'Rows added or changed since `since`, in their current state, in the order of their last change.' },
    removed: { type: 'array', items: removedRowSchema, description: 'Rows gone since `since` (suspended, pulled, or out of the `live` filter now).' },
    pagination: paginationSchema,
    meta: {
      type: 'object',
      required: ['since', 'next_since', 'server_time', 'count'],
      properties: {
        since: { type: 'string', format: 'date-time', description: 'The `since` this answer starts after, normalised.' },
        next_since: { type: 'string', format: 'date-time', description: 'Pass back verbatim as the next `since`: the next answer starts right after this one.' },
        server_time: { type: 'string', format: 'date-time', description: 'Wall time of the answer (by the system clock).' },
        count: { type: 'integer', description: 'Changed plus removed rows on this page.' },
        changed_count: { type: 'integer' },
        removed_count: { type: 'integer' },
      },
    },
  },
} as const;

export const oddsDeltaRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, views } = deps;

  app.get<{ Querystring: DeltaQuery }>('/odds/delta', {
    schema: {
      tags: ['odds'],
      summary: 'Odds changed and removed since a time',
      description:
        'Rows changed since `since` (in their current state) and rows removed since then, each once, in the order of their ' +
        'last change, with `meta.next_since` to pass back as the next `since`. A client that loads /odds, then polls this ' +
        'endpoint from the snapshot\'s `meta.next_since` and applies `data` (upsert by id) and `removed` (delete by id) mirrors ' +
        '/odds exactly: no gap, no double. When `has_more` is true, `next_since` is the place of the last item of the page, so ' +
        'polling on from it continues the same delta. Cost is proportional to the changes since `since`. A `since` older than ' +
        'the in-memory change window answers 410 resync_required: reload /odds and start again from its `meta.next_since`.',
      querystring: {
        type: 'object',
        required: ['since'],
        properties: {
          since: { type: 'string', format: 'date-time', description: 'RFC 3339 time; best the `next_since` of the previous answer (or of /odds), passed back verbatim.' },
          sport, league, sportsbook, add_sportsbook: addSportsbookParam, market, event, event_id: eventId, live,
          state: deepLinkStateParam,
          ...pagingParams(1000, 5000),
        },
      },
      response: {
        200: deltaResponse,
        ...authErrorResponses,
        410: errorResponse('resync_required: `since` is older than the change window; reload /odds and poll from its meta.next_since.'),
      },
    },
  }, async (request) => {
    const query = request.query;
    const since = parseLogTime(query.since);
    if (!since) throw new ApiError('invalid_request', `Invalid query parameter 'since': '${query.since}' is not a valid RFC 3339 date-time`);
    const tier = tierOf(request);
    const state = requestedState(query.state);
    const board = views.boardFor(tier);
    const filters = parseOddsFilters(
      { sport: query.sport, league: query.league, sportsbook: query.sportsbook, add_sportsbook: query.add_sportsbook, market: query.market, event: query.event, live: query.live },
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
    const data: PublicOdds[] = [];
    const removed: Record<string, unknown>[] = [];
    for (const item of delta.items) {
      const r = item.row;
      if (item.removed || !item.event) removed.push({ id: r.id, event_id: r.eventId, sportsbook: r.book, market: r.market, removed_at: formatLogTime(item.time) });
      else data.push(putStateInLinks(presentOdds(catalog, r, item.event, board.mainLines(item.event.id)), state));
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
  });
};
