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

/**
 * Kelly stakes for bets on several mutually exclusive outcomes of one event at once (at most one
 * wins), as fractions of bankroll: the explicit solution of Smoczynski & Tomkins, "An explicit
 * solution to the problem of optimizing the allocations of a bettor's wealth when wagering on
 * horse races", Mathematical Scientist 35 (2010). Outcomes are taken in falling order of expected
 * return p_i d_i and join the set S while p_i d_i exceeds the reserve rate
 * R(S) = (1 - sum_S p) / (1 - sum_S 1/d); each outcome in S gets f_i = p_i - R(S) / d_i, the
 * others 0, and 1 - sum f_i = R(S) is kept back. With one outcome this is kellyPercent / 100.
 * With probabilities summing to at most 1 the inverses in S stay below 1 (an outcome that would
 * take them to 1 has p d below R); when every outcome joins at prices summing below 1 (an
 * arbitrage) R(S) is 0 and the whole bankroll is staked, in proportion to p.
 */
export function simultaneousKelly(fairProbabilities: readonly number[], decimalOdds: readonly number[]): number[] {
  if (fairProbabilities.length !== decimalOdds.length || decimalOdds.length === 0) {
    throw new RangeError('one probability per price, and at least one of each');
  }
  for (const p of fairProbabilities) assertProbability(p);
  for (const d of decimalOdds) assertDecimal(d);
  const probabilitySum = fairProbabilities.reduce((sum, p) => sum + p, 0);
  if (probabilitySum > 1 + 1e-9) {
    throw new RangeError(`mutually exclusive outcomes cannot have probabilities summing above 1, got ${String(probabilitySum)}`);
  }
  const order = fairProbabilities.map((p, i) => ({ i, p, d: decimalOdds[i] ?? 1 })).sort((a, b) => b.p * b.d - a.p * a.d);
  let reserve = 1;
  let pIn = 0;
  let inverseIn = 0;
  const chosen: number[] = [];
  for (const { i, p, d } of order) {
    if (p * d <= reserve) break;
    pIn += p;
    inverseIn += 1 / d;
    chosen.push(i);
    // The guard only catches float noise at the boundary argued above.
    reserve = inverseIn >= 1 ? 0 : Math.max(0, (1 - pIn) / (1 - inverseIn));
  }
  const stakes: number[] = new Array<number>(decimalOdds.length).fill(0);
  for (const i of chosen) stakes[i] = (fairProbabilities[i] ?? 0) - reserve / (decimalOdds[i] ?? 1);
  return stakes;
}
