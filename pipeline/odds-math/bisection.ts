/**
 * Root finding for the de-vig models. Bisection rather than Newton: each model has a
 * one-dimensional parameter, a bracket we can state in advance and a monotone residual, so
 * bisection cannot diverge or leave the domain, and 100 iterations cost nothing next to a network
 * message. It stops once the bracket is narrower than `tolerance` (absolute) or the residual is
 * exactly zero.
 */
export function bisect(f: (x: number) => number, low: number, high: number, tolerance = 1e-12): number {
  let lo = low;
  let hi = high;
  let fLo = f(lo);
  const fHi = f(hi);
  if (fLo === 0) return lo;
  if (fHi === 0) return hi;
  if (Math.sign(fLo) === Math.sign(fHi)) {
    throw new RangeError(`bisection bracket [${String(lo)}, ${String(hi)}] does not contain a root`);
  }
  // 200 halvings take any finite bracket below double precision; the cap only guards a NaN.
  for (let i = 0; i < 200 && hi - lo > tolerance; i++) {
    const mid = lo + (hi - lo) / 2;
    const fMid = f(mid);
    if (fMid === 0) return mid;
    if (Math.sign(fMid) === Math.sign(fLo)) {
      lo = mid;
      fLo = fMid;
    } else {
      hi = mid;
    }
  }
  return lo + (hi - lo) / 2;
}
