/**
 * Stakes a bettor can actually place: a bankroll split across the outcomes in proportion to
 * 1/d_i (so that every outcome returns about the same, as in arbitrage.ts), in whole cents.
 * Rounding each stake on its own can lose or add a cent; the largest-remainder method (cents
 * floored, then the cents left given one each to the largest remainders, ties to the earlier
 * outcome) keeps the total equal to the bankroll exactly. Payouts are the stake times the price,
 * rounded to the cent.
 */
import { assertDecimal } from './conversions.js';

export interface RoundedStake {
  /** In the bankroll's currency, a whole number of cents. */
  stake: number;
  /** What the stake returns if its outcome wins, stake included, to the cent. */
  payout: number;
}

const toCents = (x: number): number => Math.round(x * 100) / 100;

export function roundedStakes(decimalOdds: readonly number[], bankroll: number): RoundedStake[] {
  for (const d of decimalOdds) assertDecimal(d);
  if (!Number.isFinite(bankroll) || bankroll <= 0) {
    throw new RangeError(`bankroll must be a finite number greater than 0, got ${String(bankroll)}`);
  }
  const cents = Math.round(bankroll * 100);
  const implied = decimalOdds.map((d) => 1 / d);
  const sum = implied.reduce((a, b) => a + b, 0);
  const exact = implied.map((r) => (cents * r) / sum);
  const floors = exact.map(Math.floor);
  let left = cents - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left--;
  }
  return decimalOdds.map((d, i) => {
    const stake = (floors[i] ?? 0) / 100;
    return { stake, payout: toCents(stake * d) };
  });
}
