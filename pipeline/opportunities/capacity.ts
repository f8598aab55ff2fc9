import type { LegSide, OddsRow, StakeCapacity } from '../../schemas/index.js';
import { layLiabilityCapacity } from './lay.js';

/**
 * The whole stake a combination can carry: an exchange leg is matched only up to the money
 * waiting at its price, and it takes `share` of the stake, so the total is at most what the leg
 * can hold / share; the smallest over the exchange legs, floored to cents so that every leg fits.
 * A back leg holds the size waiting at its back price; a lay leg's stake is its liability, which
 * the backers' stake waiting at the lay price bounds (`layLiabilityCapacity`). Nothing (no field)
 * when no leg has a size: sportsbooks publish no limit.
 */
export function stakeCapacity(rows: readonly OddsRow[], shares: readonly number[], sides?: readonly LegSide[]): StakeCapacity {
  return capacityOf(
    rows.map((row, i) => (sides?.[i] === 'lay' ? layLiabilityCapacity(row) : row.exchange?.backSize)),
    shares,
  );
}

/** The same bound from what each leg holds (null or undefined: no limit) and its share of the stake. */
export function capacityOf(holds: readonly (number | null | undefined)[], shares: readonly number[]): StakeCapacity {
  let max = Number.POSITIVE_INFINITY;
  for (let i = 0; i < holds.length; i++) {
    const held = holds[i];
    const share = shares[i] ?? 0;
    if (held == null || !(share > 0)) continue;
    max = Math.min(max, held / share);
  }
  return Number.isFinite(max) ? { maxStake: Math.floor(max * 100 + 1e-9) / 100 } : {};
}
