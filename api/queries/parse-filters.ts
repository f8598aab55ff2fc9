import { MARKET_IDS, selectBooks, selectionFamily } from '../../schemas/index.js';
import type { OddsRow, TierName } from '../../schemas/index.js';
import { csv } from '../contract/index.js';
import type { QueryOf } from '../contract/index.js';
import { MARKET_CATEGORIES, bookSelectionError } from '../contract/index.js';
import type { MarketFacts } from '../contract/index.js';
import { unknownValue } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import type { EventFilter, RowFilter } from '../views/index.js';

/*
 * The shared filters parsed into the board's event and row filters, every id checked against the
 * catalog (their schemas and wording as clients see them: api/contract/filters.ts).
 */

const PLAYER_STAT = /^player_([a-z0-9_]+)$/;

/** The Odds API's market keys, offered when no value of ours is near the one sent. */
const MARKET_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ['h2h', 'moneyline'],
  ['outrights', 'future'],
]);

/** What a `market` value may be, in the words of the refusal. */
export function unknownMarket(item: string): string {
  return unknownValue(item, {
    what: 'market',
    values: [...MARKET_IDS, ...MARKET_CATEGORIES.keys()],
    patterns: ['player_<stat>'],
    synonyms: MARKET_SYNONYMS,
  });
}

/**
 * A `market` value: market ids, categories, or `player_<stat>` (one stat of player props).
 * `markets` is every market id it can match; `test` is set only when the ids alone are not exact.
 */
export function parseMarkets(
  value: string | undefined,
  field = 'market',
  where: FilterSource = 'query parameter',
): { markets: Set<string>; test?: (m: MarketFacts) => boolean } | undefined {
  const items = csv(value);
  if (!items) return undefined;
  const markets = new Set<string>();
  const tests: ((m: MarketFacts) => boolean)[] = [];
  let exact = true;
  for (const item of items) {
    const category = MARKET_CATEGORIES.get(item);
    const stat = PLAYER_STAT.exec(item)?.[1];
    if (category) {
      for (const m of category.markets) markets.add(m);
      tests.push(category.test);
      // `main` and `props` are whole markets; the others split period markets by family.
      if (item === 'spread' || item === 'total') exact = false;
    } else if ((MARKET_IDS as readonly string[]).includes(item)) {
      markets.add(item);
      tests.push((m) => m.market === item);
    } else if (stat !== undefined && item !== 'player_prop') {
      markets.add('player_prop');
      tests.push((m) => m.market === 'player_prop' && m.statCategory === stat);
      exact = false;
    } else {
      throw new ApiError('invalid_request', `Invalid ${where} '${field}': ${unknownMarket(item)}`);
    }
  }
  return exact ? { markets } : { markets, test: (m) => tests.some((t) => t(m)) };
}

/** The filters every odds-shaped endpoint shares, as /odds's schema declares them (each route reuses its fragments). */
export type SharedFilterQuery = Pick<
  QueryOf<'/api/v1/odds'>,
  'sport' | 'league' | 'sportsbook' | 'market' | 'event' | 'live' | 'team' | 'date' | 'q' | 'min_odds' | 'max_odds'
>;

/** A catalog id the catalog does not have, in the words of the refusal: the id it likely meant, and where the ids are listed. */
export function unknownId(id: string, ids: ReadonlyMap<string, unknown>, what: 'sport' | 'league' | 'sportsbook'): string {
  return unknownValue(id, { what, values: ids.keys(), listedAt: `GET /api/v1/${what}s` });
}

/** Unknown ids in a filter are a client's typo, not an empty result: 400 naming the field. */
export function known(
  field: string,
  values: Set<string> | undefined,
  ids: ReadonlyMap<string, unknown>,
  what: 'sport' | 'league' | 'sportsbook',
  where = 'query parameter',
): Set<string> | undefined {
  if (!values) return undefined;
  for (const v of values) {
    if (!ids.has(v)) throw new ApiError('invalid_request', `Invalid ${where} '${field}': ${unknownId(v, ids, what)}`);
  }
  return values;
}

/** Where the filters came from, for messages: `query parameter` or `body field`. */
export type FilterSource = 'query parameter' | 'body field';

export function parseFilters(
  query: SharedFilterQuery,
  catalog: Catalog,
  where: FilterSource = 'query parameter',
): { event: EventFilter; row: RowFilter } {
  const books = known('sportsbook', csv(query.sportsbook), catalog.books, 'sportsbook', where);
  const event: EventFilter = {
    sports: known('sport', csv(query.sport), catalog.sports, 'sport'),
    leagues: known('league', csv(query.league), catalog.leagues, 'league'),
    eventIds: csv(query.event),
    live: query.live,
    teamIds: query.team === undefined ? undefined : catalog.teams.search(query.team),
    q: query.q === undefined ? undefined : { text: query.q.toLowerCase(), teamIds: catalog.teams.search(query.q) },
    date: query.date,
  };
  if (query.min_odds !== undefined && query.max_odds !== undefined && query.min_odds > query.max_odds) {
    throw new ApiError('invalid_request', "Invalid query parameter 'min_odds': must not exceed max_odds");
  }
  const markets = parseMarkets(query.market, 'market', where);
  const test = markets?.test;
  const row: RowFilter = {
    books,
    markets: markets?.markets,
    ...(test
      ? { marketTest: (r: OddsRow) => test({ market: r.market, family: selectionFamily(r.selection), statCategory: r.statCategory }) }
      : {}),
    minOdds: query.min_odds,
    maxOdds: query.max_odds,
  };
  return { event, row };
}

/** The shared filters plus `add_sportsbook`, the tier's optional extra books. */
export type OddsFilterQuery = SharedFilterQuery & Pick<QueryOf<'/api/v1/odds'>, 'add_sportsbook'>;

/**
 * The shared filters of an odds endpoint, with the sportsbooks the key's tier serves: the
 * tier's default set, or exactly `sportsbook`, plus `add_sportsbook`. A book the tier does not
 * open, or more books than the tier serves, is 403 feature_required naming the tier that has it.
 */
export function parseOddsFilters(
  query: OddsFilterQuery,
  catalog: Catalog,
  tier: TierName,
  where: FilterSource = 'query parameter',
): { event: EventFilter; row: RowFilter } {
  const filters = parseFilters(query, catalog, where);
  const added = known('add_sportsbook', csv(query.add_sportsbook), catalog.books, 'sportsbook');
  const selection = selectBooks(tier, [...catalog.books.values()], filters.row.books, added);
  if (!selection.ok) throw bookSelectionError(tier, selection);
  // Every book selected is no book filter at all: the board's fast paths then skip the check.
  const everyBook = selection.books.size === catalog.books.size;
  return { event: filters.event, row: { ...filters.row, books: everyBook ? undefined : selection.books } };
}
