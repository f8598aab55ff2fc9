import type { TierName } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import { selectBooks } from '../tiers.js';
import type { Catalog } from '../views/catalog.js';
import type { EventFilter, RowFilter } from '../views/filters.js';
import { csv, csvParam } from './common.js';

/** Query-string schemas of the shared filters, one definition for every route. */
export const sharedFilterParams = {
  sport: csvParam('Sport ids, comma-separated.'),
  league: csvParam('League ids, comma-separated.'),
  sportsbook: csvParam('Sportsbook ids, comma-separated.'),
  market: csvParam('Market ids, comma-separated.'),
  event: csvParam('Event ids, comma-separated.'),
  live: { type: 'boolean', description: 'true: live events only; false: pre-match only; omitted: both.' },
  team: { type: 'string', maxLength: 200, description: 'Team id, or whole words of a team name or alias.' },
  date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Start date (YYYY-MM-DD) in US Eastern time.' },
  q: { type: 'string', maxLength: 200, description: 'Free text over team names and aliases, league names and event ids.' },
  min_odds: { type: 'number', minimum: -100000, maximum: 100000, description: 'Lowest American price.' },
  max_odds: { type: 'number', minimum: -100000, maximum: 100000, description: 'Highest American price.' },
} as const;

export interface SharedFilterQuery {
  sport?: string;
  league?: string;
  sportsbook?: string;
  market?: string;
  event?: string;
  live?: boolean;
  team?: string;
  date?: string;
  q?: string;
  min_odds?: number;
  max_odds?: number;
}

/** Unknown ids in a filter are a client's typo, not an empty result: 400 naming the field. */
function known(field: string, values: Set<string> | undefined, has: (id: string) => boolean, what: string, where = 'query parameter'): Set<string> | undefined {
  if (!values) return undefined;
  for (const v of values) {
    if (!has(v)) throw new ApiError('invalid_request', `Invalid ${where} '${field}': unknown ${what} '${v}'`);
  }
  return values;
}

/** Where the filters came from, for messages: `query parameter` or `body field`. */
export type FilterSource = 'query parameter' | 'body field';

export function parseFilters(query: SharedFilterQuery, catalog: Catalog, where: FilterSource = 'query parameter'): { event: EventFilter; row: RowFilter } {
  const books = known('sportsbook', csv(query.sportsbook), (id) => catalog.books.has(id), 'sportsbook', where);
  const event: EventFilter = {
    sports: known('sport', csv(query.sport), (id) => catalog.sports.has(id), 'sport'),
    leagues: known('league', csv(query.league), (id) => catalog.leagues.has(id), 'league'),
    eventIds: csv(query.event),
    live: query.live,
    teamIds: query.team === undefined ? undefined : catalog.teams.search(query.team),
    q: query.q === undefined ? undefined : { text: query.q.toLowerCase(), teamIds: catalog.teams.search(query.q) },
    date: query.date,
  };
  if (query.min_odds !== undefined && query.max_odds !== undefined && query.min_odds > query.max_odds) {
    throw new ApiError('invalid_request', "Invalid query parameter 'min_odds': must not exceed max_odds");
  }
  const row: RowFilter = {
    books,
    markets: known('market', csv(query.market), (id) => catalog.markets.has(id as never), 'market', where),
    minOdds: query.min_odds,
    maxOdds: query.max_odds,
  };
  return { event, row };
}

export interface OddsFilterQuery extends SharedFilterQuery {
  add_sportsbook?: string;
}

export const addSportsbookParam = csvParam(
  'Sportsbook ids to serve on top of the selection (the tier default, or `sportsbook`); the union must stay within the tier.',
);

/**
 * The shared filters of an odds endpoint, with the sportsbooks the key's tier serves: the
 * tier's default set, or exactly `sportsbook`, plus `add_sportsbook`. A book the tier does not
 * open, or more books than the tier serves, is 403 feature_required naming the tier that has it.
 */
export function parseOddsFilters(query: OddsFilterQuery, catalog: Catalog, tier: TierName, where: FilterSource = 'query parameter'): { event: EventFilter; row: RowFilter } {
  const filters = parseFilters(query, catalog, where);
  const added = known('add_sportsbook', csv(query.add_sportsbook), (id) => catalog.books.has(id), 'sportsbook');
  const selection = selectBooks(tier, [...catalog.books.values()], filters.row.books, added);
  if (!selection.ok) {
    if (selection.reason === 'tier') {
      throw new ApiError('feature_required', `Sportsbook '${selection.book}' needs the ${selection.needs} tier or higher; this key is ${tier}`);
    }
    throw new ApiError(
      'feature_required',
      `The ${tier} tier serves at most ${selection.max} sportsbooks per request (asked for ${selection.asked}); the ${selection.needs} tier serves more`,
    );
  }
  // Every book selected is no book filter at all: the board's fast paths then skip the check.
  const everyBook = selection.books.size === catalog.books.size;
  return { event: filters.event, row: { ...filters.row, books: everyBook ? undefined : selection.books } };
}
