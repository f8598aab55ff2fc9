/**
 * Standard normal distribution function, for the middle hit model. JavaScript has no erf, and a
 * textbook 7-digit approximation would show through in probabilities of small windows, so this is
 * accurate to about 1e-15 absolute:
 * - |x| < 2.5: erf by the everywhere-positive series
 *   erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n 2^n x^(2n+1) / (1*3*...*(2n+1)), which has no
 *   cancellation;
 * - otherwise: erfc by its continued fraction (Abramowitz & Stegun 7.1.14), evaluated from the
 *   tail with 120 terms, which avoids computing 1 - erf where erf is close to 1.
 */

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

function erfSeries(x: number): number {
  const twoXSquared = 2 * x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= twoXSquared / (2 * n + 1);
    sum += term;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
}

/** erfc(x) for x >= 2.5. */
function erfcContinuedFraction(x: number): number {
  let tail = x;
  for (let n = 120; n >= 1; n--) tail = x + n / 2 / tail;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / tail;
}

function erfc(x: number): number {
  if (x >= 2.5) return erfcContinuedFraction(x);
  if (x <= -2.5) return 2 - erfcContinuedFraction(-x);
  return 1 - erfSeries(x);
}

export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}
