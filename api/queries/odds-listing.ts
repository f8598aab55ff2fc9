import type { TierName } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { queryFingerprint } from './cursor.js';
import type { OddsFilters } from './odds.js';
import { parseOddsFilters } from './parse-filters.js';
import type { OddsFilterQuery } from './parse-filters.js';

/**
 * What a listing's filters and sort decide, worked out once per distinct query rather than on
 * every request: the parsed filters (ids checked against the catalog, the tier's books selected)
 * and the fingerprint its cursors carry. Clients poll the same few queries over and over, and
 * parsing and hashing them again took about 5 % of a 100-row page's CPU in a profile
 * (docs/performance.md, 2026-11-29). Both depend only on the query, the tier and the catalog,
 * which is read-only, so nothing kept goes stale. The result is shared: callers must not change it.
 */
export interface Listing {
  filters: OddsFilters;
  /** `queryFingerprint` of the filters, the sort and the tier: a cursor names it. */
  fingerprint: string;
}

/** Distinct queries kept per catalog; past it the oldest goes. Keys are client input: a `Map`, bounded. */
export const LISTINGS_KEPT = 512;
/** A longer key is worked out on every request instead, so hostile queries pin at most LISTINGS_KEPT x this. */
const MAX_KEY = 2048;

const byCatalog = new WeakMap<Catalog, Map<string, Listing>>();

/**
 * The listing of `query` for `tier`: kept when it was asked before, else parsed (a refused query
 * throws as `parseOddsFilters` does, and is not kept).
 */
export function listingOf(catalog: Catalog, tier: TierName, query: OddsFilterQuery, sort: string | undefined): Listing {
  const filterQuery = {
    sport: query.sport,
    league: query.league,
    sportsbook: query.sportsbook,
    add_sportsbook: query.add_sportsbook,
    market: query.market,
    event: query.event,
    live: query.live,
    team: query.team,
    date: query.date,
    q: query.q,
    min_odds: query.min_odds,
    max_odds: query.max_odds,
  };
  const key = listingKey([tier, sort, ...Object.values(filterQuery)]);
  let kept = byCatalog.get(catalog);
  const hit = key === null ? undefined : kept?.get(key);
  if (hit) return hit;
  const listing: Listing = {
    filters: parseOddsFilters(filterQuery, catalog, tier),
    // queryFingerprint sorts the keys: the same fingerprint as before listings were kept, so cursors
    // issued earlier stay valid.
    fingerprint: queryFingerprint({ ...filterQuery, sort, tier }),
  };
  if (key !== null) {
    if (!kept) byCatalog.set(catalog, (kept = new Map()));
    if (kept.size >= LISTINGS_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, listing);
  }
  return listing;
}

/**
 * The parameters a listing depends on, each with its type and strings with their length, so two
 * different queries never share a key (`live=true` the boolean is not the string "true"); null
 * when a value is of another type or the key would be too long to keep.
 */
function listingKey(values: readonly unknown[]): string | null {
  let key = '';
  for (const v of values) {
    switch (typeof v) {
      case 'undefined':
        key += '-';
        break;
      case 'string':
        key += `s${v.length}:${v}`;
        break;
      case 'number':
        key += `n${v};`;
        break;
      case 'boolean':
        key += v ? 't' : 'f';
        break;
      default:
        return null;
    }
    if (key.length > MAX_KEY) return null;
  }
  return key;
}
