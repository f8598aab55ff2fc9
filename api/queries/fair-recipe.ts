import { RECIPE_DEVIG_METHODS, selectBooks, settingDefault } from '../../schemas/index.js';
import type { RecipeDevigMethod, TierName } from '../../schemas/index.js';
import { defaultReferenceBooks } from '../../pipeline/opportunities/index.js';
import { FAIR_WEIGHTINGS } from '../../pipeline/fair-line/index.js';
import type { FairRecipe, FairWeighting } from '../../pipeline/fair-line/index.js';
import { csv } from '../contract/index.js';
import { bookSelectionError } from '../contract/index.js';
import { badQuery } from './invalid-query.js';
import { known } from './parse-filters.js';
import type { ReadSide } from './read-side.js';

/** The recipe parameters every fair-line interface takes (`/fair`, `/opportunities/ev`, their MCP tools). */
export interface RecipeQuery {
  reference_books?: string;
  weighting?: string;
  devig_method?: string;
  assumed_margin?: number;
}

const isMethod = (m: string): m is RecipeDevigMethod => (RECIPE_DEVIG_METHODS as readonly string[]).includes(m);
const isWeighting = (w: string): w is FairWeighting => (FAIR_WEIGHTINGS as readonly string[]).includes(w);

/**
 * The recipe a query asks for, defaults filled in: the configured references (the catalog's sharp
 * books, ranked as the pipeline ranks them), equal weights, power, and the operator's margin for
 * one-sided prices. Named books must be known and open to the tier, as on every endpoint that
 * takes books.
 */
export function parseRecipe(q: RecipeQuery, deps: Pick<ReadSide, 'catalog' | 'oneSidedMargin'>, tier: TierName): FairRecipe {
  const { catalog } = deps;
  const named = known('reference_books', csv(q.reference_books), catalog.books, 'sportsbook');
  let books: string[];
  if (named) {
    const selection = selectBooks(tier, [...catalog.books.values()], named);
    if (!selection.ok) throw bookSelectionError(tier, selection);
    books = [...named];
  } else {
    books = defaultReferenceBooks([...catalog.books.values()]);
  }
  const weighting = q.weighting ?? 'equal';
  if (!isWeighting(weighting)) throw badQuery('weighting', `must be one of ${FAIR_WEIGHTINGS.join(', ')}`);
  const method = q.devig_method ?? 'power';
  if (!isMethod(method)) throw badQuery('devig_method', `must be one of ${RECIPE_DEVIG_METHODS.join(', ')}`);
  const margin = q.assumed_margin;
  if (margin !== undefined && !(margin >= 0 && margin <= 50)) throw badQuery('assumed_margin', 'must be a percentage from 0 to 50');
  return {
    books,
    weighting,
    method,
    assumedMargin: margin === undefined ? null : margin / 100,
    defaultMargin: deps.oneSidedMargin ?? settingDefault('ONE_SIDED_MARGIN_PERCENT') / 100,
  };
}
