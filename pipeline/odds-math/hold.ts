/**
 * How much a book charges on a market, from its decimal prices.
 *
 * Two numbers are in common use and they are not the same:
 * - overround = sum(1/d) - 1: how far the implied probabilities exceed 100%. -110/-110 -> 4.76%.
 * - hold = 1 - 1/sum(1/d): the share of the money the book keeps if it takes action in proportion
 *   to its prices ("theoretical hold"). -110/-110 -> 4.55%.
 * Both are returned as fractions (0.0476, not 4.76). A negative value means the prices together
 * pay out more than is staked, which happens when best prices are taken across books.
 */
import { assertDecimal } from './conversions.js';

export function assertMarket(decimalOdds: readonly number[]): void {
  if (decimalOdds.length < 2) {
    throw new RangeError(`a market needs at least 2 outcomes, got ${String(decimalOdds.length)}`);
  }
  for (const d of decimalOdds) assertDecimal(d);
}

/** 1/d for each price, margin included. */
export function impliedProbabilities(decimalOdds: readonly number[]): number[] {
  assertMarket(decimalOdds);
  return decimalOdds.map((d) => 1 / d);
}

export function impliedSum(decimalOdds: readonly number[]): number {
  return impliedProbabilities(decimalOdds).reduce((sum, p) => sum + p, 0);
}

export function overround(decimalOdds: readonly number[]): number {
  return impliedSum(decimalOdds) - 1;
}

export function hold(decimalOdds: readonly number[]): number {
  return 1 - 1 / impliedSum(decimalOdds);
}
