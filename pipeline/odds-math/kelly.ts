/**
 * Full-Kelly stake in percent of bankroll: (p * d - 1) / (d - 1) * 100 (Kelly 1956; with net odds
 * b = d - 1 this is the familiar f* = p - (1 - p)/b).
 *
 * The raw value is returned, negative when the bet has negative expected value, rather than
 * clamped at 0: the size of a negative edge is information (how far a price is from playable),
 * and clamping, fractional Kelly and stake caps are the caller's staking policy, not math.
 * Callers sizing a stake should use Math.max(0, kellyPercent(...)) times their Kelly fraction.
 */
import { assertDecimal, assertProbability } from './conversions.js';

export function kellyPercent(fairProbability: number, decimalOdds: number): number {
  assertProbability(fairProbability);
  assertDecimal(decimalOdds);
  return ((fairProbability * decimalOdds - 1) / (decimalOdds - 1)) * 100;
}
