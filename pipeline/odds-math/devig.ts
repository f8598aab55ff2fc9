/**
 * Removing the bookmaker's margin ("de-vig"): from the prices of all n outcomes of one market
 * (2-way moneyline, 3-way soccer home/draw/away, an n-runner field) to fair probabilities that
 * sum to 1. Input is decimal odds, or implied probabilities through deVigImplied(). Every method
 * leaves a margin-free market unchanged and returns probabilities in the same order as the input.
 *
 * Methods (r_i = 1/d_i are the implied probabilities, R = sum r_i):
 * - power (default): fair p_i = r_i^k with k chosen so that sum r_i^k = 1. Because r^k shrinks
 *   small r proportionally more, longshots give up more of the margin, which matches the
 *   favourite-longshot bias better than normalising (Clarke, Kovalchik & Ingram 2017, "Adjusting
 *   bookmaker's odds to allow for overround"). k is found by bisection (bisection.ts) to an
 *   absolute tolerance of 1e-12: sum r^k is strictly decreasing in k and equals n > 1 at k = 0,
 *   so the root lies in (0, hi] with hi doubled from 2 until the sum drops below 1 (k > 1 when
 *   R > 1, k < 1 when R < 1).
 * - multiplicative: p_i = r_i / R.
 * - additive: every outcome gives up an equal share (R - 1)/n. Taken literally this can make a
 *   longshot's probability zero or negative (Clarke et al.'s 6-runner example does), so no
 *   outcome gives up more than half its own implied probability; what a capped outcome cannot
 *   pay is shared equally by the others (water-filling). For ordinary markets the cap never binds
 *   and the result is the textbook formula. Markets with an overround above 100% cannot be
 *   de-vigged this way and throw. An underround market (R < 1) has the shortfall added equally,
 *   which cannot push any outcome to 1 or above.
 * - shin: Shin's insider-trading model as formulated by Jullien & Salanié (1994) and implemented
 *   in the `shin` Python package (github.com/mberk/shin):
 *   p_i = (sqrt(z^2 + 4(1-z) r_i^2 / R) - z) / (2(1-z)), with the insider share z chosen so that
 *   sum p_i = 1, found by bisection on [-1, 1]: at z = -1 every p_i is at least 1/2, so the sum
 *   exceeds 1, and at z = 1 the formula tends to r_i^2/R, whose sum is below 1. For two outcomes
 *   it equals the additive method. For an underround market z comes out negative, which has no
 *   insider interpretation; it is still the value that makes the probabilities sum to 1 (and
 *   what the package's two-outcome closed form gives).
 *
 * - odds_ratio: Keith Cheung's odds-ratio method ("Fixed-odds betting and traditional odds",
 *   2015, as described in Buchdahl's "Wisdom of the Crowd" and implemented in the `implied` R
 *   package): the book's odds are the fair odds times one ratio c for every outcome,
 *   r_i / (1 - r_i) = c * p_i / (1 - p_i), so p_i = r_i / (c + r_i - c r_i), with c chosen so
 *   that sum p_i = 1. The sum falls as c grows (from n at c = 0), so c is bisected on (0, hi]
 *   with hi doubled until the sum drops below 1.
 * - logit: the same model read on the log-odds scale, logit(p_i) = logit(r_i) - s, one shift s
 *   for every outcome (s = ln c). It is solved independently, in logit space, so the two serve
 *   as a check on each other; they agree to solver precision.
 * - Buchdahl's "margin weights proportional to the odds" (fair odds n*O_i / (n - M*O_i), M the
 *   overround; "Wisdom of the Crowd", 2015) is the additive method written in odds: its inverse
 *   is r_i - M/n. It is not listed twice; `additive` is it (with the cap above).
 *
 * Recipe-only methods (RECIPE_DEVIG_METHODS; the pipeline does not store them per opportunity):
 * - efficient_shin: the per-outcome Shin of Kizildemir, Akin & Alkan ("A Family of Solutions
 *   Related to Shin's Model for Probability Forecasts", 2024/2025), as implemented by
 *   `efficient_shin_conversion` in the goto_conversion package: each outcome is set against the
 *   rest of the market as one opposing outcome, and the two-outcome closed form of Shin's z,
 *   z_i = (R - 1)(c_i^2 - R) / (R (c_i^2 - 1)) with c_i = r_i - (R - r_i), gives that outcome its
 *   own z_i in the Shin formula above; the results are normalised to sum to 1. No solver. At
 *   c_i = -1 exactly (the rest priced at 1 + r_i) z_i is undefined; the method throws whenever
 *   an outcome's result is not a positive finite number.
 * - goto: goto_conversion (Kaito Goto, github.com/gotoConversion/goto_conversion): every implied
 *   probability steps back by the same number of its own standard errors, sqrt(r_i (1 - r_i) / r_i)
 *   = sqrt(1 - r_i), the step chosen so the sum is 1. Longshots have the larger error, so they
 *   give up more. Closed form; throws when an outcome would fall to 0 or below (or reach 1).
 *
 * - worst_case (deVigWorstCase, not a method of its own): per outcome, the lowest fair
 *   probability any of the stored methods (DEVIG_METHODS) gives. It does not sum to 1; it is the conservative
 *   screen, an edge that survives it survives every model.
 *
 * The solvers stop at a parameter tolerance of 1e-12; the tiny remaining error in the sum is
 * removed by dividing by it, so every method returns probabilities summing to 1 to machine
 * precision.
 */
import { DEVIG_CHOICES, DEVIG_METHODS, RECIPE_DEVIG_METHODS } from '../../schemas/index.js';
import type { DevigMethod, DevigMethodName, RecipeDevigMethod } from '../../schemas/index.js';
import { assertProbability } from './conversions.js';
import { bisect } from './bisection.js';
import { impliedProbabilities } from './hold.js';

// The method lists are contracts (API parameters, Avro enums): schemas/ holds them once.
export { DEVIG_CHOICES, DEVIG_METHODS, RECIPE_DEVIG_METHODS };
export type { DevigMethod, RecipeDevigMethod };
export type DevigChoice = DevigMethodName;

const sumOf = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0);

function assertImplied(implied: readonly number[]): void {
  if (implied.length < 2) {
    throw new RangeError(`a market needs at least 2 outcomes, got ${String(implied.length)}`);
  }
  for (const p of implied) assertProbability(p);
}

function normalise(values: readonly number[]): number[] {
  const total = sumOf(values);
  return values.map((v) => v / total);
}

function multiplicativeFromImplied(implied: readonly number[]): number[] {
  return normalise(implied);
}

function powerExponentFromImplied(implied: readonly number[]): number {
  const total = sumOf(implied);
  if (total === 1) return 1;
  const residual = (k: number): number => sumOf(implied.map((r) => r ** k)) - 1;
  // The bracket starts at 0 (residual n - 1 > 0) whatever the sign of the margin, so a market
  // whose sum is 1 give or take a rounding error cannot fall between two cases.
  let hi = 2;
  while (residual(hi) > 0) hi *= 2;
  return bisect(residual, 0, hi);
}

function powerFromImplied(implied: readonly number[]): number[] {
  const k = powerExponentFromImplied(implied);
  return normalise(implied.map((r) => r ** k));
}

function additiveFromImplied(implied: readonly number[]): number[] {
  const n = implied.length;
  const excess = sumOf(implied) - 1;
  if (excess <= 0) return normalise(implied.map((r) => r - excess / n));
  const caps = implied.map((r) => r / 2);
  if (excess > sumOf(caps)) {
    throw new RangeError(`additive de-vig needs an overround of at most 100%, got ${String(excess * 100)}%`);
  }
  const capped = new Set<number>();
  let share = excess / n;
  // Capping raises the share left for the others, which can push more outcomes over their cap;
  // each pass caps at least one more outcome, so this ends within n passes.
  for (;;) {
    const newlyCapped = caps.map((cap, i) => ({ cap, i })).filter(({ cap, i }) => !capped.has(i) && cap < share);
    if (newlyCapped.length === 0) break;
    for (const { i } of newlyCapped) capped.add(i);
    const paidByCapped = sumOf(caps.filter((_, i) => capped.has(i)));
    share = (excess - paidByCapped) / (n - capped.size);
  }
  return normalise(implied.map((r, i) => r - (capped.has(i) ? r / 2 : share)));
}

function shinFromZ(implied: readonly number[], total: number, z: number): number[] {
  if (z === 1) return implied.map((r) => (r * r) / total);
  return implied.map((r) => (Math.sqrt(z * z + (4 * (1 - z) * r * r) / total) - z) / (2 * (1 - z)));
}

function shinZFromImplied(implied: readonly number[]): number {
  const total = sumOf(implied);
  if (total === 1) return 0;
  const residual = (z: number): number => sumOf(shinFromZ(implied, total, z)) - 1;
  // One bracket for both signs of the margin, for the same reason as the power method.
  return bisect(residual, -1, 1);
}

function shinFromImplied(implied: readonly number[]): number[] {
  return normalise(shinFromZ(implied, sumOf(implied), shinZFromImplied(implied)));
}

function oddsRatioFromC(implied: readonly number[], c: number): number[] {
  return implied.map((r) => r / (c + r - c * r));
}

function oddsRatioFromImplied(implied: readonly number[]): number[] {
  if (sumOf(implied) === 1) return [...implied];
  const residual = (c: number): number => sumOf(oddsRatioFromC(implied, c)) - 1;
  let hi = 2;
  while (residual(hi) > 0) hi *= 2;
  return normalise(oddsRatioFromC(implied, bisect(residual, 0, hi)));
}

const logit = (p: number): number => Math.log(p / (1 - p));
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

function logitFromShift(logits: readonly number[], s: number): number[] {
  return logits.map((l) => logistic(l - s));
}

function logitFromImplied(implied: readonly number[]): number[] {
  if (sumOf(implied) === 1) return [...implied];
  const logits = implied.map(logit);
  const residual = (s: number): number => sumOf(logitFromShift(logits, s)) - 1;
  // The sum falls from n to 0 as the shift grows; widen a symmetric bracket until it holds the root.
  let half = 1;
  while (residual(-half) < 0 || residual(half) > 0) half *= 2;
  return normalise(logitFromShift(logits, bisect(residual, -half, half)));
}

function efficientShinFromImplied(implied: readonly number[]): number[] {
  const total = sumOf(implied);
  if (total === 1) return [...implied];
  const fair = implied.map((r) => {
    const c = r - (total - r);
    const z = ((total - 1) * (c * c - total)) / (total * (c * c - 1));
    return (Math.sqrt(z * z + (4 * (1 - z) * r * r) / total) - z) / (2 * (1 - z));
  });
  if (fair.some((p) => !Number.isFinite(p) || p <= 0)) {
    throw new RangeError('efficient Shin is undefined here: an outcome is priced against a rest whose implied sum reaches 1 plus its own');
  }
  return normalise(fair);
}

function gotoFromImplied(implied: readonly number[]): number[] {
  const errors = implied.map((r) => Math.sqrt((r - r * r) / r));
  const step = (sumOf(implied) - 1) / sumOf(errors);
  const fair = implied.map((r, i) => r - (errors[i] ?? 0) * step);
  if (fair.some((p) => p <= 0 || p >= 1)) {
    throw new RangeError('goto conversion would push an outcome out of (0, 1): the margin is too large for its longshots');
  }
  return normalise(fair);
}

const FROM_IMPLIED: Record<RecipeDevigMethod, (implied: readonly number[]) => number[]> = {
  power: powerFromImplied,
  multiplicative: multiplicativeFromImplied,
  additive: additiveFromImplied,
  shin: shinFromImplied,
  odds_ratio: oddsRatioFromImplied,
  logit: logitFromImplied,
  efficient_shin: efficientShinFromImplied,
  goto: gotoFromImplied,
};

function assertMethod(method: string): asserts method is RecipeDevigMethod {
  if (!(RECIPE_DEVIG_METHODS as readonly string[]).includes(method)) {
    throw new RangeError(`unknown de-vig method "${method}", expected one of ${RECIPE_DEVIG_METHODS.join(', ')}`);
  }
}

/** Fair probabilities from implied probabilities (each in (0, 1), margin included). */
export function deVigImplied(method: RecipeDevigMethod, implied: readonly number[]): number[] {
  assertMethod(method);
  assertImplied(implied);
  return FROM_IMPLIED[method](implied);
}

/** Fair probabilities from the decimal prices of every outcome of one market. */
export function deVig(method: RecipeDevigMethod, decimalOdds: readonly number[]): number[] {
  assertMethod(method);
  return FROM_IMPLIED[method](impliedProbabilities(decimalOdds));
}

export function deVigPower(decimalOdds: readonly number[]): number[] {
  return deVig('power', decimalOdds);
}

export function deVigMultiplicative(decimalOdds: readonly number[]): number[] {
  return deVig('multiplicative', decimalOdds);
}

export function deVigAdditive(decimalOdds: readonly number[]): number[] {
  return deVig('additive', decimalOdds);
}

export function deVigShin(decimalOdds: readonly number[]): number[] {
  return deVig('shin', decimalOdds);
}

export function deVigOddsRatio(decimalOdds: readonly number[]): number[] {
  return deVig('odds_ratio', decimalOdds);
}

export function deVigLogit(decimalOdds: readonly number[]): number[] {
  return deVig('logit', decimalOdds);
}

export function deVigEfficientShin(decimalOdds: readonly number[]): number[] {
  return deVig('efficient_shin', decimalOdds);
}

export function deVigGoto(decimalOdds: readonly number[]): number[] {
  return deVig('goto', decimalOdds);
}

/** The odds ratio c of Cheung's method (book odds = c x fair odds); above 1 with a margin. */
export function oddsRatio(decimalOdds: readonly number[]): number {
  const implied = impliedProbabilities(decimalOdds);
  const fair = oddsRatioFromImplied(implied);
  const r = implied[0] ?? 0.5;
  const p = fair[0] ?? 0.5;
  return (r * (1 - p)) / (p * (1 - r));
}

/**
 * Per outcome, the lowest fair probability over fair-probability sets already computed (one per
 * method). Kept separate from the methods so a caller that has them pays no second de-vig.
 */
export function worstCaseOf(fairByMethod: readonly (readonly number[])[]): number[] {
  const first = fairByMethod[0];
  if (!first) throw new RangeError('worst case needs at least one method');
  return first.map((_, i) => Math.min(...fairByMethod.map((f) => f[i] ?? Infinity)));
}

/** The conservative screen: per outcome, the lowest fair probability any method gives. */
export function deVigWorstCase(decimalOdds: readonly number[]): number[] {
  const implied = impliedProbabilities(decimalOdds);
  assertImplied(implied);
  const all: number[][] = [];
  for (const m of DEVIG_METHODS) {
    try {
      all.push(FROM_IMPLIED[m](implied));
    } catch {
      // The additive method cannot take an overround above 100 %; the others still can.
    }
  }
  return worstCaseOf(all);
}

/** The k of the power method (fair p_i = r_i^k); above 1 when the market carries a margin. */
export function powerExponent(decimalOdds: readonly number[]): number {
  return powerExponentFromImplied(impliedProbabilities(decimalOdds));
}

/** Shin's z, the estimated share of insider money; 0 for a margin-free market. */
export function shinZ(decimalOdds: readonly number[]): number {
  return shinZFromImplied(impliedProbabilities(decimalOdds));
}
