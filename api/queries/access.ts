import type { Feature, TierName } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import { TIERS, lowestTierWith } from '../../schemas/index.js';

const TIER_ORDER: readonly TierName[] = ['free', 'hobby', 'pro', 'sharp', 'enterprise'];

/**
 * The tier gates every interface applies the same way (REST answers 403 feature_required, MCP a
 * tool error with the same words): the message names the tier that has what was asked for.
 */
export function requireFeatureOf(tier: TierName, feature: Feature): void {
  if (!TIERS[tier].features.includes(feature)) {
    const needed = lowestTierWith(feature);
    throw new ApiError(
      'feature_required',
      `The ${feature} feature needs the ${needed} tier or higher; this key is ${tier}`,
      {},
      { tier, required_tier: needed },
    );
  }
}

/** A data set open from a tier up (closing lines, CLV), whatever the feature list says. */
export function requireTierOf(tier: TierName, min: TierName, what: string): void {
  if (TIER_ORDER.indexOf(tier) < TIER_ORDER.indexOf(min)) {
    throw new ApiError('feature_required', `${what} needs the ${min} tier or higher; this key is ${tier}`);
  }
}
