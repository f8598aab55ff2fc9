/**
 * Closing line value of a bet, in percent of the stake: (p * d - 1) * 100, where p is the fair
 * probability of the closing line and d the decimal price the bet was taken at. Positive means
 * the price beat the close. It is evPercent's formula with the close in place of the line at the
 * time of the bet.
 *
 * Unlike evPercent, p is not range-checked: closing probabilities are stored rounded (6 places),
 * so 0 and 1 are possible values, and the closing processor grades with them in a pipeline stage
 * that a throw would stop.
 */
import { assertDecimal } from './conversions.js';

export function clvPercent(closingFairProbability: number, decimalOdds: number): number {
  assertDecimal(decimalOdds);
  return (closingFairProbability * decimalOdds - 1) * 100;
}
