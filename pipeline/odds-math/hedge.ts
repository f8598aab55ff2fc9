/**
 * Hedging: given the bets already placed on one market whose outcomes are mutually exclusive and
 * exhaustive (exactly one wins), the new stakes at today's prices that maximise the worst-case
 * profit.
 *
 * Let P_j be the profit already locked in if outcome j wins, and d_j its price now. New stakes
 * s_j >= 0 give v_j = P_j + s_j d_j - S (S the new total staked). Writing K = v_j + S for the
 * gross level every hedged outcome is lifted to, s_j = max(0, (K - P_j) / d_j), and the worst
 * case is L(K) = K - sum_j max(0, (K - P_j) / d_j): concave and piecewise linear, with slope
 * 1 - sum of 1/d_j over the outcomes below K. So K rises from the lowest P_j through the sorted
 * P_j while that slope stays positive. If it is still positive with every outcome in, the prices
 * are an arbitrage and the worst case grows without bound: a `budget` (largest new total stake)
 * is then required, and with a budget K also stops where the new stakes reach it.
 */
import { assertDecimal } from './conversions.js';

export interface HedgePosition {
  /** Index of the outcome the bet is on. */
  outcome: number;
  stake: number;
  decimalOdds: number;
}

export interface HedgeResult {
  /** New stake per outcome (0 where nothing should be added). */
  stakes: number[];
  /** Profit per outcome with the existing and the new bets together. */
  profits: number[];
  /** The smallest of `profits`: the most that can be guaranteed. */
  worstCaseProfit: number;
}

function lockedProfits(positions: readonly HedgePosition[], outcomes: number): number[] {
  const profits: number[] = new Array<number>(outcomes).fill(0);
  for (const { outcome, stake, decimalOdds } of positions) {
    if (!Number.isInteger(outcome) || outcome < 0 || outcome >= outcomes) {
      throw new RangeError(`a position's outcome must be an index below ${String(outcomes)}, got ${String(outcome)}`);
    }
    if (!Number.isFinite(stake) || stake <= 0) throw new RangeError(`a position's stake must be positive, got ${String(stake)}`);
    assertDecimal(decimalOdds);
    for (let j = 0; j < outcomes; j++) profits[j] = (profits[j] ?? 0) + (j === outcome ? stake * (decimalOdds - 1) : -stake);
  }
  return profits;
}

export function hedge(positions: readonly HedgePosition[], decimalOdds: readonly number[], budget = Infinity): HedgeResult {
  if (decimalOdds.length < 2) throw new RangeError(`a market needs at least 2 outcomes, got ${String(decimalOdds.length)}`);
  for (const d of decimalOdds) assertDecimal(d);
  if (Number.isNaN(budget) || budget < 0) throw new RangeError(`the budget must be 0 or more, got ${String(budget)}`);
  const locked = lockedProfits(positions, decimalOdds.length);
  const order = locked.map((p, j) => ({ p, inverse: 1 / (decimalOdds[j] ?? 1) })).sort((a, b) => a.p - b.p);
  const stakesAt = (k: number): number[] => locked.map((p, j) => Math.max(0, (k - p) / (decimalOdds[j] ?? 1)));
  const total = (stakes: readonly number[]): number => stakes.reduce((sum, s) => sum + s, 0);

  // Walk the breakpoints: on [P_(i), P_(i+1)] the slope is 1 - (sum of 1/d over the first i+1).
  let inverseSum = 0;
  let level = order[0]?.p ?? 0;
  for (let i = 0; i < order.length; i++) {
    inverseSum += order[i]?.inverse ?? 0;
    const next = order[i + 1]?.p ?? Infinity;
    if (inverseSum >= 1) break;
    // Stakes grow at rate inverseSum per unit of K on this piece; stop where the budget is spent.
    const spent = total(stakesAt(level));
    const reachable = level + (budget - spent) / inverseSum;
    if (reachable <= next) {
      level = reachable;
      break;
    }
    level = next;
  }
  if (!Number.isFinite(level)) {
    throw new RangeError('these prices are an arbitrage: the worst case grows with the stake, so give a budget');
  }
  const stakes = stakesAt(level);
  const spent = total(stakes);
  const profits = locked.map((p, j) => p + (stakes[j] ?? 0) * (decimalOdds[j] ?? 1) - spent);
  return { stakes, profits, worstCaseProfit: Math.min(...profits) };
}
