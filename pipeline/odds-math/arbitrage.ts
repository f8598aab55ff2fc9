/**
 * Arbitrage ("sure bet") across books: back every outcome of a market at the best price found
 * anywhere. With S = sum(1/d_i), staking bankroll * (1/d_i) / S on outcome i returns
 * bankroll / S whichever outcome wins, so the profit is (1/S - 1) * 100 percent of the bankroll.
 * An arbitrage exists exactly when S < 1; S = 1 breaks even and is not reported as one.
 * The figures are computed for any market so that near misses can be shown too (negative
 * profit). Stakes are not rounded: rounding to a book's stake increments is the caller's business
 * and slightly unbalances the payouts.
 */
import { impliedProbabilities } from './hold.js';

export interface ArbitrageResult {
  isArb: boolean;
  /** Guaranteed profit as a percentage of the bankroll; negative when there is no arbitrage. */
  profitPercent: number;
  /** S = sum(1/d_i). */
  impliedSum: number;
  /** Stake per outcome, in input order, summing to the bankroll. */
  stakes: number[];
  /** What every outcome returns, stake included. */
  payout: number;
}

export function arbitrage(bestDecimalOdds: readonly number[], bankroll = 100): ArbitrageResult {
  if (!Number.isFinite(bankroll) || bankroll <= 0) {
    throw new RangeError(`bankroll must be a finite number greater than 0, got ${String(bankroll)}`);
  }
  const implied = impliedProbabilities(bestDecimalOdds);
  const impliedSum = implied.reduce((sum, r) => sum + r, 0);
  return {
    isArb: impliedSum < 1,
    profitPercent: (1 / impliedSum - 1) * 100,
    impliedSum,
    stakes: implied.map((r) => (bankroll * r) / impliedSum),
    payout: bankroll / impliedSum,
  };
}
