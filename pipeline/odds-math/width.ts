/**
 * Width of a two-way market in "cents", the US bookmaking convention: -110/-110 is a 20-cent
 * line, -105/-105 a 10-cent ("dime") line, -150/+130 a 20-cent line, -150/+140 a dime line,
 * -120/+100 a 20-cent line.
 *
 * The convention measures on the American scale with the gap between -100 and +100 closed up, so
 * +100 and -100 are the same point. Each price is placed at its distance from even money
 * (-110 -> -10, +130 -> +30, +100 and -100 -> 0) and the width is minus the sum of the two
 * positions: -110/-110 -> 20, -150/+130 -> 20, -120/+100 -> 20, -105/-105 -> 10.
 * The result is signed: a market whose two prices together beat even money (e.g. best prices
 * across books of -105 and +110) has a negative width (-5) rather than being reported as
 * 5 cents wide. Width is a quoting convention, not a margin: the same 20 cents is 4.5% hold at
 * -110/-110 and far less on a -1000/+800 moneyline. Use hold() to compare books.
 */
import { assertAmerican } from './conversions.js';

function centsFromEvenMoney(american: number): number {
  return american > 0 ? american - 100 : american + 100;
}

export function marketWidth(americanOdds: readonly number[]): number {
  const [a, b] = americanOdds;
  if (americanOdds.length !== 2 || a === undefined || b === undefined) {
    throw new RangeError(`market width is defined for two-way markets, got ${String(americanOdds.length)} prices`);
  }
  assertAmerican(a);
  assertAmerican(b);
  // 0 - x rather than -x so that an even-money pair reports 0, not -0.
  return 0 - (centsFromEvenMoney(a) + centsFromEvenMoney(b));
}
