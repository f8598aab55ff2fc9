/** The fair-line recipe: a fair price per outcome from caller-chosen reference books, weights and de-vig method, with its uncertainty band. */
export { fairLine } from './fair-line.js';
export type { FairBand, FairBook, FairLine, FairMarket, FairOutcome, FairStatus, MarginSource, Range } from './fair-line.js';
export { FAIR_WEIGHTINGS } from './recipe.js';
export type { FairRecipe, FairWeighting } from './recipe.js';
