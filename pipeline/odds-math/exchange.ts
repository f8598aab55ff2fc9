/**
 * Exchange prices. An exchange takes commission on net winnings instead of building a margin into
 * its prices, so the price a backer is actually paid is the quoted one with the commission taken
 * off the profit part: back 3.0 at 5 % pays 1 + 2 x 0.95 = 2.9. Commission is charged on a market's
 * net winnings, so on one bet per market (every opportunity leg) this is exact.
 */
import { assertDecimal } from './conversions.js';

function assertCommission(commissionPercent: number): void {
  if (!Number.isFinite(commissionPercent) || commissionPercent < 0 || commissionPercent >= 100) {
    throw new RangeError(`commission must be a percent in [0, 100), got ${String(commissionPercent)}`);
  }
}

/** The decimal price a back bet at `back` pays once the exchange has taken its commission. */
export function netBackDecimal(back: number, commissionPercent: number): number {
  assertDecimal(back);
  assertCommission(commissionPercent);
  return 1 + (back - 1) * (1 - commissionPercent / 100);
}

/**
 * A lay bet at `lay` as a back bet on the outcome not happening: the layer risks `lay - 1` per
 * unit of the backer's stake and wins that unit less commission, so it is decimal
 * 1 + (1 - c) / (lay - 1) on "not this outcome" (in a two-way market, the other side).
 */
export function layAsBackDecimal(lay: number, commissionPercent: number): number {
  assertDecimal(lay);
  assertCommission(commissionPercent);
  return 1 + (1 - commissionPercent / 100) / (lay - 1);
}

/**
 * The exchange's own view of an outcome's chance: the midpoint of the probabilities its best back
 * and lay prices imply (commission left out: it is charged on winnings, not part of the market's
 * opinion). `spread` is the gap between the two in probability points: the wider, the less the
 * midpoint says.
 */
export function backLayMidpoint(back: number, lay: number): { probability: number; spread: number } {
  assertDecimal(back);
  assertDecimal(lay);
  return { probability: (1 / back + 1 / lay) / 2, spread: Math.abs(1 / back - 1 / lay) };
}
