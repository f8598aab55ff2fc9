import type { SportsbookDef, TierName } from '../schemas/index.js';

export const FEATURES = ['ev', 'arbitrage', 'middles', 'gamestate'] as const;
export type Feature = (typeof FEATURES)[number];

export interface TierLimits {
  /** Requests per minute. */
  requestsPerMinute: number;
  dataDelaySeconds: number;
  /** Sportsbooks a key may see; null = all. */
  maxSportsbooks: number | null;
  features: readonly Feature[];
  batchEvents: number;
}

/** The tier table of the contract, in one place: routes, headers and docs read it from here. */
export const TIERS: Record<TierName, TierLimits> = {
  free: { requestsPerMinute: 12, dataDelaySeconds: 60, maxSportsbooks: 2, features: [], batchEvents: 5 },
  hobby: { requestsPerMinute: 120, dataDelaySeconds: 0, maxSportsbooks: 5, features: ['arbitrage'], batchEvents: 20 },
  pro: { requestsPerMinute: 300, dataDelaySeconds: 0, maxSportsbooks: 15, features: ['ev', 'arbitrage', 'middles'], batchEvents: 50 },
  sharp: { requestsPerMinute: 1000, dataDelaySeconds: 0, maxSportsbooks: null, features: ['ev', 'arbitrage', 'middles'], batchEvents: 100 },
  // Enterprise is "custom" in the contract: a generous default an operator can raise per key.
  enterprise: { requestsPerMinute: 10_000, dataDelaySeconds: 0, maxSportsbooks: null, features: ['ev', 'arbitrage', 'middles', 'gamestate'], batchEvents: 100 },
};

/** Lowest tier that has a feature, for the 403 message. */
export function lowestTierWith(feature: Feature): TierName {
  const order: TierName[] = ['free', 'hobby', 'pro', 'sharp', 'enterprise'];
  return order.find((t) => TIERS[t].features.includes(feature)) ?? 'enterprise';
}

const TIER_RANK: Record<TierName, number> = { free: 0, hobby: 1, pro: 2, sharp: 3, enterprise: 4 };

/**
 * The sportsbooks a tier may see: books open to the tier (by `requiresTier`), cheapest tier's
 * books first and catalog order within a tier, cut at the tier's maximum. Free gets the fixed
 * pair of `free` books; hobby adds the first hobby books; pro reaches the sharp books.
 */
export function allowedBooks(tier: TierName, books: readonly SportsbookDef[]): Set<string> {
  const limit = TIERS[tier].maxSportsbooks;
  const open = books
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => TIER_RANK[b.requiresTier] <= TIER_RANK[tier])
    .sort((x, y) => TIER_RANK[x.b.requiresTier] - TIER_RANK[y.b.requiresTier] || x.i - y.i)
    .map(({ b }) => b.id);
  return new Set(limit === null ? open : open.slice(0, limit));
}
