import type { FutureEvOpportunity, FuturesMarket, TierName } from '../../schemas/index.js';
import { FUTURE_TYPES, TIERS, selectBooks } from '../../schemas/index.js';
import { csv } from '../contract/index.js';
import { bookSelectionError } from '../contract/index.js';
import { known } from './parse-filters.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import type { FuturesView } from '../views/index.js';
import { hasFeature, requireFeatureOf } from './access.js';
import { compareFutures, futuresEv, futuresOdds, listFutures } from './futures.js';
import type { FutureMarketSummary, FutureOddsRow, FuturesComparison } from '../contract/index.js';
import { badQuery } from './invalid-query.js';
import type { QueryOf } from '../contract/index.js';

/**
 * Futures (outrights) as every interface answers them: the REST routes and the MCP futures tools
 * call these with their parameters (comma-separated ids, as the query string has them) and the
 * key's tier; the checks of ids against the catalog and the tier's books and delay are here, the
 * paging and presenting are the interface's. The tier gate of each interface is its own
 * (`TIER_MINIMUMS.futuresTools` for MCP, the ev feature for futures +EV).
 */
export interface FuturesSource {
  futures: FuturesView;
  catalog: Catalog;
}

/** The market filters of every futures answer, as comma-separated ids (the MCP tools take `future_type` on prices too). */
export type FuturesFilterQuery = Pick<QueryOf<'/api/v1/futures'>, 'sport' | 'league' | 'future_type'>;
/** The answers leave the paging to the interface. */
type Unpaged<Q> = Omit<Q, 'limit' | 'offset'>;

interface MarketFilters {
  sports?: Set<string>;
  leagues?: Set<string>;
  futureTypes?: Set<string>;
}

const FUTURE_TYPE_SET: ReadonlySet<string> = new Set(FUTURE_TYPES);

function marketFilters(catalog: Catalog, q: FuturesFilterQuery): MarketFilters {
  const types = csv(q.future_type);
  for (const t of types ?? []) if (!FUTURE_TYPE_SET.has(t)) throw badQuery('future_type', `expected one of ${FUTURE_TYPES.join(', ')}`);
  const sports = known('sport', csv(q.sport), catalog.sports, 'sport');
  const leagues = known('league', csv(q.league), catalog.leagues, 'league');
  return { ...(sports ? { sports } : {}), ...(leagues ? { leagues } : {}), ...(types ? { futureTypes: types } : {}) };
}

const knownBooks = (catalog: Catalog, sportsbook: string | undefined): Set<string> | undefined =>
  known('sportsbook', csv(sportsbook), catalog.books, 'sportsbook');

/** The books a tier is served (its own, or those it names, within the tier) and the delay it sees them with. */
interface TierScope {
  books: Set<string>;
  delaySeconds: number;
}

function tierScope(catalog: Catalog, tier: TierName, sportsbook: string | undefined): TierScope {
  const selection = selectBooks(tier, [...catalog.books.values()], knownBooks(catalog, sportsbook));
  if (!selection.ok) throw bookSelectionError(tier, selection);
  return { books: selection.books, delaySeconds: TIERS[tier].dataDelaySeconds };
}

export type FuturesMarketsQuery = Unpaged<QueryOf<'/api/v1/futures'>>;

/**
 * The markets some book prices, by league then id. Without a tier (the keyless list): at any
 * book, or one of those named, live; for a tier: at the tier's books, with its delay.
 */
export function futuresMarkets(src: FuturesSource, tier: TierName | null, q: FuturesMarketsQuery): FutureMarketSummary[] {
  if (tier === null) {
    const books = knownBooks(src.catalog, q.sportsbook);
    return listFutures(src.futures, { ...marketFilters(src.catalog, q), ...(books ? { books } : {}), delayMs: 0 });
  }
  const scope = tierScope(src.catalog, tier, q.sportsbook);
  return listFutures(src.futures, { ...marketFilters(src.catalog, q), books: scope.books, delayMs: scope.delaySeconds * 1000 });
}

export type FuturesPricesQuery = Unpaged<QueryOf<'/api/v1/futures/odds'>> & FuturesFilterQuery;

export interface FuturesPrices {
  rows: FutureOddsRow[];
  /** How many market ids were asked for, and those no book of the tier prices now (sorted). */
  requested: number;
  missing: string[];
  delaySeconds: number;
  /** The fair line and EV % go only to tiers with the ev feature. */
  withFair: boolean;
}

/** Every price of the named markets at the tier's books, with its delay. */
export function futuresPrices(src: FuturesSource, tier: TierName, q: FuturesPricesQuery): FuturesPrices {
  const ids = csv(q.future_id ?? q.market);
  if (!ids) throw new ApiError('invalid_request', "Missing required query parameter 'future_id'");
  const scope = tierScope(src.catalog, tier, q.sportsbook);
  const rows = futuresOdds(src.futures, {
    futureIds: ids,
    books: scope.books,
    ...marketFilters(src.catalog, q),
    delayMs: scope.delaySeconds * 1000,
  });
  const present = new Set(rows.map((r) => r.quote.futureId));
  return {
    rows,
    requested: ids.size,
    missing: [...ids].filter((id) => !present.has(id)).sort(),
    delaySeconds: scope.delaySeconds,
    withFair: hasFeature(tier, 'ev'),
  };
}

export type FuturesEvListQuery = Unpaged<QueryOf<'/api/v1/futures/ev'>>;

/** Current futures +EV at the tier's books, best EV first: the ev feature. */
export function futuresEvList(
  src: FuturesSource,
  tier: TierName,
  q: FuturesEvListQuery,
): { opportunity: FutureEvOpportunity; market: FuturesMarket }[] {
  requireFeatureOf(tier, 'ev');
  const scope = tierScope(src.catalog, tier, q.sportsbook);
  const futureIds = csv(q.future_id);
  return futuresEv(src.futures, {
    ...marketFilters(src.catalog, q),
    books: scope.books,
    ...(futureIds ? { futureIds } : {}),
    ...(q.min_ev === undefined ? {} : { minEv: q.min_ev }),
  });
}

export interface FuturesComparisonQuery {
  future_id: string;
  sportsbook?: string;
}

/** One market laid out side by side at the tier's books; null when none of them prices it. */
export function futuresComparison(src: FuturesSource, tier: TierName, q: FuturesComparisonQuery): FuturesComparison | null {
  const scope = tierScope(src.catalog, tier, q.sportsbook);
  return compareFutures(src.futures, q.future_id, scope.books, scope.delaySeconds * 1000);
}
