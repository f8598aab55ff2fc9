import type { FastifyPluginAsync } from 'fastify';
import {
  closingSnapshotSchema,
  clvGroupSchema,
  evHistoryRowSchema,
  historicalEventSchema,
  presentEvHistory,
  presentHistoricalDay,
} from '../contract/closing.js';
import {
  authErrorResponses,
  csvParam,
  dataEnvelope,
  errorResponse,
  pagination,
  paginatedEnvelope,
  pagingParams,
} from '../contract/common.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { requireFeature, tierOf } from '../plugins/auth.js';
import { CLV_GROUPS, closingLinesOfDay, evHistory } from '../history/queries.js';
import { DAY_MS, closingLines, clvHistory, fromStore, parseDay, requireTierOf } from '../queries/index.js';
import type { ClosingLinesQuery, ClvQuery } from '../queries/index.js';

/** How far back the closing history reaches (COMPAT §8): 30 days from Sharp. */
const HISTORICAL_CLOSING_DAYS = 30;

const meta = (extra: Record<string, unknown>): object => ({
  type: 'object',
  properties: { source: { type: 'string' }, updated_at: { type: 'string', format: 'date-time' }, ...extra },
});
const filtersSchema = { type: 'object', additionalProperties: true } as const;
const idPattern = '^[A-Za-z0-9][A-Za-z0-9_.:-]*$';

/**
 * Closing lines (Pro+), their history by day (Sharp+, 30 days back) and closing-line value of
 * +EV opportunities (Sharp+), all read from ClickHouse: a store that cannot answer gives 503.
 */
export const closingRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { store, catalog, clock } = deps;

  app.get<{ Querystring: ClosingLinesQuery }>(
    '/odds/closing',
    {
      schema: {
        tags: ['closing'],
        summary: "An event's closing lines",
        description:
          "Every book's last pre-match price per market, selection and line, captured when the event was first seen live, with the sharp references' de-vigged closing probability by method. Pro tier or higher. Before the start `books` is {}.",
        querystring: {
          type: 'object',
          properties: {
            event_id: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              pattern: idPattern,
              description: 'Canonical event id (required; alias `event`).',
            },
            event: { type: 'string', minLength: 1, maxLength: 200, pattern: idPattern, description: 'Alias of event_id.' },
            sportsbook: csvParam('Comma-separated sportsbook ids; default: the books of the tier.'),
            books: csvParam('Legacy alias of sportsbook.'),
          },
        },
        response: {
          200: dataEnvelope(closingSnapshotSchema, meta({})),
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const answer = await closingLines(deps, tierOf(request), request.query);
      void reply.header('cache-control', 'public, s-maxage=30, max-age=10');
      return answer;
    },
  );

  app.get<{ Querystring: { date: string; sport: string; league: string } }>(
    '/historical/odds/closing',
    {
      schema: {
        tags: ['closing'],
        summary: 'Closing lines of a league on a day',
        description:
          'Closing lines of every event of `league` that started on `date` (UTC), by event and book. Sharp tier or higher; dates more than 30 days back need a higher window (403).',
        querystring: {
          type: 'object',
          required: ['date', 'sport', 'league'],
          properties: {
            date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, UTC.' },
            sport: { type: 'string', minLength: 1, maxLength: 64 },
            league: { type: 'string', minLength: 1, maxLength: 64 },
          },
        },
        response: {
          200: dataEnvelope(
            {
              type: 'object',
              required: ['date', 'sport', 'league', 'events', 'total_events', 'total_lines'],
              properties: {
                date: { type: 'string' },
                sport: { type: 'string' },
                league: { type: 'string' },
                events: { type: 'array', items: historicalEventSchema },
                total_events: { type: 'integer' },
                total_lines: { type: 'integer' },
              },
            },
            meta({ tier_window_days: { type: 'integer' }, filters: filtersSchema }),
          ),
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      requireTierOf(tierOf(request), 'sharp', 'Historical closing lines');
      const { date, sport, league } = request.query;
      const day = parseDay('date', date);
      const today = Math.floor(clock.now() / DAY_MS) * DAY_MS;
      if (day < today - HISTORICAL_CLOSING_DAYS * DAY_MS)
        throw new ApiError(
          'feature_required',
          `Historical closing lines reach ${HISTORICAL_CLOSING_DAYS} days back; ${date} is outside the window`,
        );
      const rows = await fromStore(() => closingLinesOfDay(store, date, sport.toLowerCase(), league.toLowerCase()));
      const { events, totalLines } = presentHistoricalDay(catalog, rows);
      return {
        success: true,
        data: { date, sport, league, events, total_events: events.length, total_lines: totalLines },
        meta: {
          source: 'closing_odds',
          tier_window_days: HISTORICAL_CLOSING_DAYS,
          filters: { date, sport, league },
          updated_at: new Date(clock.now()).toISOString(),
        },
      };
    },
  );

  app.get<{ Querystring: ClvQuery }>(
    '/historical/clv',
    {
      schema: {
        tags: ['closing'],
        summary: 'Closing-line value of +EV opportunities',
        description:
          'Every +EV opportunity detected before its event started, graded against the close: CLV % = (closing no-vig probability x entry decimal - 1) x 100, and win/loss/push where a final score settled it. Grouped by one dimension. Sharp tier or higher; the range is clamped to the tier window (Sharp 365 days, Enterprise unlimited) on the event start.',
        querystring: {
          type: 'object',
          properties: {
            from: { type: 'string', maxLength: 40, description: 'Date or ISO date-time; default 7 days ago.' },
            to: { type: 'string', maxLength: 40, description: 'Date (inclusive) or ISO date-time; default today.' },
            group_by: { type: 'string', enum: [...CLV_GROUPS], default: 'sportsbook' },
            sport: csvParam('Comma-separated sport ids.'),
            league: csvParam('Comma-separated league ids.'),
            sportsbook: csvParam('Comma-separated sportsbook ids (the +EV book).'),
            devig_book: csvParam('Comma-separated reference books whose close graded the opportunity.'),
          },
        },
        response: {
          200: dataEnvelope(
            {
              type: 'object',
              required: ['date_range', 'group_by', 'groups'],
              properties: {
                date_range: {
                  type: 'object',
                  properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
                },
                group_by: { type: 'string' },
                groups: { type: 'array', items: clvGroupSchema },
              },
            },
            meta({ filters: filtersSchema, tier_window_days: { type: ['integer', 'string'] } }),
          ),
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => clvHistory(deps, tierOf(request), request.query),
  );

  app.get<{
    Querystring: {
      from?: string;
      to?: string;
      event?: string;
      sport?: string;
      league?: string;
      sportsbook?: string;
      graded?: boolean;
      limit: number;
      offset: number;
    };
  }>(
    '/opportunities/ev/history',
    {
      schema: {
        tags: ['opportunities', 'closing'],
        summary: '+EV opportunities over time, with their closing-line value',
        description:
          'Every +EV occurrence (last version: peak EV, expiry and reason) newest first, each with its CLV grade once its event has started (null for opportunities detected live or not graded yet). Pro tier or higher (the ev feature).',
        querystring: {
          type: 'object',
          properties: {
            from: { type: 'string', maxLength: 40, description: 'Detected at or after (date or ISO date-time); default 7 days ago.' },
            to: { type: 'string', maxLength: 40, description: 'Detected before (date inclusive, or ISO date-time); default now.' },
            event: csvParam('Comma-separated event ids.'),
            sport: csvParam('Comma-separated sport ids.'),
            league: csvParam('Comma-separated league ids.'),
            sportsbook: csvParam('Comma-separated sportsbook ids.'),
            graded: { type: 'boolean', description: 'true: only graded against a close; false: only not graded.' },
            ...pagingParams(50, 500, 100_000),
          },
        },
        response: {
          200: paginatedEnvelope(evHistoryRowSchema, meta({ total: { type: 'integer' }, count: { type: 'integer' } })),
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      requireFeature(request, 'ev');
      const q = request.query;
      const now = clock.now();
      const from = q.from === undefined ? now - 7 * DAY_MS : parseDay('from', q.from);
      const to = q.to === undefined ? now + 1 : parseDay('to', q.to) + (/^\d{4}-\d{2}-\d{2}$/.test(q.to) ? DAY_MS : 0);
      const { rows, total } = await fromStore(() =>
        evHistory(store, {
          from,
          to,
          event: q.event ?? null,
          sport: q.sport ?? null,
          league: q.league ?? null,
          sportsbook: q.sportsbook ?? null,
          graded: q.graded ?? null,
          limit: q.limit,
          offset: q.offset,
        }),
      );
      const data = rows.map(presentEvHistory);
      return {
        success: true,
        data,
        pagination: pagination(q.limit, q.offset, total),
        meta: { total, count: data.length, source: 'opportunities', updated_at: new Date(now).toISOString() },
      };
    },
  );
};
