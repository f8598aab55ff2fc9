import type { Feature, TierName, TierRule } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import type { ErrorExtras } from '../errors.js';
import { TIERS, TIER_MINIMUMS, lowestTierWith, lowestTierWithAlertRules, tierAtLeast } from '../../schemas/index.js';

/** Whether the tier's feature list has `feature` (what to offer; `requireFeatureOf` refuses). */
export function hasFeature(tier: TierName, feature: Feature): boolean {
  return TIERS[tier].features.includes(feature);
}

/**
 * The tier gates every interface applies the same way (REST answers 403 feature_required, MCP a
 * tool error with the same words): the message names the tier that has what was asked for.
 */
export function requireFeatureOf(tier: TierName, feature: Feature): void {
  if (!hasFeature(tier, feature)) throw featureRefusal(`The ${feature} feature`, feature, tier);
}

/**
 * Every 403 of a tier gate: the caller's tier and the cheapest tier that would serve it travel
 * with the message (`tier`, `required_tier`), so REST, MCP and the streams can name them alike.
 */
export function tierRefusal(tier: TierName, requiredTier: TierName, message: string, extras: ErrorExtras = {}): ApiError {
  return new ApiError('feature_required', message, {}, { tier, required_tier: requiredTier, ...extras });
}

/** The refusal of something (`what`: "The ev feature", "The arbitrage stream") that needs a feature the tier lacks. */
export function featureRefusal(what: string, feature: Feature, tier: TierName): ApiError {
  const needed = lowestTierWith(feature);
  return tierRefusal(tier, needed, `${what} needs the ${needed} tier or higher; this key is ${tier}`);
}

/** What each tier rule opens, as the refusal names it (subject and verb: "the futures tools need"). */
const RULE_WORDS: Readonly<Record<TierRule, string>> = {
  closingLines: 'Closing lines needs',
  closingHistory: 'Historical closing lines needs',
  clvHistory: 'Closing-line value history needs',
  futuresTools: 'The futures tools need',
  fairLine: 'The fair-line recipe needs',
  betLedger: 'The bet ledger needs',
};

/** A data set open from a tier up (closing lines, CLV, the MCP futures tools), whatever the feature list says. */
export function requireTierFor(tier: TierName, rule: TierRule): void {
  const min = TIER_MINIMUMS[rule];
  if (!tierAtLeast(tier, min)) throw tierRefusal(tier, min, `${RULE_WORDS[rule]} the ${min} tier or higher; this key is ${tier}`);
}

/**
 * Alerts (the `alerts` stream channel) are open to the tiers whose accounts may hold alert rules
 * (`maxAlertRules` of the tier table above 0); `what` names the refused thing.
 */
export function requireAlertRulesOf(tier: TierName, what: string): void {
  if (TIERS[tier].maxAlertRules > 0) return;
  const needed = lowestTierWithAlertRules();
  throw tierRefusal(tier, needed, `${what} needs the ${needed} tier or higher (alert rules); this key is ${tier}`);
}
