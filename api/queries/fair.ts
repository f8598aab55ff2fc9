import { selectionFamily } from '../../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsRow, SelectionFamily, TierName } from '../../schemas/index.js';
import { fairLine } from '../../pipeline/fair-line/index.js';
import type { FairLine, FairRecipe } from '../../pipeline/fair-line/index.js';
import { canonicalLine, familyKey, outcomesOf } from '../../pipeline/opportunities/index.js';
import { presentFairLine, presentRecipe } from '../contract/index.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { requireTierFor } from './access.js';
import { parseRecipe } from './fair-recipe.js';
import { badQuery } from './invalid-query.js';
import { parseMarkets } from './parse-filters.js';
import type { ReadSide } from './read-side.js';

export type FairQuery = QueryOf<'/api/v1/fair'>;
export type EventFairQuery = QueryOf<'/api/v1/events/{id}/fair'>;

/** What `GET /events/{id}/fair` prices unless `markets` says otherwise: every game market, no props. */
const EVENT_FAIR_MARKETS: ReadonlySet<MarketId> = new Set<MarketId>([
  'moneyline',
  'point_spread',
  'total_points',
  'team_total',
  '1st_half',
  '1st_quarter',
]);

/** Which market of an event to price; `undefined` participant or stat: any, a null: none. */
export interface MarketSelector {
  market: MarketId;
  participant: string | null | undefined;
  statCategory: string | null | undefined;
  /** Canonical line (home's handicap, the threshold); undefined: the main line. */
  line: number | null | undefined;
  /** One outcome family only (a period market holds a side and a total); undefined: any. */
  family?: SelectionFamily;
}

export interface PricedMarket {
  fair: FairLine;
  line: number | null;
  /** A row of the market, for its participant and stat. */
  sample: OddsRow;
  /** How many outcome families matched the selector (more than one: ambiguous). */
  families: number;
}

/** The fair line of one market of the board, or null when the event has no bettable price in it. */
export function fairLineAt(
  board: LiveBoard,
  catalog: Catalog,
  event: CanonicalEvent,
  at: MarketSelector,
  recipe: FairRecipe,
  now: number,
): PricedMarket | null {
  const rows = board
    .rowsOf(event.id)
    .filter(
      (r) =>
        r.market === at.market &&
        r.isActive &&
        (at.participant === undefined || r.participant === at.participant) &&
        (at.statCategory === undefined || r.statCategory === at.statCategory) &&
        (at.family === undefined || selectionFamily(r.selection) === at.family),
    );
  const sample = rows[0];
  if (!sample) return null;
  const families = new Set(rows.map(familyKey)).size;
  const line = at.line ?? (sample.line === null ? null : (board.mainLines(event.id).get(familyKey(sample)) ?? canonicalLine(sample)));
  const outcomes = outcomesOf({ market: at.market, family: selectionFamily(sample.selection) }, catalog.leagues.get(event.league));
  const atLine = rows.filter((r) => canonicalLine(r) === line);
  const otherLines = rows.filter((r) => canonicalLine(r) !== line);
  return { fair: fairLine({ outcomes, rows: atLine, otherLines, now }, recipe), line, sample, families };
}

/**
 * The fair line of one market of one event from the caller's recipe (`GET /fair`, MCP
 * `get_fair_line`): the rows of the tier's board at the line (the main line unless `line` names
 * one). A market with no price here is 404; one that holds several outcome families (team totals
 * of both teams, props of several players) needs `participant` and, for props, `stat_category`.
 */
export function fairAnswer(
  deps: Pick<ReadSide, 'catalog' | 'views' | 'clock' | 'oneSidedMargin'>,
  tier: TierName,
  q: FairQuery,
): ReplyOf<'/api/v1/fair'> {
  requireTierFor(tier, 'fairLine');
  const recipe = parseRecipe(q, deps, tier);
  const board = deps.views.boardFor(tier);
  const event = board.event(q.event);
  if (!event) throw new ApiError('not_found', `Unknown event '${q.event}'`);
  const market = q.market as MarketId;
  const at = { market, participant: q.participant, statCategory: q.stat_category, line: q.line };
  const priced = fairLineAt(board, deps.catalog, event, at, recipe, deps.clock.now());
  if (!priced) throw new ApiError('not_found', `No '${market}' prices for event '${event.id}' (market, participant or stat_category)`);
  if (priced.families > 1) {
    throw badQuery(
      'participant',
      `the '${market}' market holds ${String(priced.families)} outcome families here; name one with participant and stat_category`,
    );
  }
  return {
    success: true,
    data: {
      event_id: event.id,
      market,
      participant: priced.sample.participant,
      stat_category: priced.sample.statCategory,
      line: priced.line,
      recipe: presentRecipe(recipe),
      ...presentFairLine(priced.fair),
    },
  };
}

/**
 * The fair line of every market of one event at its main line (`GET /events/{id}/fair`, MCP
 * `get_event_fair_lines`), by one recipe: each outcome family (a team's total, a period's spread
 * and total apart) priced as `/fair` prices it alone, in the board's market order.
 */
export function eventFairAnswer(
  deps: Pick<ReadSide, 'catalog' | 'views' | 'clock' | 'oneSidedMargin'>,
  tier: TierName,
  id: string,
  q: EventFairQuery,
): ReplyOf<'/api/v1/events/{id}/fair'> {
  requireTierFor(tier, 'fairLine');
  const recipe = parseRecipe(q, deps, tier);
  const board = deps.views.boardFor(tier);
  const event = board.event(id);
  if (!event) throw new ApiError('not_found', `Unknown event '${id}'`);
  const asked = parseMarkets(q.market);
  const wanted = (row: OddsRow): boolean =>
    asked === undefined
      ? EVENT_FAIR_MARKETS.has(row.market)
      : asked.markets.has(row.market) &&
        (asked.test === undefined ||
          asked.test({ market: row.market, family: selectionFamily(row.selection), statCategory: row.statCategory }));
  const families = new Map<string, MarketSelector>();
  for (const row of board.rowsOf(event.id)) {
    if (row.market === 'future' || !row.isActive || !wanted(row)) continue;
    const key = familyKey(row);
    if (!families.has(key)) {
      families.set(key, {
        market: row.market,
        participant: row.participant,
        statCategory: row.statCategory,
        line: undefined,
        family: selectionFamily(row.selection),
      });
    }
  }
  const now = deps.clock.now();
  const markets = [];
  for (const at of families.values()) {
    const priced = fairLineAt(board, deps.catalog, event, at, recipe, now);
    if (!priced) continue;
    markets.push({
      market: at.market,
      participant: priced.sample.participant,
      stat_category: priced.sample.statCategory,
      line: priced.line,
      ...presentFairLine(priced.fair),
    });
  }
  return { success: true, data: { event_id: event.id, recipe: presentRecipe(recipe), markets } };
}
