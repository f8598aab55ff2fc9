import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, csvParam, dataEnvelope, errorResponse, paginatedEnvelope, pagingParams } from '../contract/index.js';
import { sharedFilterParams } from '../contract/index.js';
import { splitsHistoryEntrySchema, splitsRecordSchema } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { SplitsBoard } from '../views/index.js';
import { splitsHistoryList, splitsList } from '../queries/index.js';
import type { SplitsSource } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

const { sport, league, live, team, date, q } = sharedFilterParams;

export const splitsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const source: SplitsSource = { deps, splits: deps.splits ?? new SplitsBoard(deps.clock, { syncEveryMs: 0 }) };

  app.get<RouteTypes<'/api/v1/splits'>>(
    '/splits',
    {
      schema: {
        tags: ['splits'],
        summary: 'Current betting splits, one record per event and sportsbook',
        description:
          'Bet % and handle % per side of the spread, total and moneyline, from draftkings (recreational) and circa (sharp-friendly), refreshed about every 5 minutes, ' +
          'with the line and price each book had at the snapshot and sharp-money signals. All tiers; the free tier reads splits 60 s late like its odds, and a ' +
          "book's lines and prices are null for a tier that cannot read that book's odds.",
        querystring: {
          type: 'object',
          properties: {
            sport,
            league,
            live,
            team,
            date,
            q,
            sportsbook: csvParam('draftkings, circa; comma-separated.'),
            event: csvParam('Event ids, comma-separated.'),
            event_id: csvParam('Alias of `event`.'),
            market: csvParam('spread, total, moneyline; comma-separated: only events with splits for one of them.'),
            signal: csvParam('rlm, divergence; comma-separated: only records where one of these is flagged (on the `market`s asked for).'),
            ...pagingParams(100, 200),
          },
        },
        response: {
          200: paginatedEnvelope(splitsRecordSchema, {
            type: 'object',
            properties: {
              count: { type: 'integer' },
              total: { type: 'integer' },
              last_update: {
                type: 'string',
                format: 'date-time',
                description: 'Time of the newest snapshot the key can see (the current time when none).',
              },
            },
          }),
          ...authErrorResponses,
        },
      },
    },
    async (request) => splitsList(source, tierOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/splits/history'>>(
    '/splits/history',
    {
      schema: {
        tags: ['splits'],
        summary: "An event's splits history, oldest first",
        description:
          'Snapshots about every 5 minutes, kept 48 hours. `start_time`/`end_time` take RFC 3339 or Unix seconds. Without `sportsbook` the newest `limit` entries ' +
          'of the window; with it, every entry of that book in the window (`limit` does not apply). The free tier sees entries 60 s late.',
        querystring: {
          type: 'object',
          required: ['event_id'],
          properties: {
            event_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Canonical event id.' },
            sportsbook: csvParam('draftkings, circa; comma-separated.'),
            start_time: { type: 'string', maxLength: 64, description: 'Lower bound, inclusive: RFC 3339 or Unix seconds.' },
            end_time: { type: 'string', maxLength: 64, description: 'Upper bound, inclusive: RFC 3339 or Unix seconds.' },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: 200,
              default: 100,
              description: 'Entries, 1 to 200; ignored when `sportsbook` is set.',
            },
          },
        },
        response: {
          200: dataEnvelope(
            { type: 'array', items: splitsHistoryEntrySchema },
            {
              type: 'object',
              required: ['event_id', 'total', 'books', 'oldest', 'newest', 'updated_at'],
              properties: {
                event_id: { type: 'string' },
                total: { type: 'integer', description: 'Entries in `data`.' },
                matched: { type: 'integer', description: 'Entries in the window before `limit` applied.' },
                books: { type: 'array', items: { type: 'string' }, description: 'Distinct sportsbooks in `data`.' },
                oldest: { type: ['string', 'null'], format: 'date-time' },
                newest: { type: ['string', 'null'], format: 'date-time' },
                updated_at: {
                  type: 'string',
                  format: 'date-time',
                  description: "Time of the event's newest snapshot the key can see (the current time when none).",
                },
              },
            },
          ),
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => splitsHistoryList(source, tierOf(request), request.query),
  );
};
