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
  let max = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const holds = sides?.[i] === 'lay' ? (row ? layLiabilityCapacity(row) : null) : row?.exchange?.backSize;
    const share = shares[i] ?? 0;
    if (holds == null || !(share > 0)) continue;
    max = Math.min(max, holds / share);
  }
  return Number.isFinite(max) ? { maxStake: Math.floor(max * 100 + 1e-9) / 100 } : {};
}
