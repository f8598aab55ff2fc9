export { OpportunityProcessor } from './processor.js';
export type { OpportunityCounters, OpportunityInput } from './processor.js';
export { defaultReferenceBooks, middleSigma, resolveOptions, LIVE_STALE_AFTER_SECONDS, STALE_AFTER_SECONDS } from './config.js';
export type { OpportunityOptions, ResolvedOptions } from './config.js';
export {
  DEFAULT_STALE_THRESHOLDS,
  evWarnings,
  freshnessShare,
  oddsAgeSeconds,
  staleClockOf,
  staleClockOfRecord,
  staleness,
} from './staleness.js';
export type { StaleClock, StaleThresholds, Staleness } from './staleness.js';
export {
  COMPANY_TOLERANCE,
  alonePoints,
  confidenceScore,
  keepsCompany,
  plausibilityPoints,
  referenceSharpnessPoints,
  whoMovedLastPoints,
} from './confidence.js';
export { opportunityAtCommission, rowAtCommission } from './account-rate.js';
export { opportunityId } from './ids.js';
export { carry, fingerprint } from './lifecycle.js';
export { opportunityRecords } from './records.js';
export { canonicalLine, familyKey, lineKey, outcomesOf, round } from './state.js';
export { DEFAULT_PHANTOM_POLICY, PHANTOM_WARNINGS, guaranteedProfitPercent, isPhantom, phantomWarnings } from './phantom.js';
export type { PhantomPolicy, PhantomWarning } from './phantom.js';
export { DEFAULT_STALE_DERIVATIVE_POLICY, STALE_AFTER_SHARP_MOVE, expectedDirection, staleDerivatives } from './stale-derivatives.js';
export type {
  DerivativeRow,
  ExpectedDirection,
  SharpMove,
  StaleDerivative,
  StaleDerivativeFlag,
  StaleDerivativeJudge,
  StaleDerivativePolicy,
} from './stale-derivatives.js';
