import { SPLIT_MARKETS, SPLITS_BOOKS } from '../../schemas/index.js';
import type { SplitMarket } from '../../schemas/index.js';
import { csv } from '../contract/index.js';
import type { QueryOf } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import { parseFilters } from './parse-filters.js';
import { SPLIT_SIGNALS } from './splits-query.js';
import type { SplitSignalKind, SplitsQuery } from './splits-query.js';

const SPLITS_BOOK_SET: ReadonlySet<string> = new Set(SPLITS_BOOKS);
const MARKET_SET: ReadonlySet<string> = new Set(SPLIT_MARKETS);
const SIGNAL_SET: ReadonlySet<string> = new Set(SPLIT_SIGNALS);

/** A comma list whose every item must be one of `allowed`: 400 naming the parameter otherwise. */
export function oneOf(name: string, value: string | undefined, allowed: ReadonlySet<string>): Set<string> | undefined {
  const items = csv(value);
  for (const v of items ?? []) {
    if (!allowed.has(v))
      throw new ApiError('invalid_request', `Invalid query parameter '${name}': '${v}' is not one of ${[...allowed].join(', ')}`);
  }
  return items;
}

export function splitsBooks(value: string | undefined): Set<string> | undefined {
  return oneOf('sportsbook', value, SPLITS_BOOK_SET);
}

/** The filters of `/splits` (and of the `splits` stream channel), as query-string values: `event_id` is `event`'s alias. */
export type SplitsFilterQuery = Omit<QueryOf<'/api/v1/splits'>, 'event_id' | 'limit' | 'offset'>;

/** Parses the `/splits` filters: 400 naming the parameter for an unknown id, book, market or signal. */
export function parseSplitsFilters(qs: SplitsFilterQuery, catalog: Catalog): Omit<SplitsQuery, 'delayMs'> {
  const { event } = parseFilters(
    { sport: qs.sport, league: qs.league, event: qs.event, live: qs.live, team: qs.team, date: qs.date, q: qs.q },
    catalog,
  );
  const books = splitsBooks(qs.sportsbook);
  const markets = oneOf('market', qs.market, MARKET_SET) as Set<SplitMarket> | undefined;
  const signals = oneOf('signal', qs.signal, SIGNAL_SET) as Set<SplitSignalKind> | undefined;
  return { event, ...(books ? { books } : {}), ...(markets ? { markets } : {}), ...(signals ? { signals } : {}) };
}
