import { selectionFamily } from '../../schemas/index.js';
import type { MarketId, TierName } from '../../schemas/index.js';
import { fairLine } from '../../pipeline/fair-line/index.js';
import { canonicalLine, familyKey, outcomesOf } from '../../pipeline/opportunities/index.js';
import { presentFairLine, presentRecipe } from '../contract/fair.js';
import type { QueryOf, ReplyOf } from '../contract/route-types.js';
import { ApiError } from '../errors.js';
import { requireTierFor } from './access.js';
import { parseRecipe } from './fair-recipe.js';
import { badQuery } from './invalid-query.js';
import type { ReadSide } from './read-side.js';

export type FairQuery = QueryOf<'/api/v1/fair'>;

/**
 * The fair line of one market of one event from the caller's recipe (`GET /fair`, MCP
 * `get_fair_line`): the rows of the tier's board at the line (the main line unless `line` names
 * one), priced by `fairLine`. A market with no row here is 404; one that holds several outcome
 * families (team totals of both teams, props of several players) needs `participant` and, for
 * props, `stat_category` to say which.
 */
export function fairAnswer(deps: Pick<ReadSide, 'catalog' | 'views' | 'clock'>, tier: TierName, q: FairQuery): ReplyOf<'/api/v1/fair'> {
  requireTierFor(tier, 'fairLine');
  const recipe = parseRecipe(q, deps.catalog, tier);
  const board = deps.views.boardFor(tier);
  const event = board.event(q.event);
  if (!event) throw new ApiError('not_found', `Unknown event '${q.event}'`);
  const market = q.market as MarketId;
  const rows = board
    .rowsOf(event.id)
    .filter(
      (r) =>
        r.market === market &&
        r.isActive &&
        (q.participant === undefined || r.participant === q.participant) &&
        (q.stat_category === undefined || r.statCategory === q.stat_category),
    );
  const families = new Set(rows.map(familyKey));
  const first = rows[0];
  if (!first) throw new ApiError('not_found', `No '${market}' prices for event '${event.id}' (market, participant or stat_category)`);
  if (families.size > 1) {
    throw badQuery(
      'participant',
      `the '${market}' market holds ${String(families.size)} outcome families here; name one with participant and stat_category`,
    );
  }
  const line = q.line ?? (first.line === null ? null : (board.mainLines(event.id).get(familyKey(first)) ?? canonicalLine(first)));
  const atLine = rows.filter((r) => canonicalLine(r) === line);
  const outcomes = outcomesOf({ market, family: selectionFamily(first.selection) }, deps.catalog.leagues.get(event.league));
  const fair = fairLine(
    { outcomes, rows: atLine, otherLines: rows.filter((r) => canonicalLine(r) !== line), now: deps.clock.now() },
    recipe,
  );
  return {
    success: true,
    data: {
      event_id: event.id,
      market,
      participant: first.participant,
      stat_category: first.statCategory,
      line,
      recipe: presentRecipe(recipe),
      ...presentFairLine(fair),
    },
  };
}
