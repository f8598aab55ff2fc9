import type { FastifyPluginAsync } from 'fastify';
import { REGIONS } from '../../schemas/index.js';
import {
  authErrorResponses,
  dataEnvelope,
  notFoundResponse,
  nullableInteger,
  nullableString,
  paginatedEnvelope,
  pagingParams,
} from '../contract/index.js';
import { leagueSchema, presentBook, presentLeague, presentSport, sportSchema, sportsbookSchema, teamSchema } from '../contract/index.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { countEvents } from '../views/index.js';
import { freshnessList, leaguesList, marketsList, rateLimitState, sportsList, sportsbooksList, teamsList } from '../queries/index.js';
import { bookFreshnessSchema, freshnessMetaSchema } from '../contract/index.js';
import type { RouteTypes } from '../contract/index.js';

const marketSchema = {
  type: 'object',
  required: ['id', 'name', 'description', 'hasLine', 'examples', 'event_count', 'selection_count', 'sports'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    description: { type: 'string' },
    hasLine: { type: 'boolean' },
    examples: { type: 'array', items: { type: 'string' } },
    event_count: nullableInteger,
    selection_count: nullableInteger,
    sports: { type: 'array', items: { type: 'string' } },
  },
} as const;

const count = { type: 'integer', description: 'Items on this page.' } as const;
const total = {
  type: 'integer',
  description: 'Items of the catalog (sports, leagues, sportsbooks) or matching the query (teams).',
} as const;
const listMeta = (extra: Record<string, object> = {}): object => ({ type: 'object', properties: { count, total, ...extra } });
const listEnvelope = (item: object, meta: object = listMeta()): object => paginatedEnvelope(item, meta);
const SPORTS_META = listMeta({
  updated_at: { type: 'string', format: 'date-time', description: 'When the board last changed.' },
  filters: { type: 'object', properties: { include_empty: { type: 'boolean' } } },
});
const MARKETS_META = {
  type: 'object',
  properties: {
    count,
    total_events: { type: 'integer' },
    total_selections: { type: 'integer' },
    rate_limit: { type: 'object', properties: { limit: { type: 'integer' }, remaining: { type: 'integer' }, reset: { type: 'integer' } } },
  },
};
const TEAMS_META = listMeta({
  sport_filter: nullableString,
  league_filter: nullableString,
  query: nullableString,
  total_events: { type: 'integer' },
  total_live: { type: 'integer' },
  updated: { type: 'string', format: 'date-time' },
});
const bool = (description: string, fallback = false): object => ({ type: 'boolean', default: fallback, description });
const idParam = (name: string): object => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', maxLength: 200 } },
});

export const referenceRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { board, catalog } = deps;

  app.get<RouteTypes<'/api/v1/sports'>>(
    '/sports',
    {
      schema: {
        tags: ['reference'],
        summary: 'Sports, with the number of events that currently have odds',
        description: 'Sports of the catalog with their leagues and event counts; by default only sports with events now.',
        querystring: {
          type: 'object',
          properties: { include_empty: bool('Include sports with zero events (off-season).'), ...pagingParams(100, 1000) },
        },
        response: { 200: listEnvelope(sportSchema, SPORTS_META), ...authErrorResponses },
      },
    },
    async (request) => sportsList(deps, request.query),
  );

  app.get<RouteTypes<'/api/v1/sports/{sportId}'>>(
    '/sports/:sportId',
    {
      schema: {
        tags: ['reference'],
        summary: 'One sport',
        description: 'One sport by id; 404 when unknown.',
        params: idParam('sportId'),
        response: { 200: dataEnvelope(sportSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const sport = presentSport(
        catalog,
        request.params.sportId,
        countEvents(board, (e) => [e.sport]),
      );
      if (!sport) throw new ApiError('not_found', `Unknown sport '${request.params.sportId}'`);
      return { success: true, data: sport };
    },
  );

  app.get<RouteTypes<'/api/v1/leagues'>>(
    '/leagues',
    {
      schema: {
        tags: ['reference'],
        summary: 'Leagues, optionally of one sport',
        description: 'Leagues with event counts; by default only leagues with events now; 404 for an unknown sport.',
        querystring: {
          type: 'object',
          properties: {
            sport: { type: 'string', maxLength: 100 },
            include_empty: bool('Include leagues with zero events.'),
            ...pagingParams(100, 1000),
          },
        },
        response: { 200: listEnvelope(leagueSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => leaguesList(deps, request.query),
  );

  app.get<RouteTypes<'/api/v1/leagues/{leagueId}'>>(
    '/leagues/:leagueId',
    {
      schema: {
        tags: ['reference'],
        summary: 'One league',
        description: 'One league by id; 404 when unknown.',
        params: idParam('leagueId'),
        response: { 200: dataEnvelope(leagueSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const league = catalog.leagues.get(request.params.leagueId);
      if (!league) throw new ApiError('not_found', `Unknown league '${request.params.leagueId}'`);
      return {
        success: true,
        data: presentLeague(
          league,
          countEvents(board, (e) => [e.league]),
        ),
      };
    },
  );

  app.get<RouteTypes<'/api/v1/sportsbooks'>>(
    '/sportsbooks',
    {
      schema: {
        tags: ['reference'],
        summary: 'Sportsbooks, by default those with events now',
        description:
          'Sportsbooks with their tier (`requires_tier`), regions and live counts. `catalog=true` gives the configured catalog whatever the data.',
        querystring: {
          type: 'object',
          properties: {
            region: { type: 'string', enum: [...REGIONS] },
            sharp: { type: 'boolean' },
            catalog: bool('The configured catalog, whatever the live data.'),
            include_unlisted: bool('Include unlisted books (exchanges).'),
            include_inactive: bool('Include books with zero events.'),
            ...pagingParams(100, 1000),
          },
        },
        response: { 200: listEnvelope(sportsbookSchema), ...authErrorResponses },
      },
    },
    async (request) => sportsbooksList(deps, request.query),
  );

  app.get<RouteTypes<'/api/v1/freshness'>>(
    '/freshness',
    {
      schema: {
        tags: ['reference'],
        summary: 'Measured freshness per sportsbook',
        description:
          'Per sportsbook, live and pre-match apart, over the window in meta.window: p50/p95/p99 of confirmation age and of feed lag, prices set or confirmed per minute, the share of its rows suspended now, and the stale threshold it gets (docs/opportunities.md). Every tier sees every book.',
        querystring: {
          type: 'object',
          properties: {
            sportsbook: { type: 'string', maxLength: 1000, description: 'Comma-separated sportsbook ids; all books seen when absent.' },
          },
        },
        response: { 200: dataEnvelope({ type: 'array', items: bookFreshnessSchema }, freshnessMetaSchema), ...authErrorResponses },
      },
    },
    async (request) => freshnessList(deps, request.query),
  );

  app.get<RouteTypes<'/api/v1/sportsbooks/{bookId}'>>(
    '/sportsbooks/:bookId',
    {
      schema: {
        tags: ['reference'],
        summary: 'One sportsbook',
        description: 'One sportsbook by id; 404 when unknown.',
        params: idParam('bookId'),
        response: { 200: dataEnvelope(sportsbookSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => {
      const book = catalog.books.get(request.params.bookId);
      if (!book) throw new ApiError('not_found', `Unknown sportsbook '${request.params.bookId}'`);
      return { success: true, data: presentBook(board, book) };
    },
  );

  app.get<RouteTypes<'/api/v1/markets'>>(
    '/markets',
    {
      schema: {
        tags: ['reference'],
        summary: 'Market types, with the events and selections currently offering each',
        description: 'The market types of the contract with hasLine and current usage; `meta.rate_limit` echoes the rate-limit headers.',
        querystring: { type: 'object', properties: { sport: { type: 'string', maxLength: 100 }, ...pagingParams(100, 1000) } },
        response: { 200: listEnvelope(marketSchema, MARKETS_META), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request, reply) =>
      marketsList(
        deps,
        request.query,
        rateLimitState((name) => reply.getHeader(name), request.apiKey?.tier ?? 'free'),
      ),
  );

  app.get<RouteTypes<'/api/v1/teams'>>(
    '/teams',
    {
      schema: {
        tags: ['reference'],
        summary: 'Teams (and players of individual sports) with their aliases',
        description:
          'Teams of the catalog with frozen numerical ids, abbreviations and the aliases books use; `q` searches names and aliases; 404 for an unknown sport or league.',
        querystring: {
          type: 'object',
          properties: {
            sport: { type: 'string', maxLength: 100 },
            league: { type: 'string', maxLength: 100 },
            q: {
              type: 'string',
              maxLength: 200,
              description: 'Any part of a name, alias or abbreviation; case- and accent-insensitive (lak finds the Lakers).',
            },
            ...pagingParams(100, 1000),
          },
        },
        response: {
          200: listEnvelope(teamSchema, TEAMS_META),
          404: notFoundResponse,
          ...authErrorResponses,
        },
      },
    },
    async (request) => teamsList(deps, request.query),
  );
};
