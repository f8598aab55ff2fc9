export { FuturesNormalizer } from './normalize.js';
export type { FuturesNormalizeResult, FuturesUnmatchedReason } from './normalize.js';
export { futuresFairLine, futuresOpportunityId, outcomeKey } from './fair.js';
export type { FuturesFairLine, FuturesFairOptions } from './fair.js';
export { FuturesProcessor } from './processor.js';
export type { FutureEvVersion, FutureLatestChange, FuturesStep } from './processor.js';
export { futuresEvRow, futuresLatestRow, futuresTickRows } from './rows.js';
