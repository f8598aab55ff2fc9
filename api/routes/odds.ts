import { deepLinkStateParam } from '../deeplinks/index.js';
import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, csvParam, dataEnvelope, notFoundResponse, paginatedEnvelope, pagingParams } from '../contract/index.js';
import { eventSchema } from '../contract/index.js';
import { commissionParam, eventSearchParams, oddsScopeParams, sharedFilterParams } from '../contract/index.js';
import { CORE_ODDS_FIELDS, ODDS_FIELDS, bestOddsRowSchema, oddsListItemSchema, oddsRowSchema } from '../contract/index.js';
import { fragmentsFor, rawRowsSerializerCompiler } from '../contract/index.js';
import type { RawRows } from '../contract/index.js';
import type { RouteTypes, RouteTypesWithData } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { SORT_VALUES } from '../queries/index.js';
import { bestOddsList, oddsComparison, oddsList } from '../queries/index.js';
import type { RowSerializer } from '../queries/index.js';
import { tierOf } from '../plugins/index.js';

const { min_odds: minOdds, max_odds: maxOdds } = sharedFilterParams;

const listMeta = {
  type: 'object',
  properties: {
    count: { type: 'integer', description: 'Rows on this page.' },
    total: { type: 'integer', description: 'Rows matching the query.' },
    groups: { type: 'integer', description: 'group_by=event: event groups on this page.' },
    next_since: {
      type: 'string',
      format: 'date-time',
      description: 'Pass as `since` to /odds/delta to receive every change after this snapshot.',
    },
    delta_cursor: {
      type: 'string',
      description:
        '/odds only: this snapshot as a position in the changelogs. Pass as `cursor` to /odds/delta to receive every change ' +
        'after it, on any replica and across restarts (within the log retention).',
    },
    sort: { type: ['string', 'null'] },
  },
} as const;

export const oddsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const fragments = fragmentsFor(deps.catalog);
  const serialized: RowSerializer = (row, event, main) => fragments.of(row, event, main);

  app.get<RouteTypesWithData<'/api/v1/odds', RawRows>>(
    '/odds',
    {
      // The default page joins each row's ready JSON (contract/odds-fragments.ts).
      serializerCompiler: rawRowsSerializerCompiler,
      schema: {
        tags: ['odds'],
        summary: 'Latest odds, filtered, sorted, projected or grouped',
        description:
          'Latest price of every (event, market, selection, line, sportsbook) the key may see. Default order is the board order ' +
          '(event start, market, line, selection, sportsbook); `sort` orders by one of eight keys. Page with `limit`/`offset`, ' +
          'or walk consistently with `cursor`/`next_cursor` (a walk over live data neither repeats nor skips rows). Free-tier keys ' +
          "read a board delayed by the tier's data delay. `meta.next_since` starts a /odds/delta poll from this snapshot.",
        querystring: {
          type: 'object',
          properties: {
            ...oddsScopeParams,
            ...eventSearchParams,
            min_odds: minOdds,
            max_odds: maxOdds,
            sort: { type: 'string', enum: [...SORT_VALUES], description: 'Sort key; a leading - sorts descending. Ties keep board order.' },
            fields: {
              type: 'string',
              maxLength: 2000,
              description: `Comma-separated fields to return on top of the core (${CORE_ODDS_FIELDS.join(', ')}); -name drops one (id always stays); only -names: every field but those. Fields: ${ODDS_FIELDS.join(', ')}.`,
            },
            group_by: { type: 'string', enum: ['event'], description: 'event: group the rows of the page by event.' },
            cursor: {
              type: 'string',
              maxLength: 2000,
              description: 'next_cursor of the previous page; use with the same filters and sort, and without offset.',
            },
            state: deepLinkStateParam,
            commission: commissionParam,
            ...pagingParams(100, 1000),
          },
        },
        response: { 200: paginatedEnvelope(oddsListItemSchema, listMeta), ...authErrorResponses },
      },
    },
    async (request) => oddsList(deps, tierOf(request), request.query, serialized),
  );

  app.get<RouteTypes<'/api/v1/odds/best'>>(
    '/odds/best',
    {
      schema: {
        tags: ['odds'],
        summary: 'Best price per selection across the sportsbooks the key may see',
        description:
          'One row per outcome (event, market, participant, selection, line): the sportsbook with the highest decimal price ' +
          '(ties: the most recent price), with `book_count`, the number of books quoting it. Board order.',
        querystring: {
          type: 'object',
          properties: {
            ...oddsScopeParams,
            ...eventSearchParams,
            commission: commissionParam,
            ...pagingParams(100, 1000),
          },
        },
        response: { 200: paginatedEnvelope(bestOddsRowSchema, listMeta), ...authErrorResponses },
      },
    },
    async (request) => bestOddsList(deps, tierOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/odds/comparison'>>(
    '/odds/comparison',
    {
      schema: {
        tags: ['odds'],
        summary: "One event's prices side by side across sportsbooks",
        description:
          'Maps each outcome of the event (`market:participant:stat:selection:line`, empty parts left out, e.g. `moneyline:home`, ' +
          '`point_spread:away:2.5`) to its rows across the sportsbooks the key may see, best price first. 400 without `event`, ' +
          '404 for an event without odds.',
        querystring: {
          type: 'object',
          required: ['event'],
          properties: {
            event: { type: 'string', minLength: 1, maxLength: 200, description: 'Event id.' },
            event_id: { type: 'string', maxLength: 200, description: 'Alias of event (what the reference SDK sends).' },
            market: csvParam('Market ids, comma-separated.'),
            sportsbook: oddsScopeParams.sportsbook,
            add_sportsbook: oddsScopeParams.add_sportsbook,
            commission: commissionParam,
          },
        },
        response: {
          200: dataEnvelope(
            {
              type: 'object',
              additionalProperties: { type: 'array', items: oddsRowSchema },
              description: 'Outcome key -> rows, best price first.',
            },
            {
              type: 'object',
              properties: {
                event: eventSchema,
                outcomes: { type: 'integer' },
                books: { type: 'array', items: { type: 'string' } },
                next_since: { type: 'string' },
              },
            },
          ),
          404: notFoundResponse,
          ...authErrorResponses,
        },
      },
    },
    async (request) => oddsComparison(deps, tierOf(request), request.query),
  );
};
