import type { OddsRow, StakeCapacity } from '../../schemas/index.js';

/**
 * The whole stake a combination can carry: an exchange leg is matched only up to the size waiting
 * at its price, and it takes `share` of the stake, so the total is at most size / share; the
 * smallest over the exchange legs, floored to cents so that every leg fits. Nothing (no field)
 * when no leg has a size: sportsbooks publish no limit.
 */
export function stakeCapacity(rows: readonly OddsRow[], shares: readonly number[]): StakeCapacity {
  let max = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const size = rows[i]?.exchange?.backSize;
    const share = shares[i] ?? 0;
    if (size == null || !(share > 0)) continue;
    max = Math.min(max, size / share);
  }
  return Number.isFinite(max) ? { maxStake: Math.floor(max * 100 + 1e-9) / 100 } : {};
}
