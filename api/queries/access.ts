import type { Feature, TierName, TierRule } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import { TIERS, TIER_MINIMUMS, lowestTierWith, tierAtLeast } from '../../schemas/index.js';

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

/** What each tier rule opens, as the refusal names it (subject and verb: "the futures tools need"). */
const RULE_WORDS: Readonly<Record<TierRule, string>> = {
  closingLines: 'Closing lines needs',
  closingHistory: 'Historical closing lines needs',
  clvHistory: 'Closing-line value history needs',
  futuresTools: 'The futures tools need',
  fairLine: 'The fair-line recipe needs',
};

/** A data set open from a tier up (closing lines, CLV, the MCP futures tools), whatever the feature list says. */
export function requireTierFor(tier: TierName, rule: TierRule): void {
  const min = TIER_MINIMUMS[rule];
  if (!tierAtLeast(tier, min)) throw new ApiError('feature_required', `${RULE_WORDS[rule]} the ${min} tier or higher; this key is ${tier}`);
}
