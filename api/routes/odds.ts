import type { FastifyPluginAsync } from 'fastify';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { authErrorResponses, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import { parseFilters, sharedFilterParams } from '../contract/filters.js';
import type { SharedFilterQuery } from '../contract/filters.js';
import { oddsRowSchema, presentOdds } from '../contract/odds.js';
import type { AppDeps } from '../deps.js';
import { eventMatches, rowMatches } from '../views/filters.js';

export const oddsRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { board, catalog } = deps;

  app.get<{ Querystring: SharedFilterQuery & { limit: number; offset: number } }>('/odds', {
    schema: {
      tags: ['odds'],
      summary: 'Latest odds, filtered, in board order (event start, market, line, selection, book)',
      querystring: { type: 'object', properties: { ...sharedFilterParams, ...pagingParams(100, 1000) } },
      response: { 200: paginatedEnvelope(oddsRowSchema, { type: 'object', additionalProperties: true }), ...authErrorResponses },
    },
  }, async (request) => {
    const { limit, offset } = request.query;
    const { event: eventFilter, row: rowFilter } = parseFilters(request.query, catalog);
    const end = offset + limit;
    const page: { row: OddsRow; event: CanonicalEvent }[] = [];
    // Price bounds need the rows themselves; book and market filters are answered by counters.
    const countable = rowFilter.minOdds === undefined && rowFilter.maxOdds === undefined;
    let total = 0;
    for (const e of board.activeEvents()) {
      if (!eventMatches(e, eventFilter, catalog)) continue;
      if (countable) {
        const n = board.countRows(e.id, rowFilter.books, rowFilter.markets);
        // Only events overlapping the requested window are visited row by row.
        if (total + n <= offset || total >= end) {
          total += n;
          continue;
        }
      }
      for (const r of board.rowsOf(e.id)) {
        if (!rowMatches(r, rowFilter)) continue;
        if (total >= offset && total < end) page.push({ row: r, event: e });
        total++;
      }
    }
    const data = page.map(({ row, event }) => presentOdds(catalog, row, event));
    return { success: true, data, pagination: pagination(limit, offset, total), meta: { count: data.length, total } };
  });
};
