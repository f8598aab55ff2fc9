import type { RecipeDevigMethod } from '../odds-math/index.js';

/**
 * How the reference books are weighed against each other: equally, or by how fresh and how
 * tight each book's market is (see fair-line.ts for the weight).
 */
export const FAIR_WEIGHTINGS = ['equal', 'freshness_width'] as const;
export type FairWeighting = (typeof FAIR_WEIGHTINGS)[number];

/** A caller's fair-line recipe: which reference books, how weighed, which de-vig method. */
export interface FairRecipe {
  /** Reference books, in the caller's order. */
  books: readonly string[];
  weighting: FairWeighting;
  method: RecipeDevigMethod;
  /**
   * Overround (a fraction: 0.05 = 5 %) to take off a price whose other side the book does not
   * post; null: the book's own margin on the family's other lines, else `defaultMargin`.
   */
  assumedMargin: number | null;
  /** The margin a one-sided price is assumed to carry when neither the caller nor the book says (the operator's ONE_SIDED_MARGIN_PERCENT). */
  defaultMargin: number;
}
