import type { FastifyPluginAsync } from 'fastify';
import { REGIONS, TIER_NAMES } from '../../schemas/index.js';
import type { SportsbookDef } from '../../schemas/index.js';
import { authErrorResponses, dataEnvelope, isoTime, labelRefSchema, notFoundResponse, nullableInteger, nullableString, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { TIERS } from '../tiers.js';
import { countEvents } from '../views/counts.js';

const sportSchema = {
  type: 'object',
  required: ['id', 'name', 'leagues', 'event_count', 'live_count'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    leagues: { type: 'array', items: { type: 'string' } },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
  },
} as const;

const leagueSchema = {
  type: 'object',
  required: ['id', 'name', 'sport', 'event_count', 'live_count'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    sport: { type: 'string' },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
  },
} as const;

const sportsbookSchema = {
  type: 'object',
  required: ['id', 'name', 'display_name', 'is_sharp', 'has_live_odds', 'has_player_props', 'regions', 'requires_tier', 'status', 'event_count', 'last_update', 'unlisted'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    display_name: { type: 'string' },
    is_sharp: { type: 'boolean' },
    has_live_odds: { type: 'boolean' },
    has_player_props: { type: 'boolean' },
    regions: { type: 'array', items: { type: 'string', enum: [...REGIONS] } },
    requires_tier: { type: 'string', enum: [...TIER_NAMES] },
    status: { type: 'string', enum: ['active', 'inactive'] },
    event_count: { type: 'integer' },
    last_update: { ...nullableString, format: 'date-time' },
    unlisted: { type: 'boolean' },
  },
} as const;

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

const teamSchema = {
  type: 'object',
  required: ['id', 'name', 'abbreviation', 'sport', 'leagues', 'aliases', 'event_count', 'live_count'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    abbreviation: nullableString,
    sport: { type: 'string' },
    leagues: { type: 'array', items: { type: 'string' } },
    aliases: { type: 'array', items: { type: 'string' } },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
    sport_ref: labelRefSchema,
  },
} as const;

const listMeta = { type: 'object', additionalProperties: true } as const;
const listEnvelope = (item: object): object => paginatedEnvelope(item, listMeta);
const bool = (description: string, fallback = false): object => ({ type: 'boolean', default: fallback, description });
const idParam = (name: string): object => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', maxLength: 200 } } });

export const referenceRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { board, catalog } = deps;

  function presentSport(id: string, counts: Map<string, { events: number; live: number }>) {
    const s = catalog.sports.get(id);
    if (!s) return undefined;
    const c = counts.get(id);
    return { id: s.id, numerical_id: s.numericalId, name: s.name, leagues: catalog.leaguesOf(s.id), event_count: c?.events ?? 0, live_count: c?.live ?? 0 };
  }

  function presentBook(b: SportsbookDef): Record<string, unknown> {
    const events = board.bookEventCount(b.id);
    const last = board.bookLastUpdateAt(b.id);
    return {
      id: b.id,
      numerical_id: b.numericalId,
      name: b.name,
      display_name: b.displayName,
      is_sharp: b.isSharp,
      has_live_odds: b.hasLiveOdds,
      has_player_props: b.hasPlayerProps,
      regions: b.regions,
      requires_tier: b.requiresTier,
      status: events > 0 ? 'active' : 'inactive',
      event_count: events,
      last_update: last === null ? null : isoTime(last),
      unlisted: b.unlisted,
    };
  }

  app.get<{ Querystring: { include_empty: boolean; limit: number; offset: number } }>('/sports', {
    schema: {
      tags: ['reference'],
      summary: 'Sports, with the number of events that currently have odds',
      description: 'Sports of the catalog with their leagues and event counts; by default only sports with events now.',
      querystring: { type: 'object', properties: { include_empty: bool('Include sports with zero events (off-season).'), ...pagingParams(100, 1000) } },
      response: { 200: listEnvelope(sportSchema), ...authErrorResponses },
    },
  }, async (request) => {
    const counts = countEvents(board, (e) => [e.sport]);
    const all = [...catalog.sports.keys()].flatMap((id) => presentSport(id, counts) ?? []);
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
    const sport = presentSport(request.params.sportId, countEvents(board, (e) => [e.sport]));
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
      .map((l) => ({ id: l.id, numerical_id: l.numericalId, name: l.name, sport: l.sport, event_count: counts.get(l.id)?.events ?? 0, live_count: counts.get(l.id)?.live ?? 0 }))
      .filter((l) => includeEmpty || l.event_count > 0);
    const data = matching.slice(offset, offset + limit);
    return { success: true, data, pagination: pagination(limit, offset, matching.length), meta: { count: data.length, total: catalog.leagues.size } };
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
      .map(presentBook)
      .filter((b) => q.catalog || q.include_inactive || b['status'] === 'active');
    const data = matching.slice(q.offset, q.offset + q.limit);
    return { success: true, data, pagination: pagination(q.limit, q.offset, matching.length), meta: { count: data.length, total: catalog.books.size } };
  });

  app.get<{ Params: { bookId: string } }>('/sportsbooks/:bookId', {
    schema: { tags: ['reference'], summary: 'One sportsbook', description: 'One sportsbook by id; 404 when unknown.', params: idParam('bookId'), response: { 200: dataEnvelope(sportsbookSchema), 404: notFoundResponse, ...authErrorResponses } },
  }, async (request) => {
    const book = catalog.books.get(request.params.bookId);
    if (!book) throw new ApiError('not_found', `Unknown sportsbook '${request.params.bookId}'`);
    return { success: true, data: presentBook(book) };
  });

  app.get<{ Querystring: { sport?: string; limit: number; offset: number } }>('/markets', {
    schema: {
      tags: ['reference'],
      summary: 'Market types, with the events and selections currently offering each',
      description: 'The market types of the contract with hasLine and current usage; `meta.rate_limit` echoes the rate-limit headers.',
      querystring: { type: 'object', properties: { sport: { type: 'string', maxLength: 100 }, ...pagingParams(100, 1000) } },
      response: { 200: listEnvelope(marketSchema), 404: notFoundResponse, ...authErrorResponses },
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
          q: { type: 'string', maxLength: 200, description: 'Case-insensitive search of names and aliases (whole words).' },
          ...pagingParams(100, 1000),
        },
      },
      response: {
        200: listEnvelope(teamSchema),
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
    const hits = q === undefined ? null : catalog.teams.search(q);
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
