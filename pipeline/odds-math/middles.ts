/**
 * Middles: one side of a spread or total at one book, the opposite side at another book at a
 * different line, so that some final scores win both bets.
 *
 * Both markets reduce to one outcome X and two bounds:
 * - totals: X is the combined score. Over L wins when X > L, Under M wins when X < M, so the
 *   window is L < X < M. Over 44.5 / Under 47.5 -> X in {45, 46, 47}.
 * - spreads: X is team A's margin (A's points minus B's). A with handicap h_A covers when
 *   X > -h_A; B with handicap h_B covers when X < h_B. A +3.5 / B -1.5 -> -3.5 < X < -1.5,
 *   X in {-3, -2}: A loses by 2 or 3.
 * A leg whose line equals X exactly pushes (stake returned), so integer lines give partial
 * middles (Over 44 / Under 47 pays one leg and refunds the other at 44 and 47). If the lines
 * overlap the other way (Over 47.5 / Under 44.5) the scores in between lose both bets.
 *
 * Stakes are split so that either leg alone returns the same amount (stake_i proportional to
 * 1/d_i, as in arbitrage.ts); a miss then costs the same whichever side wins. A caller who has
 * already chosen the stakes passes them (`stakes`); the two misses then differ, and the result
 * gives each (outcome below both lines: only the Under / team B leg wins; above both: only the
 * Over / team A leg), with the expected profit weighing each by its own probability.
 *
 * Hit model. X is taken as normal with mean `mean` and standard deviation `sigma`; with integer
 * scores each integer x gets the mass of [x - 0.5, x + 0.5] (continuity correction). The mean
 * defaults to the midpoint of the two lines, i.e. the market's own estimate of the median score;
 * pass the consensus fair total or spread when you have it. Optional key-number weights multiply
 * the mass of chosen integers (NFL margins of 3 and 7 land far more often than a normal curve
 * says) and the distribution is renormalised. This is a deliberately simple, checkable model;
 * sigma is an input because it depends on sport and market. TYPICAL_MARGIN_SIGMA lists published
 * values for point spreads; totals need a sigma fitted from your own history.
 */
import { assertDecimal } from './conversions.js';
import { normalCdf } from './normal.js';

export interface MiddleLeg {
  /** Total line (totals) or the team's handicap as quoted, e.g. +3.5 or -1.5 (spreads). */
  line: number;
  decimalOdds: number;
}

export type MiddleMarket = 'total' | 'spread';

export interface MiddleModel {
  /** Standard deviation of the outcome around `mean`, in points. */
  sigma: number;
  /** Expected total, or team A's expected margin; defaults to the midpoint of the two lines. */
  mean?: number;
  /** Scores move in whole points (default true); false treats the outcome as continuous. */
  integerScores?: boolean;
  /** [outcome, multiplier] pairs applied to integer outcomes, e.g. [[-3, 2], [3, 2]]. */
  keyNumberWeights?: readonly (readonly [number, number])[];
  /** Total staked across both legs (default 100). */
  bankroll?: number;
  /** The stakes on [first leg, second leg] as placed; the bankroll is then their sum. */
  stakes?: readonly [number, number];
}

export interface MiddleResult {
  /** Some possible outcome wins both bets. */
  isMiddle: boolean;
  /** Bets win both when lowerBound < X < upperBound (X: total, or team A's margin). */
  lowerBound: number;
  upperBound: number;
  /** upperBound - lowerBound in points; zero or negative means no window. */
  windowWidth: number;
  /** The integer outcomes that win both bets (empty with continuous scores). */
  windowOutcomes: number[];
  /** Stakes on [first leg, second leg], summing to the bankroll. */
  stakes: [number, number];
  /** Profit when exactly one leg wins, % of the bankroll (negative: the cost of a miss); below both lines with given stakes. */
  missProfitPercent: number;
  /** The miss below both lines (second leg alone wins) and above both (first leg alone); equal unless stakes were given. */
  missProfitPercents: [number, number];
  /** Best possible profit, normally both legs winning, % of the bankroll. */
  maxProfitPercent: number;
  /** Worst possible profit, % of the bankroll. */
  worstCaseProfitPercent: number;
  /** Model probability that both legs win. */
  hitProbability: number;
  /** Model expected profit, pushes included, % of the bankroll. */
  evPercent: number;
}

/**
 * Standard deviation of the final margin about the point spread. NFL: Stern (1991), "On the
 * Probability of Winning a Football Game", The American Statistician 45(3). NBA, college football
 * and college basketball: Jeff Sagarin's figures as quoted in Winston, "Mathletics" (2009), ch. 43.
 */
export const TYPICAL_MARGIN_SIGMA = { nfl: 13.86, nba: 12, ncaaf: 16, ncaab: 10 } as const;

// Lines further apart than this are not two books' views of one game; refusing them also keeps
// the window list small.
const MAX_WINDOW = 1000;

interface Distribution {
  /** Probability that X is the integer x. */
  point(x: number): number;
  /** Probability that X is an integer in [a, b]. */
  range(a: number, b: number): number;
}

/** Normal mass of [x - 0.5, x + 0.5]: the unweighted probability of the whole number x. */
function wholeNumberMass(x: number, mean: number, sigma: number): number {
  return normalCdf((x + 0.5 - mean) / sigma) - normalCdf((x - 0.5 - mean) / sigma);
}

function integerDistribution(mean: number, sigma: number, keyNumberWeights: readonly (readonly [number, number])[]): Distribution {
  const cdf = (x: number): number => normalCdf((x - mean) / sigma);
  const base = (x: number): number => wholeNumberMass(x, mean, sigma);
  const weights = new Map<number, number>();
  for (const [outcome, weight] of keyNumberWeights) {
    if (!Number.isInteger(outcome) || !Number.isFinite(weight) || weight < 0) {
      throw new RangeError(`key number weights must be [integer outcome, weight >= 0], got [${String(outcome)}, ${String(weight)}]`);
    }
    if (weights.has(outcome)) {
      throw new RangeError(`key number ${String(outcome)} is weighted twice`);
    }
    weights.set(outcome, weight);
  }
  // Reweighting a few integers changes the total mass by sum((w - 1) * base), so the
  // normalising constant is exact without summing over all integers.
  const extra = (a: number, b: number): number => {
    let sum = 0;
    for (const [k, w] of weights) if (k >= a && k <= b) sum += (w - 1) * base(k);
    return sum;
  };
  const total = 1 + extra(-Infinity, Infinity);
  if (total <= 0) throw new RangeError('key number weights leave no probability mass');
  return {
    point: (x) => ((weights.get(x) ?? 1) * base(x)) / total,
    range: (a, b) => (cdf(b + 0.5) - cdf(a - 0.5) + extra(a, b)) / total,
  };
}

function assertFinite(name: string, value: number): void {
  if (!Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite number, got ${String(value)}`);
  }
}

function assertSigma(sigma: number): void {
  if (!Number.isFinite(sigma) || sigma <= 0) {
    throw new RangeError(`sigma must be a finite number greater than 0, got ${String(sigma)}`);
  }
}

/**
 * Model probability that lowerBound < X < upperBound (both legs win). Zero when the bounds do not
 * leave a window.
 */
export function middleHitProbability(
  lowerBound: number,
  upperBound: number,
  mean: number,
  sigma: number,
  integerScores = true,
  keyNumberWeights: readonly (readonly [number, number])[] = [],
): number {
  assertFinite('lower bound', lowerBound);
  assertFinite('upper bound', upperBound);
  assertFinite('mean', mean);
  assertSigma(sigma);
  if (upperBound <= lowerBound) return 0;
  if (!integerScores) {
    if (keyNumberWeights.length > 0) {
      throw new RangeError('key number weights need integer scores');
    }
    return normalCdf((upperBound - mean) / sigma) - normalCdf((lowerBound - mean) / sigma);
  }
  const first = Math.floor(lowerBound) + 1;
  const last = Math.ceil(upperBound) - 1;
  if (first > last) return 0;
  return integerDistribution(mean, sigma, keyNumberWeights).range(first, last);
}

/**
 * Model probability that the outcome is one of the given whole numbers (each once), without
 * key-number weights: how often a middle's window lands on key numbers, say.
 */
export function wholeNumbersProbability(outcomes: readonly number[], mean: number, sigma: number): number {
  assertFinite('mean', mean);
  assertSigma(sigma);
  let p = 0;
  for (const x of outcomes) p += wholeNumberMass(x, mean, sigma);
  return p;
}

function evaluateMiddle(lower: number, upper: number, legA: MiddleLeg, legB: MiddleLeg, model: MiddleModel): MiddleResult {
  assertFinite('line', legA.line);
  assertFinite('line', legB.line);
  assertDecimal(legA.decimalOdds);
  assertDecimal(legB.decimalOdds);
  const given = model.stakes;
  for (const stake of given ?? []) {
    if (!Number.isFinite(stake) || stake < 0) throw new RangeError(`stakes must be finite numbers of 0 or more, got ${String(stake)}`);
  }
  const bankroll = given ? given[0] + given[1] : (model.bankroll ?? 100);
  if (!Number.isFinite(bankroll) || bankroll <= 0) {
    throw new RangeError(`bankroll must be a finite number greater than 0, got ${String(bankroll)}`);
  }
  if (Math.abs(upper - lower) > MAX_WINDOW) {
    throw new RangeError(`lines ${String(MAX_WINDOW)}+ points apart are not a middle`);
  }
  const integerScores = model.integerScores ?? true;
  const mean = model.mean ?? (lower + upper) / 2;
  const keyNumberWeights = model.keyNumberWeights ?? [];
  const hitProbability = middleHitProbability(lower, upper, mean, model.sigma, integerScores, keyNumberWeights);

  const impliedSum = 1 / legA.decimalOdds + 1 / legB.decimalOdds;
  const [stakeA, stakeB] = given ?? [bankroll / legA.decimalOdds / impliedSum, bankroll / legB.decimalOdds / impliedSum];
  const percentAt = (x: number): number => {
    const returnA = x > lower ? stakeA * legA.decimalOdds : x === lower ? stakeA : 0;
    const returnB = x < upper ? stakeB * legB.decimalOdds : x === upper ? stakeB : 0;
    return ((returnA + returnB - bankroll) / bankroll) * 100;
  };
  const missProfitPercent = percentAt(Math.min(lower, upper) - 1);
  const highMissProfitPercent = percentAt(Math.max(lower, upper) + 1);

  // Outcomes other than a miss, each with its probability and profit. Strictly between the lines
  // the profit is the same everywhere (both win, or both lose when the lines overlap backwards).
  const cases: { probability: number; profitPercent: number }[] = [];
  const low = Math.min(lower, upper);
  const high = Math.max(lower, upper);
  const windowOutcomes: number[] = [];
  if (integerScores) {
    const distribution = integerDistribution(mean, model.sigma, keyNumberWeights);
    const first = Math.floor(low) + 1;
    const last = Math.ceil(high) - 1;
    if (first <= last) {
      cases.push({ probability: distribution.range(first, last), profitPercent: percentAt(first) });
      if (lower < upper) for (let x = first; x <= last; x++) windowOutcomes.push(x);
    }
    for (const edge of low === high ? [low] : [low, high]) {
      if (Number.isInteger(edge)) {
        cases.push({ probability: distribution.point(edge), profitPercent: percentAt(edge) });
      }
    }
  } else if (low < high) {
    const probability = normalCdf((high - mean) / model.sigma) - normalCdf((low - mean) / model.sigma);
    cases.push({ probability, profitPercent: percentAt((low + high) / 2) });
  }
  // Only given stakes make the two misses differ; the proportional split keeps its one miss.
  if (given) {
    const probability = integerScores
      ? integerDistribution(mean, model.sigma, keyNumberWeights).range(Math.floor(high) + 1, Infinity)
      : 1 - normalCdf((high - mean) / model.sigma);
    cases.push({ probability, profitPercent: highMissProfitPercent });
  }

  const profits = [missProfitPercent, ...cases.map((c) => c.profitPercent)];
  return {
    isMiddle: integerScores ? windowOutcomes.length > 0 : lower < upper,
    lowerBound: lower,
    upperBound: upper,
    windowWidth: upper - lower,
    windowOutcomes,
    stakes: [stakeA, stakeB],
    missProfitPercent,
    missProfitPercents: [missProfitPercent, given ? highMissProfitPercent : missProfitPercent],
    maxProfitPercent: Math.max(...profits),
    worstCaseProfitPercent: Math.min(...profits),
    hitProbability,
    evPercent: cases.reduce((ev, c) => ev + c.probability * (c.profitPercent - missProfitPercent), missProfitPercent),
  };
}

/** Over at one book, Under at another. */
export function totalsMiddle(over: MiddleLeg, under: MiddleLeg, model: MiddleModel): MiddleResult {
  return evaluateMiddle(over.line, under.line, over, under, model);
}

/** Team A's spread at one book, team B's at another; outcomes are A's margin. */
export function spreadMiddle(teamA: MiddleLeg, teamB: MiddleLeg, model: MiddleModel): MiddleResult {
  return evaluateMiddle(0 - teamA.line, teamB.line, teamA, teamB, model);
}

/** `first` is the Over (totals) or team A (spreads); `second` the Under or team B. */
export function middle(market: MiddleMarket, first: MiddleLeg, second: MiddleLeg, model: MiddleModel): MiddleResult {
  if (market === 'total') return totalsMiddle(first, second, model);
  if (market === 'spread') return spreadMiddle(first, second, model);
  throw new RangeError(`unknown middle market "${String(market)}", expected "total" or "spread"`);
}
