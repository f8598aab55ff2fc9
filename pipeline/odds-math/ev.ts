/**
 * Expected value of a bet, in percent of the stake: (p * d - 1) * 100, where p is the fair
 * probability (from a de-vigged sharp market, say) and d the decimal price on offer. +2.5 means
 * the bet returns 2.5% of its stake on average; the sign is the sign of p - 1/d.
 */
import { assertDecimal, assertProbability } from './conversions.js';

export function evPercent(fairProbability: number, decimalOdds: number): number {
  assertProbability(fairProbability);
  assertDecimal(decimalOdds);
  return (fairProbability * decimalOdds - 1) * 100;
}
