/**
 * Odds math: pure functions of numbers and arrays, no I/O and no clock. Conventions (rounding,
 * what each method does at the edges) are documented in the module that implements them.
 */
export {
  americanToDecimal,
  americanToProbability,
  decimalToAmerican,
  decimalToAmericanUnsnapped,
  decimalToProbability,
  probabilityToAmerican,
  probabilityToDecimal,
} from './conversions.js';
export {
  DEVIG_CHOICES,
  DEVIG_METHODS,
  RECIPE_DEVIG_METHODS,
  deVig,
  deVigEfficientShin,
  deVigGoto,
  deVigLogit,
  deVigOddsRatio,
  deVigWorstCase,
  oddsRatio,
  worstCaseOf,
  deVigAdditive,
  deVigImplied,
  deVigMultiplicative,
  deVigPower,
  deVigShin,
  powerExponent,
  shinZ,
} from './devig.js';
export type { DevigChoice, DevigMethod, RecipeDevigMethod } from './devig.js';
export { evPercent } from './ev.js';
export { clvPercent } from './clv.js';
export { kellyPercent, simultaneousKelly } from './kelly.js';
export { decimalToFractional, fractionalToDecimal } from './fractional.js';
export { hedge } from './hedge.js';
export type { HedgePosition, HedgeResult } from './hedge.js';
export { hold, impliedProbabilities, impliedSum, overround } from './hold.js';
export { marketWidth } from './width.js';
export { normalCdf } from './normal.js';
export { roundedDecimalOdds, roundedImpliedProbability } from './rounded-prices.js';
export { arbitrage } from './arbitrage.js';
export type { ArbitrageResult } from './arbitrage.js';
export { roundedStakes } from './rounded-stakes.js';
export type { RoundedStake } from './rounded-stakes.js';
export { TYPICAL_MARGIN_SIGMA, middle, middleHitProbability, spreadMiddle, totalsMiddle, wholeNumbersProbability } from './middles.js';
export type { MiddleLeg, MiddleMarket, MiddleModel, MiddleResult } from './middles.js';
export { backLayMidpoint, layAsBackDecimal, netBackDecimal } from './exchange.js';
