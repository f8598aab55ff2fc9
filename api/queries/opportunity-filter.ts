import type { Opportunity, OpportunityLeg, TierName } from '../../schemas/index.js';
import { isPhantom } from '../../pipeline/opportunities/index.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';
import { selectBooks } from '../../schemas/index.js';
import { csv } from '../contract/index.js';
import { bookSelectionError } from '../contract/index.js';
import { known, parseFilters, parseMarkets } from './parse-filters.js';
import type { commonOpportunityParams, DateRange } from '../contract/index.js';
import type { QueryOf } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import { easternDateOf, eventMatches } from '../views/index.js';
import type { EventFilter } from '../views/index.js';
import type { BoardEntry } from '../views/index.js';

/** The filters every opportunity list shares: their parsing and the matching, and the lists' order and counts. */

/** The parameters every opportunity list shares (`commonOpportunityParams`, paging included), as each list's schema types them. */
export type CommonOpportunityQuery = Pick<QueryOf<'/api/v1/opportunities/ev'>, keyof typeof commonOpportunityParams | 'limit' | 'offset'>;

export interface CommonFilter {
  books: Set<string>;
  event: EventFilter;
  market?: (o: Opportunity) => boolean;
  dates?: Set<string>;
  maxAgeMs?: number;
  minOdds?: number;
  maxOdds?: number;
  /** Leave out what this policy flags as phantom; absent (include=suspicious): keep everything. */
  phantom?: PhantomPolicy;
}

/** The items of an `include` comma list (its schema's enum has already checked them). */
export function includes(include: string | undefined, item: string): boolean {
  return include?.split(',').includes(item) ?? false;
}

export function parseMarketFilter(value: string | undefined): ((o: Opportunity) => boolean) | undefined {
  const parsed = parseMarkets(value);
  if (!parsed) return undefined;
  const { markets, test } = parsed;
  return test ? (o) => test({ market: o.market, family: o.family, statCategory: o.statCategory }) : (o) => markets.has(o.market);
}

/** The US Eastern dates a range covers, from today's Eastern date (calendar arithmetic). */
export function dateRangeDates(range: DateRange, now: number): Set<string> {
  const [y, m, d] = easternDateOf(now).split('-').map(Number);
  const days = range === 'today' ? [0] : range === 'tomorrow' ? [1] : [0, 1, 2, 3, 4, 5, 6];
  return new Set(days.map((k) => new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + k)).toISOString().slice(0, 10)));
}

/** `phantom`: what the default list leaves out (the board's policy); `include=suspicious` keeps it all the same. */
export function parseCommon(
  query: CommonOpportunityQuery,
  catalog: Catalog,
  tier: TierName,
  now: number,
  phantom?: PhantomPolicy,
): CommonFilter {
  const { event, row } = parseFilters(
    {
      sport: query.sport,
      league: query.league,
      sportsbook: query.sportsbook,
      event: query.event,
      live: query.live,
      team: query.team,
      min_odds: query.min_odds,
      max_odds: query.max_odds,
    },
    catalog,
  );
  const added = known('add_sportsbook', csv(query.add_sportsbook), catalog.books, 'sportsbook');
  const selection = selectBooks(tier, [...catalog.books.values()], row.books, added);
  if (!selection.ok) throw bookSelectionError(tier, selection);
  return {
    books: selection.books,
    event,
    market: parseMarketFilter(query.market),
    dates: query.date_range === undefined ? undefined : dateRangeDates(query.date_range, now),
    maxAgeMs: query.max_odds_age === undefined ? undefined : query.max_odds_age * 1000,
    minOdds: query.min_odds,
    maxOdds: query.max_odds,
    ...(phantom && !includes(query.include, 'suspicious') ? { phantom } : {}),
  };
}

function legOk(l: OpportunityLeg, f: CommonFilter): boolean {
  if (!f.books.has(l.book)) return false;
  if (f.minOdds !== undefined && l.priceAmerican < f.minOdds) return false;
  if (f.maxOdds !== undefined && l.priceAmerican > f.maxOdds) return false;
  return true;
}

/** Every leg visible to the caller and within the price bounds, and the event and market match. */
export function matchesCommon(e: BoardEntry, f: CommonFilter, catalog: Catalog, now: number): boolean {
  if (!e.o.legs.every((l) => legOk(l, f))) return false;
  if (f.market && !f.market(e.o)) return false;
  if (f.maxAgeMs !== undefined && now - e.o.oldestOddsTs > f.maxAgeMs) return false;
  if (f.phantom && isPhantom(e.o, now, f.phantom)) return false;
  if (f.dates && !f.dates.has(easternDateOf(e.o.event.startTime))) return false;
  return eventMatches(e.event, f.event, catalog);
}

/** The order a `sort` value names (a leading `-`: descending), ties broken by id so that pages never overlap. */
export function comparator<E extends BoardEntry>(
  sort: string,
  keys: Readonly<Record<string, (e: E) => number | string>>,
): (a: E, b: E) => number {
  const descending = sort.startsWith('-');
  const name = descending ? sort.slice(1) : sort;
  // Own keys only: `sort=constructor` names no sort key, whatever Object.prototype holds.
  const key = Object.hasOwn(keys, name) ? keys[name] : undefined;
  if (!key) throw new ApiError('invalid_request', `Invalid query parameter 'sort': unknown key '${sort}'`);
  const dir = descending ? -1 : 1;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? c * dir : a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0;
  };
}

/** Counts by a key (summary `by_*` objects), keys sorted for a stable body. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(key(i), (counts.get(key(i)) ?? 0) + 1);
  return Object.fromEntries([...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

/** Counts where one item may count under several keys (every sportsbook of a combination). */
export function countByEach<T>(items: readonly T[], keys: (item: T) => readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const i of items) for (const k of new Set(keys(i))) counts.set(k, (counts.get(k) ?? 0) + 1);
  return Object.fromEntries([...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}
