import { RECIPE_ONLY_DEVIG_METHODS } from '../../schemas/index.js';
import type { DevigMethodName, EvListDevigChoice, EvOpportunity, RecipeOnlyDevigMethod, TierName } from '../../schemas/index.js';
import { americanToDecimal } from '../../pipeline/odds-math/index.js';
import { canonicalLine, round } from '../../pipeline/opportunities/index.js';
import { presentBand, presentRecipe } from '../contract/index.js';
import type { FairRecipe } from '../../pipeline/fair-line/index.js';
import type { LiveBoard } from '../views/index.js';
import { fairLineAt } from './fair.js';
import { parseRecipe } from './fair-recipe.js';
import type { RecipeQuery } from './fair-recipe.js';
import { badQuery } from './invalid-query.js';
import type { ReadSide } from './read-side.js';

/**
 * `/opportunities/ev` with a fair-line recipe: the rows the board found, each re-priced from the
 * board by the recipe (its fair probability, EV and band added beside the stored values). The
 * recipe does not find rows of its own, nor change filtering or order: those stay on the stored
 * method, so a list without recipe parameters is exactly what it was.
 */
type EvRecipeQuery = RecipeQuery & { devig_method: string };

const isRecipeOnly = (m: string): m is RecipeOnlyDevigMethod => (RECIPE_ONLY_DEVIG_METHODS as readonly string[]).includes(m);

/** A recipe-only method (efficient_shin, goto) asks for the recipe by itself, with the default books and weights. */
const asked = (q: EvRecipeQuery): boolean =>
  q.reference_books !== undefined || q.weighting !== undefined || q.assumed_margin !== undefined || isRecipeOnly(q.devig_method);

/**
 * The stored method the list filters, orders and fills its rows by: the one asked, or the default
 * (power) when a recipe-only method was asked, since opportunities carry values for stored methods only.
 */
export const storedMethodOf = (m: EvListDevigChoice): DevigMethodName => (isRecipeOnly(m) ? 'power' : m);

type RecipeDeps = Pick<ReadSide, 'catalog' | 'oneSidedMargin'>;

function recipeOf(q: EvRecipeQuery, deps: RecipeDeps, tier: TierName): FairRecipe {
  if (q.devig_method === 'worst_case') {
    throw badQuery('devig_method', 'worst_case is a screen over the methods, not a recipe method; pick one method with a recipe');
  }
  return parseRecipe(q, deps, tier);
}

/** Refuses a bad recipe before any row is read (the parameters are named as on /fair). */
export function checkEvRecipe(q: EvRecipeQuery, tier: TierName, deps: RecipeDeps): void {
  if (asked(q)) recipeOf(q, deps, tier);
}

export function withRecipe<R extends object>(
  row: R,
  o: EvOpportunity,
  q: EvRecipeQuery,
  tier: TierName,
  s: { deps: RecipeDeps & { board: LiveBoard } },
  now: number,
): R {
  if (!asked(q)) return row;
  const { catalog, board } = s.deps;
  const recipe = recipeOf(q, s.deps, tier);
  const event = board.event(o.eventId);
  const at = { market: o.market, participant: o.participant, statCategory: o.statCategory, line: canonicalLine(o) };
  const priced = event ? fairLineAt(board, catalog, event, at, recipe, now) : null;
  const outcome = priced?.fair.outcomes.find((x) => x.selection === o.selection);
  const p = outcome?.probability ?? null;
  return {
    ...row,
    recipe: presentRecipe(recipe),
    fair_status: outcome?.status ?? 'unavailable',
    recipe_fair_probability: p === null ? null : round(p, 6),
    recipe_ev: p === null ? null : round((p * americanToDecimal(o.priceAmerican) - 1) * 100, 4),
    fair_band: presentBand(outcome?.band ?? null),
  };
}
