export { DEFAULT_FRESHNESS_POLICY, FreshnessLedger, percentile, phaseOf, sightingOf } from './ledger.js';
export type { BookFreshness, Distribution, FreshnessPolicy, FreshnessReport, Phase, PhaseFreshness, Sighting } from './ledger.js';
