import type { OddsRow, OpportunityLeg } from '../../schemas/index.js';
import { americanToDecimal, decimalToAmerican, layAsBackDecimal, roundedDecimalOdds } from '../odds-math/index.js';
import { legOf } from './state.js';

/**
 * Laying on an exchange as a leg of a combination. A lay of runner A at L risks L - 1 per unit
 * of the backer's stake and wins that unit less commission when A loses: a back of "A loses" at
 * 1 + (1 - c) / (L - 1) (`layAsBackDecimal`). In a two-way market "A loses" is the other
 * outcome winning, so the lay is one more price of that outcome, and every engine that picks a
 * price per outcome can take it. The leg's stake is the lay's liability.
 */

/**
 * The decimal a lay on this exchange row pays as a back of the runner losing, rounded through
 * American odds as the row's own back price is (ticks carry American prices), so both sides of
 * the exchange are measured alike; null when the row offers nothing to lay.
 */
export function layDecimalOf(row: OddsRow): number | null {
  const x = row.exchange;
  if (x == null || x.lay === null || !(x.lay > 1) || !(x.laySize !== null && x.laySize > 0)) return null;
  return americanToDecimal(decimalToAmerican(layAsBackDecimal(x.lay, x.commission)));
}

/** A lay leg: the runner laid, priced as its lay's back of the runner losing, with the lay price as quoted. */
export function layLegOf(row: OddsRow, stakeShare: number): OpportunityLeg {
  const x = row.exchange;
  const layPrice = x?.lay ?? null;
  if (x == null || layPrice === null) throw new Error(`row ${row.id} has no lay price`);
  const american = decimalToAmerican(layAsBackDecimal(layPrice, x.commission));
  const leg = legOf(row, stakeShare);
  leg.priceAmerican = american;
  leg.priceDecimal = roundedDecimalOdds(american);
  leg.side = 'lay';
  leg.layPrice = layPrice;
  delete leg.backPrice;
  const liability = layLiabilityCapacity(row);
  if (liability === null) delete leg.maxLegStake;
  else leg.maxLegStake = liability;
  return leg;
}

/**
 * The most a lay leg can hold, as a liability: the backers' stake waiting at the lay price
 * (`laySize`) times what each unit of it costs the layer if the runner wins (L - 1).
 */
export function layLiabilityCapacity(row: OddsRow): number | null {
  const x = row.exchange;
  if (x == null || x.lay === null || x.laySize === null) return null;
  return x.laySize * (x.lay - 1);
}
