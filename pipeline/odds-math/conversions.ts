/**
 * Price conversions between American odds, decimal odds and implied probability.
 *
 * Rules, so that anyone can reproduce a result on a calculator:
 * - American -> decimal is exact: +A gives 1 + A/100, -A gives 1 + 100/A. +100 and -100 are the
 *   same price and both give decimal 2.0.
 * - Anything -> American is rounded to the nearest whole number (American prices are quoted in
 *   whole cents), halves away from zero (+100.5 -> +101, -110.5 -> -111). The raw value is first
 *   snapped to 9 decimals so that float noise such as 100.49999999999999 for decimal 2.005 does not
 *   decide the rounding. Even money is always reported as +100, never -100: decimal 2.0 and
 *   probability 0.5 both map to +100, and a price just under 2.0 that rounds to -100 becomes +100.
 * - Decimal and probability are reciprocals, unrounded.
 *
 * Invalid input (American strictly between -100 and +100, decimal <= 1, probability outside the
 * open interval (0, 1), NaN or infinities) throws a RangeError. Feeds validate prices before they
 * reach this module, so a bad value here is a programmer error, not data to be tolerated.
 *
 * decimalToAmericanUnsnapped is the one exception to these rules: the feed's own conversion of
 * wire prices, kept as it was (see there).
 */

export function assertAmerican(american: number): void {
  if (!Number.isFinite(american) || (american > -100 && american < 100)) {
    throw new RangeError(`American odds must be a finite number <= -100 or >= +100, got ${String(american)}`);
  }
}

export function assertDecimal(decimalOdds: number): void {
  if (!Number.isFinite(decimalOdds) || decimalOdds <= 1) {
    throw new RangeError(`decimal odds must be a finite number greater than 1, got ${String(decimalOdds)}`);
  }
}

export function assertProbability(probability: number): void {
  if (!Number.isFinite(probability) || probability <= 0 || probability >= 1) {
    throw new RangeError(`probability must be a number strictly between 0 and 1, got ${String(probability)}`);
  }
}

function roundAmerican(raw: number): number {
  const snapped = Math.round(Math.abs(raw) * 1e9) / 1e9;
  const whole = Math.round(snapped);
  // -100 and +100 are the same price; a single canonical form keeps comparisons and keys simple.
  if (whole === 100) return 100;
  return raw < 0 ? -whole : whole;
}

export function americanToDecimal(american: number): number {
  assertAmerican(american);
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

export function decimalToAmerican(decimalOdds: number): number {
  assertDecimal(decimalOdds);
  if (decimalOdds >= 2) return roundAmerican((decimalOdds - 1) * 100);
  return roundAmerican(-100 / (decimalOdds - 1));
}

/**
 * Decimal odds to American as The Odds API feed has always converted a decimal wire price, which
 * the recordings and the ticks stored from them depend on. It differs from decimalToAmerican in
 * three ways, all pinned by tests: an invalid price (<= 1, NaN, infinite) gives null instead of
 * throwing, since a feed counts and drops bad data; the raw float is rounded as it is, not
 * snapped first (2.005 gives +100, not +101); and a price just under 2.0 gives -100, not +100.
 */
export function decimalToAmericanUnsnapped(decimalOdds: number): number | null {
  if (!Number.isFinite(decimalOdds) || decimalOdds <= 1) return null;
  return decimalOdds >= 2 ? Math.round((decimalOdds - 1) * 100) : -Math.round(100 / (decimalOdds - 1));
}

export function americanToProbability(american: number): number {
  assertAmerican(american);
  // Written without going through decimal so that e.g. -150 gives exactly 150/250 = 0.6.
  return american > 0 ? 100 / (american + 100) : -american / (-american + 100);
}

export function probabilityToAmerican(probability: number): number {
  assertProbability(probability);
  if (probability <= 0.5) return roundAmerican((100 * (1 - probability)) / probability);
  return roundAmerican((-100 * probability) / (1 - probability));
}

export function decimalToProbability(decimalOdds: number): number {
  assertDecimal(decimalOdds);
  return 1 / decimalOdds;
}

export function probabilityToDecimal(probability: number): number {
  assertProbability(probability);
  return 1 / probability;
}
