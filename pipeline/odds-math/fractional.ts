/**
 * Fractional (UK) odds: "a/b" pays a for every b staked, so decimal = 1 + a/b, and evens is 1/1.
 *
 * In: "a/b" with whole a >= 1 and b >= 1 (spaces around the slash allowed); anything else throws
 * a RangeError, as the other conversions do.
 * Out: the fraction in lowest terms closest to decimal - 1 whose denominator is at most
 * `maxDenominator` (default 100), found from the continued fraction of decimal - 1 as Python's
 * Fraction.limit_denominator does: the last convergent within the bound, or the best
 * semiconvergent, whichever is closer. A price that is exactly such a fraction comes back exactly
 * (1.90909... from -110 gives 10/11, 1.91 gives 91/100); books' traditional ladders (11/8, 6/4)
 * are those fractions too, so they round-trip.
 */
import { assertDecimal } from './conversions.js';

const FRACTION = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;

// A remainder this small is the float noise of a fraction that has ended (10/11 leaves 9e-15).
const EXACT = 1e-9;

export function fractionalToDecimal(fraction: string): number {
  const match = FRACTION.exec(fraction);
  const numerator = Number(match?.[1]);
  const denominator = Number(match?.[2]);
  if (!match || !(numerator >= 1) || !(denominator >= 1)) {
    throw new RangeError(`fractional odds must be "a/b" with whole numbers a, b >= 1, got "${fraction}"`);
  }
  return 1 + numerator / denominator;
}

export function decimalToFractional(decimalOdds: number, maxDenominator = 100): string {
  assertDecimal(decimalOdds);
  if (!Number.isInteger(maxDenominator) || maxDenominator < 1) {
    throw new RangeError(`the largest denominator must be a whole number >= 1, got ${String(maxDenominator)}`);
  }
  const target = decimalOdds - 1;
  // Convergents p/q of the continued fraction; (p0/q0, p1/q1) are the last two.
  let [p0, q0, p1, q1] = [0, 1, 1, 0];
  let x = target;
  for (;;) {
    const a = Math.floor(x);
    const q2 = q0 + a * q1;
    if (q2 > maxDenominator) break;
    [p0, q0, p1, q1] = [p1, q1, p0 + a * p1, q2];
    const rest = x - a;
    if (rest < EXACT) break;
    x = 1 / rest;
  }
  const k = Math.floor((maxDenominator - q0) / q1);
  const semi: [number, number] = [p0 + k * p1, q0 + k * q1];
  const last: [number, number] = [p1, q1];
  const [numerator, denominator] = Math.abs(semi[0] / semi[1] - target) < Math.abs(last[0] / last[1] - target) ? semi : last;
  // A price too close to 1 for the bound rounds to 0/b; the smallest fraction the bound allows is the honest answer.
  return numerator === 0 ? `1/${String(maxDenominator)}` : `${String(numerator)}/${String(denominator)}`;
}
