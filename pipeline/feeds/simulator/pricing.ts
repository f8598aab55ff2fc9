/**
 * From probabilities to the prices a book posts: vig, a book's tilt, American odds with the
 * book's rounding. Pure functions; called once per requote, so they allocate nothing.
 */

/** Longest odds a book posts; also keeps every probability away from 0 and 1. */
const MAX_AMERICAN = 10_000;
const MAX_P = MAX_AMERICAN / (MAX_AMERICAN + 100);
const MIN_P = 100 / (MAX_AMERICAN + 100);

export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Price increments as books use them: fine near even money, coarser on long odds (nobody
 * posts +1237). `cents` is the book's increment near even money (1 for sharps, 5 or 10 soft).
 */
function incrementFor(magnitude: number, cents: number): number {
  if (cents <= 1) return magnitude < 1000 ? 1 : 10;
  if (magnitude < 300) return cents;
  if (magnitude < 600) return Math.max(cents, 10);
  if (magnitude < 1000) return 25;
  if (magnitude < 2000) return 50;
  return 100;
}

/**
 * American odds for an implied probability, rounded in the book's favour (favourites a bit
 * shorter, underdogs a bit longer). Never in (-100, +100): even money is +100, never -100.
 */
export function probabilityToAmerican(p: number, cents: number): number {
  const q = p > MAX_P ? MAX_P : p < MIN_P ? MIN_P : p;
  if (q > 0.5) {
    const raw = (100 * q) / (1 - q);
    const step = incrementFor(raw, cents);
    const v = Math.ceil(raw / step - 1e-9) * step;
    return v <= 100 ? 100 : -v;
  }
  const raw = (100 * (1 - q)) / q;
  const step = incrementFor(raw, cents);
  const v = Math.floor(raw / step + 1e-9) * step;
  return v < 100 ? 100 : v;
}

/**
 * Writes the book's prices for fair probabilities `fair[0..n)` into `out`. `overround` is the
 * book's margin (0.025 = 2.5%), spread multiplicatively; `tilt` moves probability from the last
 * outcome to the first (a shaded side, or the book's own opinion), which is what makes one
 * soft book's price beat the fair line on one side.
 */
export function priceOutcomes(fair: ArrayLike<number>, n: number, overround: number, tilt: number, cents: number, out: number[]): void {
  const k = 1 + overround;
  for (let i = 0; i < n; i++) {
    let q = (fair[i] ?? 0) * k;
    if (i === 0) q += tilt;
    else if (i === n - 1) q -= tilt;
    out[i] = probabilityToAmerican(q, cents);
  }
}

/** Nearest point of the grid `offset + k * step`. */
export function snapToGrid(x: number, step: number, offset: number): number {
  const v = offset + Math.round((x - offset) / step) * step;
  // 0.25-steps are exact in binary, but keep -0 out of the ticks: `${-0}` and Object.is differ.
  return v === 0 ? 0 : v;
}

/** `-x` without producing -0 (a home line of 0 must give an away line of 0). */
export function negate(x: number): number {
  return 0 - x;
}
