import type { FastifyPluginAsync } from 'fastify';
import { REGIONS } from '../../schemas/index.js';
import { authErrorResponses, dataEnvelope, isoTime, notFoundResponse, nullableInteger, nullableString, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import { leagueSchema, presentBook, presentLeague, presentSport, sportSchema, sportsbookSchema, teamSchema } from '../contract/reference.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { TIERS } from '../tiers.js';
import { countEvents } from '../views/counts.js';

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
const total = { type: 'integer', description: 'Items of the catalog (sports, leagues, sportsbooks) or matching the query (teams).' } as const;
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
const idParam = (name: string): object => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', maxLength: 200 } } });

export const referenceRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { board, catalog } = deps;

  app.get<{ Querystring: { include_empty: boolean; limit: number; offset: number } }>('/sports', {
    schema: {
      tags: ['reference'],
      summary: 'Sports, with the number of events that currently have odds',
      description: 'Sports of the catalog with their leagues and event counts; by default only sports with events now.',
      querystring: { type: 'object', properties: { include_empty: bool('Include sports with zero events (off-season).'), ...pagingParams(100, 1000) } },
      response: { 200: listEnvelope(sportSchema, SPORTS_META), ...authErrorResponses },
    },
  }, async (request) => {
    const counts = countEvents(board, (e) => [e.sport]);
    const all = [...catalog.sports.keys()].flatMap((id) => presentSport(catalog, id, counts) ?? []);
    const { limit, offset } = request.query;
    const matching = request.query.include_empty ? all : all.filter((s) => s.event_count > 0);
    const data = matching.slice(offset, offset + limit);
    const pages = pagination(limit, offset, matching.length);
    return {
      success: true,
      data,
      pagination: pages,
      meta: {
        count: data.length,
        total: all.length,
        pagination: pages,
        updated_at: isoTime(board.lastChangeAt ?? deps.clock.now()),
        filters: { include_empty: request.query.include_empty },
      },
    };
  });

  app.get<{ Params: { sportId: string } }>('/sports/:sportId', {
    schema: { tags: ['reference'], summary: 'One sport', description: 'One sport by id; 404 when unknown.', params: idParam('sportId'), response: { 200: dataEnvelope(sportSchema), 404: notFoundResponse, ...authErrorResponses } },
  }, async (request) => {
    const sport = presentSport(catalog, request.params.sportId, countEvents(board, (e) => [e.sport]));
    if (!sport) throw new ApiError('not_found', `Unknown sport '${request.params.sportId}'`);
    return { success: true, data: sport };
  });

  app.get<{ Querystring: { sport?: string; include_empty: boolean; limit: number; offset: number } }>('/leagues', {
    schema: {
      tags: ['reference'],
      summary: 'Leagues, optionally of one sport',
      description: 'Leagues with event counts; by default only leagues with events now; 404 for an unknown sport.',
      querystring: { type: 'object', properties: { sport: { type: 'string', maxLength: 100 }, include_empty: bool('Include leagues with zero events.'), ...pagingParams(100, 1000) } },
      response: { 200: listEnvelope(leagueSchema), 404: notFoundResponse, ...authErrorResponses },
    },
  }, async (request) => {
    const { sport, include_empty: includeEmpty, limit, offset } = request.query;
    if (sport !== undefined && !catalog.sports.has(sport)) throw new ApiError('not_found', `Unknown sport '${sport}'`);
    const counts = countEvents(board, (e) => [e.league]);
    const matching = [...catalog.leagues.values()]
      .filter((l) => sport === undefined || l.sport === sport)
      .map((l) => presentLeague(l, counts))
      .filter((l) => includeEmpty || l.event_count > 0);
    const data = matching.slice(offset, offset + limit);
    return { success: true, data, pagination: pagination(limit, offset, matching.length), meta: { count: data.length, total: catalog.leagues.size } };
  });

  app.get<{ Params: { leagueId: string } }>('/leagues/:leagueId', {
    schema: { tags: ['reference'], summary: 'One league', description: 'One league by id; 404 when unknown.', params: idParam('leagueId'), response: { 200: dataEnvelope(leagueSchema), 404: notFoundResponse, ...authErrorResponses } },
  }, async (request) => {
    const league = catalog.leagues.get(request.params.leagueId);
    if (!league) throw new ApiError('not_found', `Unknown league '${request.params.leagueId}'`);
    return { success: true, data: presentLeague(league, countEvents(board, (e) => [e.league])) };
  });

  app.get<{ Querystring: { region?: string; sharp?: boolean; catalog: boolean; include_unlisted: boolean; include_inactive: boolean; limit: number; offset: number } }>('/sportsbooks', {
    schema: {
      tags: ['reference'],
      summary: 'Sportsbooks, by default those with events now',
      description: 'Sportsbooks with their tier (`requires_tier`), regions and live counts. `catalog=true` gives the configured catalog whatever the data.',
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
  }, async (request) => {
    const q = request.query;
    const matching = [...catalog.books.values()]
      .filter((b) => q.region === undefined || b.regions.includes(q.region as never))
      .filter((b) => q.sharp === undefined || b.isSharp === q.sharp)
      .filter((b) => q.catalog || q.include_unlisted || !b.unlisted)
      .map((b) => presentBook(board, b))
      .filter((b) => q.catalog || q.include_inactive || b['status'] === 'active');
    const data = matching.slice(q.offset, q.offset + q.limit);
    return { success: true, data, pagination: pagination(q.limit, q.offset, matching.length), meta: { count: data.length, total: catalog.books.size } };
  });

  app.get<{ Params: { bookId: string } }>('/sportsbooks/:bookId', {
    schema: { tags: ['reference'], summary: 'One sportsbook', description: 'One sportsbook by id; 404 when unknown.', params: idParam('bookId'), response: { 200: dataEnvelope(sportsbookSchema), 404: notFoundResponse, ...authErrorResponses } },
  }, async (request) => {
    const book = catalog.books.get(request.params.bookId);
    if (!book) throw new ApiError('not_found', `Unknown sportsbook '${request.params.bookId}'`);
    return { success: true, data: presentBook(board, book) };
  });

  app.get<{ Querystring: { sport?: string; limit: number; offset: number } }>('/markets', {
    schema: {
      tags: ['reference'],
      summary: 'Market types, with the events and selections currently offering each',
      description: 'The market types of the contract with hasLine and current usage; `meta.rate_limit` echoes the rate-limit headers.',
      querystring: { type: 'object', properties: { sport: { type: 'string', maxLength: 100 }, ...pagingParams(100, 1000) } },
      response: { 200: listEnvelope(marketSchema, MARKETS_META), 404: notFoundResponse, ...authErrorResponses },
    },
  }, async (request, reply) => {
    const { sport } = request.query;
    if (sport !== undefined && !catalog.sports.has(sport)) throw new ApiError('not_found', `Unknown sport '${sport}'`);
    let totalEvents = 0;
    let totalSelections = 0;
    const all = [...catalog.markets.values()].map((m) => {
      const sports = new Set<string>();
      let events = 0;
      let selections = 0;
      for (const [eventId, rows] of board.marketUsage(m.id).events) {
        const e = board.event(eventId);
        if (!e) continue;
        sports.add(e.sport);
        if (sport !== undefined && e.sport !== sport) continue;
        events++;
        selections += rows;
      }
      totalEvents += events;
      totalSelections += selections;
      return { id: m.id, numerical_id: m.numericalId, name: m.name, description: m.description, hasLine: m.hasLine, examples: m.examples, event_count: events, selection_count: selections, sports: [...sports].sort() };
    });
    const limit = Number(reply.getHeader('x-ratelimit-limit') ?? TIERS[request.apiKey?.tier ?? 'free'].requestsPerMinute);
    const remaining = Number(reply.getHeader('x-ratelimit-remaining') ?? limit);
    const reset = Number(reply.getHeader('x-ratelimit-reset') ?? 0);
    const data = all.slice(request.query.offset, request.query.offset + request.query.limit);
    return {
      success: true,
      data,
      pagination: pagination(request.query.limit, request.query.offset, all.length),
      meta: { count: data.length, total_events: totalEvents, total_selections: totalSelections, rate_limit: { limit, remaining, reset } },
    };
  });

  app.get<{ Querystring: { sport?: string; league?: string; q?: string; limit: number; offset: number } }>('/teams', {
    schema: {
      tags: ['reference'],
      summary: 'Teams (and players of individual sports) with their aliases',
      description: 'Teams of the catalog with frozen numerical ids, abbreviations and the aliases books use; `q` searches names and aliases; 404 for an unknown sport or league.',
      querystring: {
        type: 'object',
        properties: {
          sport: { type: 'string', maxLength: 100 },
          league: { type: 'string', maxLength: 100 },
          q: { type: 'string', maxLength: 200, description: 'Any part of a name, alias or abbreviation; case- and accent-insensitive (lak finds the Lakers).' },
          ...pagingParams(100, 1000),
        },
      },
      response: {
        200: listEnvelope(teamSchema, TEAMS_META),
        404: notFoundResponse,
        ...authErrorResponses,
      },
    },
  }, async (request) => {
    const { sport, league, q, limit, offset } = request.query;
    // Unknown ids are 404 here as on /leagues and /markets, not an empty list.
    if (sport !== undefined && !catalog.sports.has(sport)) throw new ApiError('not_found', `Unknown sport '${sport}'`);
    if (league !== undefined && !catalog.leagues.has(league)) throw new ApiError('not_found', `Unknown league '${league}'`);
    const counts = countEvents(board, (e) => [e.homeTeamId, e.awayTeamId]);
    const hits = q === undefined ? null : catalog.teams.searchPartial(q);
    const all = [...catalog.teams.all()].filter(
      (t) => (sport === undefined || t.sport === sport) && (league === undefined || t.leagues.includes(league)) && (hits === null || hits.has(t.id)),
    );
    let totalEvents = 0;
    let totalLive = 0;
    const rows = all.map((t) => {
      const c = counts.get(t.id);
      totalEvents += c?.events ?? 0;
      totalLive += c?.live ?? 0;
      return { id: t.id, numerical_id: t.numericalId, name: t.name, abbreviation: t.abbreviation, sport: t.sport, leagues: t.leagues, aliases: t.aliases, event_count: c?.events ?? 0, live_count: c?.live ?? 0 };
    });
    const data = rows.slice(offset, offset + limit);
    return {
      success: true,
      data,
      pagination: pagination(limit, offset, rows.length),
      meta: {
        count: data.length,
        total: rows.length,
        sport_filter: sport ?? null,
        league_filter: league ?? null,
        query: q ?? null,
        total_events: totalEvents,
        total_live: totalLive,
        updated: isoTime(board.lastChangeAt ?? deps.clock.now()),
      },
    };
  });
};
