import type { TierName } from '../../schemas/index.js';
import { TIERS } from '../../schemas/index.js';
import { isoTime, pagination } from '../contract/index.js';
import { presentBook, presentLeague, presentSport } from '../contract/index.js';
import { ApiError } from '../errors.js';
import { countEvents } from '../views/index.js';
import type { ReadSide } from './read-side.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

/**
 * The reference lists (sports, leagues, sportsbooks, market types, teams) as every interface
 * answers them: REST routes and MCP tools call these with the parsed query and present the
 * result unchanged. They read the live board (counts are not tier data).
 */
type ReferenceDeps = Pick<ReadSide, 'board' | 'catalog' | 'clock'>;

export type SportsQuery = QueryOf<'/api/v1/sports'>;

export function sportsList(deps: ReferenceDeps, q: SportsQuery): ReplyOf<'/api/v1/sports'> {
  const { board, catalog } = deps;
  const counts = countEvents(board, (e) => [e.sport]);
  const all = [...catalog.sports.keys()].flatMap((id) => presentSport(catalog, id, counts) ?? []);
  const { limit, offset } = q;
  const matching = q.include_empty ? all : all.filter((s) => s.event_count > 0);
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
      filters: { include_empty: q.include_empty },
    },
  };
}

export type LeaguesQuery = QueryOf<'/api/v1/leagues'>;

export function leaguesList(deps: ReferenceDeps, q: LeaguesQuery): ReplyOf<'/api/v1/leagues'> {
  const { board, catalog } = deps;
  const { sport, include_empty: includeEmpty, limit, offset } = q;
  if (sport !== undefined && !catalog.sports.has(sport)) throw new ApiError('not_found', `Unknown sport '${sport}'`);
  const counts = countEvents(board, (e) => [e.league]);
  const matching = [...catalog.leagues.values()]
    .filter((l) => sport === undefined || l.sport === sport)
    .map((l) => presentLeague(l, counts))
    .filter((l) => includeEmpty || l.event_count > 0);
  const data = matching.slice(offset, offset + limit);
  return {
    success: true,
    data,
    pagination: pagination(limit, offset, matching.length),
    meta: { count: data.length, total: catalog.leagues.size },
  };
}

export type SportsbooksQuery = QueryOf<'/api/v1/sportsbooks'>;

export function sportsbooksList(deps: ReferenceDeps, q: SportsbooksQuery): ReplyOf<'/api/v1/sportsbooks'> {
  const { board, catalog } = deps;
  const matching = [...catalog.books.values()]
    .filter((b) => q.region === undefined || b.regions.includes(q.region))
    .filter((b) => q.sharp === undefined || b.isSharp === q.sharp)
    .filter((b) => q.catalog || q.include_unlisted || !b.unlisted)
    .map((b) => presentBook(board, b))
    .filter((b) => q.catalog || q.include_inactive || b.status === 'active');
  const data = matching.slice(q.offset, q.offset + q.limit);
  return {
    success: true,
    data,
    pagination: pagination(q.limit, q.offset, matching.length),
    meta: { count: data.length, total: catalog.books.size },
  };
}

export type MarketsQuery = QueryOf<'/api/v1/markets'>;

type MarketsMeta = NonNullable<ReplyOf<'/api/v1/markets'>['meta']>;
/** The caller's rate-limit window as of the request that asked (echoed by /markets, every field known). */
export type RateLimitState = Required<NonNullable<MarketsMeta['rate_limit']>>;

/** The window from the rate-limit headers of the request (the tier's limit when there are none). */
export function rateLimitState(header: (name: string) => unknown, tier: TierName): RateLimitState {
  const limit = Number(header('x-ratelimit-limit') ?? TIERS[tier].requestsPerMinute);
  const remaining = Number(header('x-ratelimit-remaining') ?? limit);
  const reset = Number(header('x-ratelimit-reset') ?? 0);
  return { limit, remaining, reset };
}

export function marketsList(deps: ReferenceDeps, q: MarketsQuery, rateLimit: RateLimitState): ReplyOf<'/api/v1/markets'> {
  const { board, catalog } = deps;
  const { sport } = q;
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
    return {
      id: m.id,
      numerical_id: m.numericalId,
      name: m.name,
      description: m.description,
      hasLine: m.hasLine,
      examples: [...m.examples],
      event_count: events,
      selection_count: selections,
      sports: [...sports].sort(),
    };
  });
  const data = all.slice(q.offset, q.offset + q.limit);
  return {
    success: true,
    data,
    pagination: pagination(q.limit, q.offset, all.length),
    meta: { count: data.length, total_events: totalEvents, total_selections: totalSelections, rate_limit: rateLimit },
  };
}

export type TeamsQuery = QueryOf<'/api/v1/teams'>;

export function teamsList(deps: ReferenceDeps, query: TeamsQuery): ReplyOf<'/api/v1/teams'> {
  const { board, catalog } = deps;
  const { sport, league, q, limit, offset } = query;
  // Unknown ids are 404 here as on /leagues and /markets, not an empty list.
  if (sport !== undefined && !catalog.sports.has(sport)) throw new ApiError('not_found', `Unknown sport '${sport}'`);
  if (league !== undefined && !catalog.leagues.has(league)) throw new ApiError('not_found', `Unknown league '${league}'`);
  const counts = countEvents(board, (e) => [e.homeTeamId, e.awayTeamId]);
  const hits = q === undefined ? null : catalog.teams.searchPartial(q);
  const all = [...catalog.teams.all()].filter(
    (t) =>
      (sport === undefined || t.sport === sport) &&
      (league === undefined || t.leagues.includes(league)) &&
      (hits === null || hits.has(t.id)),
  );
  let totalEvents = 0;
  let totalLive = 0;
  const rows = all.map((t) => {
    const c = counts.get(t.id);
    totalEvents += c?.events ?? 0;
    totalLive += c?.live ?? 0;
    return {
      id: t.id,
      numerical_id: t.numericalId,
      name: t.name,
      abbreviation: t.abbreviation,
      sport: t.sport,
      leagues: [...t.leagues],
      aliases: [...t.aliases],
      event_count: c?.events ?? 0,
      live_count: c?.live ?? 0,
    };
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
}
