import type { FastifyPluginAsync } from 'fastify';
import { TIERS } from '../../schemas/index.js';
import { closingSnapshotSchema, clvGroupSchema, evHistoryRowSchema, historicalEventSchema } from '../contract/index.js';
import { authErrorResponses, csvParam, dataEnvelope, errorResponse, paginatedEnvelope, pagingParams } from '../contract/index.js';
import type { AppDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { CLV_GROUPS, closingLines, clvHistory, evHistoryList, historicalClosingLines } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

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
  app.get<RouteTypes<'/api/v1/odds/closing'>>(
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

  app.get<RouteTypes<'/api/v1/historical/odds/closing'>>(
    '/historical/odds/closing',
    {
      schema: {
        tags: ['closing'],
        summary: 'Closing lines of a league on a day',
        description: `Closing lines of every event of \`league\` that started on \`date\` (UTC), by event and book. Sharp tier or higher; dates more than ${TIERS.sharp.closingHistoryDays} days back need a higher window (403).`,
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
    async (request) => historicalClosingLines(deps, tierOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/historical/clv'>>(
    '/historical/clv',
    {
      schema: {
        tags: ['closing'],
        summary: 'Closing-line value of +EV opportunities',
        description: `Every +EV opportunity detected before its event started, graded against the close: CLV % = (closing no-vig probability x entry decimal - 1) x 100, and win/loss/push where a final score settled it. Grouped by one dimension. Sharp tier or higher; the range is clamped to the tier window (Sharp ${TIERS.sharp.clvWindowDays} days, Enterprise unlimited) on the event start.`,
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

  app.get<RouteTypes<'/api/v1/opportunities/ev/history'>>(
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
    async (request) => evHistoryList(deps, tierOf(request), request.query),
  );
};
