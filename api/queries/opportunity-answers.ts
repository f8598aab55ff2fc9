import { DEFAULT_LOW_HOLD_PERCENT } from '../../schemas/index.js';
import type { Feature, Opportunity, OpportunityKind, TierName } from '../../schemas/index.js';
import { isoTime, pagination } from '../contract/index.js';
import { presentArbitrage, presentEv, presentLowHold, presentMiddle } from '../contract/index.js';
import type { LinesOf } from '../contract/index.js';
import type { ListReplyOf, ListRowOf, QueryOf } from '../contract/index.js';
import { countBy, countByEach, includes, parseCommon } from './opportunity-filter.js';
import type { CommonFilter, CommonOpportunityQuery } from './opportunity-filter.js';
import { putStateInLinks, requestedState } from '../deeplinks/index.js';
import type { Catalog } from '../views/index.js';
import type { BoardEntry, OpportunityBoard } from '../views/index.js';
import { requireFeatureOf } from './access.js';
import {
  ARBITRAGE_SORT_KEYS,
  LOW_HOLD_SORT_KEYS,
  arbitrageMatches,
  evMatches,
  evSortKeys,
  lowHoldMatches,
  middleMatches,
  middleSortKeys,
  sortedPage,
} from './opportunities.js';
import type { OpportunityList } from './opportunities.js';
import type { ReadSide } from './read-side.js';
import { checkBounds } from './invalid-query.js';
import { opportunityContext } from './opportunity-context.js';
import { listAtCommission } from './account-rate.js';
import { checkEvRecipe, storedMethodOf, withRecipe } from './ev-recipe.js';
import { parseEvRowFilter } from './ev-row-filter.js';

/**
 * The four opportunity lists (+EV, arbitrage, middles, low-hold) as every interface answers
 * them: the feature gate of the tier, the parsed filters, the matches, the page and the summary.
 * REST routes and MCP tools present the body as is.
 */
export interface OpportunitySource {
  deps: Pick<ReadSide, 'catalog' | 'clock' | 'board' | 'gameStates' | 'oneSidedMargin'>;
  /** The board the `opportunities` changelog keeps (an empty one in a process without opportunity stages). */
  opportunities: OpportunityBoard;
}

type EntryOf<K extends OpportunityKind> = BoardEntry<Extract<Opportunity, { kind: K }>>;
/** What every list's query has beyond the shared filters. */
type ListQuery = CommonOpportunityQuery & { sort: string; state?: string };

type EvPath = '/api/v1/opportunities/ev';
type ArbitragePath = '/api/v1/opportunities/arbitrage';
type MiddlesPath = '/api/v1/opportunities/middles';
type LowHoldPath = '/api/v1/opportunities/low_hold';
type ListPath = EvPath | ArbitragePath | MiddlesPath | LowHoldPath;
type MetaOf<P extends ListPath> = ListReplyOf<P> extends { meta?: infer M } ? NonNullable<M> : never;
type SummaryOf<P extends ListPath> = MetaOf<P> extends { summary?: infer S } ? NonNullable<S> : never;
type FiltersOf<P extends ListPath> = MetaOf<P> extends { filters?: infer F } ? NonNullable<F> : never;
/** The `meta` keys a list adds of its own, beside those `opportunityList` writes. */
type OwnMetaOf<P extends ListPath> = Omit<MetaOf<P>, 'source' | 'last_update' | 'summary' | 'filters' | 'pagination'>;
/** The `summary` keys a list adds of its own. */
type OwnSummaryOf<P extends ListPath> = Omit<SummaryOf<P>, 'count' | 'by_sport' | 'by_market'>;

/**
 * What one list adds to the shared answer; the keys of `meta` come out in the order they always have.
 * The parts that return object literals declare their return type: a function's contextual type
 * does not check a literal for keys its schema lacks, a declared one does.
 */
interface OpportunityListKind<K extends OpportunityKind, P extends ListPath, Q extends ListQuery> {
  /** The board's list it reads. */
  kind: K;
  feature: Feature;
  /** Checks across parameters, before the filters are parsed. */
  check?: (q: Q, tier: TierName, s: OpportunitySource) => void;
  /** Whether the query's `state` goes into the rows' deep links. */
  linksState: boolean;
  matches: (
    entries: readonly EntryOf<K>[],
    common: CommonFilter,
    q: Q,
    catalog: Catalog,
    now: number,
    s: OpportunitySource,
  ) => EntryOf<K>[];
  sortKeys: (q: Q, now: number) => Readonly<Record<string, (e: EntryOf<K>) => number | string>>;
  present: (e: EntryOf<K>, q: Q, now: number, s: OpportunitySource, tier: TierName) => ListRowOf<P>;
  /** `meta` keys between `last_update` and `summary`. */
  metaHead?: (q: Q) => OwnMetaOf<P>;
  /** `summary` keys between `count` and `by_sport`. */
  summary: (matches: readonly EntryOf<K>[], q: Q) => OwnSummaryOf<P>;
  /** The `filters` echo, whole. */
  filters: (q: Q, state: string | undefined) => FiltersOf<P>;
  /** `meta` keys after `filters`. */
  metaTail?: (common: CommonFilter) => OwnMetaOf<P>;
}

/** `meta.source` of every opportunity answer: the in-memory board the opportunities topic keeps. */
export const OPPORTUNITY_SOURCE = 'live';
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
/** A summary's average, 4 places; 0 for no matches. */
export const mean4 = (xs: readonly number[]): number => (xs.length === 0 ? 0 : r4(xs.reduce((a, b) => a + b, 0) / xs.length));

const linesOf =
  (s: OpportunitySource): LinesOf =>
  (eventId) =>
    s.deps.board.mainLines(eventId);
const lastUpdate = (s: OpportunitySource): string | null =>
  s.opportunities.lastUpdate === null ? null : isoTime(s.opportunities.lastUpdate);
const sharedFilters = (q: CommonOpportunityQuery): Required<Pick<FiltersOf<ListPath>, 'sport' | 'league' | 'sportsbook' | 'market'>> => ({
  sport: q.sport ?? null,
  league: q.league ?? null,
  sportsbook: q.sportsbook ?? null,
  market: q.market ?? null,
});

/** One opportunity list answered: the shape every kind shares, with what `list` adds. */
function opportunityList<K extends OpportunityKind, P extends ListPath, Q extends ListQuery>(
  list: OpportunityListKind<K, P, Q>,
  s: OpportunitySource,
  tier: TierName,
  q: Q,
) {
  requireFeatureOf(tier, list.feature);
  const { catalog, clock } = s.deps;
  list.check?.(q, tier, s);
  const state = list.linksState ? requestedState(q.state) : undefined;
  const now = clock.now();
  const common = parseCommon(q, catalog, tier, now, s.opportunities.phantom);
  const matches = list.matches(listAtCommission(s.opportunities, list.kind, q.commission), common, q, catalog, now, s);
  const page = sortedPage(matches, q.sort, list.sortKeys(q, now), q.offset, q.limit).map((e) => list.present(e, q, now, s, tier));
  return {
    success: true,
    data: putStateInLinks(page, state),
    pagination: pagination(q.limit, q.offset, matches.length),
    meta: {
      source: OPPORTUNITY_SOURCE,
      last_update: lastUpdate(s),
      ...list.metaHead?.(q),
      summary: {
        count: matches.length,
        ...list.summary(matches, q),
        by_sport: countBy(matches, (e) => e.o.event.sport),
        by_market: countBy(matches, (e) => e.o.market),
      },
      filters: list.filters(q, state),
      ...list.metaTail?.(common),
    },
  };
}

export type EvListQuery = QueryOf<EvPath>;

const EV_LIST: OpportunityListKind<'ev', EvPath, EvListQuery> = {
  kind: 'ev',
  feature: 'ev',
  check: (q, tier, s) => {
    checkBounds('min_ev', q.min_ev, q.max_ev, 'max_ev');
    checkBounds('min_market_width', q.min_market_width, q.max_market_width, 'max_market_width');
    checkEvRecipe(q, tier, s.deps);
  },
  linksState: false,
  matches: (entries, common, q, catalog, now, s) => {
    const row = parseEvRowFilter(q, catalog, linesOf(s));
    return evMatches(
      entries,
      {
        common,
        method: storedMethodOf(q.devig_method),
        minEv: q.min_ev,
        maxEv: q.max_ev,
        minMarketWidth: q.min_market_width,
        maxMarketWidth: q.max_market_width,
        ...(row ? { row } : {}),
      },
      catalog,
      now,
    );
  },
  sortKeys: (q) => evSortKeys(storedMethodOf(q.devig_method)),
  present: (e, q, now, s, tier) =>
    withRecipe(
      presentEv(s.deps.catalog, e.o, storedMethodOf(q.devig_method), now, s.opportunities.phantom, includes(q.include, 'methods')),
      e.o,
      q,
      tier,
      s,
      now,
    ),
  metaHead: (q): OwnMetaOf<EvPath> => ({ devig_method: q.devig_method }),
  summary: (matches, q): OwnSummaryOf<EvPath> => {
    const evs = matches.map((e) => e.o.methods[storedMethodOf(q.devig_method)].evPercent);
    return { avg_ev: mean4(evs), max_ev: evs.length === 0 ? 0 : Math.max(...evs), by_sportsbook: countBy(matches, (e) => e.o.book) };
  },
  filters: (q): FiltersOf<EvPath> => ({
    ...sharedFilters(q),
    min_ev: q.min_ev,
    max_ev: q.max_ev ?? null,
    live: q.live ?? null,
    sort: q.sort,
    include: q.include ?? null,
  }),
};

/** `format` is the route's (csv): every interface asks for the same list. */
export type ArbitrageListQuery = Omit<QueryOf<ArbitragePath>, 'format'>;

const ARBITRAGE_LIST: OpportunityListKind<'arbitrage', ArbitragePath, ArbitrageListQuery> = {
  kind: 'arbitrage',
  feature: 'arbitrage',
  linksState: false,
  matches: (entries, common, q, catalog, now) =>
    arbitrageMatches(entries, { common, minProfit: q.min_profit, ...(q.group ? { group: q.group } : {}) }, catalog, now),
  sortKeys: () => ARBITRAGE_SORT_KEYS,
  present: (e, q, now, s) =>
    presentArbitrage(
      s.deps.catalog,
      e.o,
      q.bankroll,
      now,
      s.opportunities.phantom,
      linesOf(s),
      opportunityContext(s.opportunities, s.deps.gameStates),
    ),
  summary: (matches): OwnSummaryOf<ArbitragePath> => {
    const profits = matches.map((e) => e.o.profitPercent);
    return {
      avg_profit: mean4(profits),
      max_profit: profits.length === 0 ? 0 : Math.max(...profits),
      by_sportsbook: countByEach(matches, (e) => e.o.legs.map((l) => l.book)),
    };
  },
  filters: (q): FiltersOf<ArbitragePath> => ({
    ...sharedFilters(q),
    min_profit: q.min_profit,
    live: q.live ?? null,
    sort: q.sort,
    group: q.group ?? null,
    bankroll: q.bankroll,
  }),
  metaTail: (common): OwnMetaOf<ArbitragePath> => ({ books_analyzed: common.books.size }),
};

export type MiddlesListQuery = QueryOf<MiddlesPath>;

const MIDDLES_LIST: OpportunityListKind<'middle', MiddlesPath, MiddlesListQuery> = {
  kind: 'middle',
  feature: 'middles',
  linksState: true,
  matches: (entries, common, q, catalog, now) =>
    middleMatches(
      entries,
      {
        common,
        minSize: q.min_size,
        minWindow: q.min_window,
        minHitProbability: q.min_hit_probability,
        maxCost: q.max_cost,
        minEv: q.min_ev,
        ...(q.group ? { group: q.group } : {}),
      },
      catalog,
      now,
    ),
  sortKeys: (_q, now) => middleSortKeys(now),
  present: (e, q, now, s) => presentMiddle(s.deps.catalog, e.o, q.bankroll, now, s.opportunities.phantom),
  summary: (): OwnSummaryOf<MiddlesPath> => ({}),
  // `state` is not echoed here (it is on low-hold): the answer has always been so.
  filters: (q): FiltersOf<MiddlesPath> => ({
    ...sharedFilters(q),
    min_size: q.min_size,
    live: q.live ?? null,
    sort: q.sort,
    group: q.group ?? null,
    bankroll: q.bankroll,
  }),
};

export type LowHoldListQuery = QueryOf<LowHoldPath>;

const LOW_HOLD_LIST: OpportunityListKind<'low_hold', LowHoldPath, LowHoldListQuery> = {
  kind: 'low_hold',
  // Low-hold markets come with arbitrage: the tier table has no feature of their own.
  feature: 'arbitrage',
  linksState: true,
  matches: (entries, common, q, catalog, now) =>
    lowHoldMatches(entries, { common, maxHold: q.max_hold, ...(q.group ? { group: q.group } : {}) }, catalog, now),
  sortKeys: () => LOW_HOLD_SORT_KEYS,
  present: (e, _q, now, s) =>
    presentLowHold(s.deps.catalog, e.o, now, s.opportunities.phantom, linesOf(s), opportunityContext(s.opportunities, s.deps.gameStates)),
  metaHead: (): OwnMetaOf<LowHoldPath> => ({ threshold: DEFAULT_LOW_HOLD_PERCENT }),
  summary: (matches): OwnSummaryOf<LowHoldPath> => {
    const holds = matches.map((e) => e.o.holdPercent);
    return { avg_hold: mean4(holds), min_hold: holds.length === 0 ? 0 : Math.min(...holds) };
  },
  filters: (q, state): FiltersOf<LowHoldPath> => ({
    ...sharedFilters(q),
    max_hold: q.max_hold,
    live: q.live ?? null,
    state: state ?? null,
    sort: q.sort,
    group: q.group ?? null,
  }),
};

export const evList = (s: OpportunitySource, tier: TierName, q: EvListQuery): ListReplyOf<EvPath> => opportunityList(EV_LIST, s, tier, q);
export const arbitrageList = (s: OpportunitySource, tier: TierName, q: ArbitrageListQuery): ListReplyOf<ArbitragePath> =>
  opportunityList(ARBITRAGE_LIST, s, tier, q);
export const middlesList = (s: OpportunitySource, tier: TierName, q: MiddlesListQuery): ListReplyOf<MiddlesPath> =>
  opportunityList(MIDDLES_LIST, s, tier, q);
export const lowHoldList = (s: OpportunitySource, tier: TierName, q: LowHoldListQuery): ListReplyOf<LowHoldPath> =>
  opportunityList(LOW_HOLD_LIST, s, tier, q);

/** Per list, whether its rows' deep links take the request's `state` (REST's rule, which the streams follow). */
export const STATE_IN_LINKS: Readonly<Record<OpportunityList, boolean>> = {
  ev: EV_LIST.linksState,
  arbitrage: ARBITRAGE_LIST.linksState,
  middles: MIDDLES_LIST.linksState,
  low_hold: LOW_HOLD_LIST.linksState,
};
