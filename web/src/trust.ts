import type { Row } from './api.js';

/**
 * Why a bettor should not act on an opportunity as it stands: one of its prices may be gone
 * (`stale`), or it is a phantom the API's default lists leave out (`suspicious`). The warning
 * codes are the API's (docs/opportunities.md); a row with neither doubt is actionable.
 */
export type Doubt = 'stale' | 'suspicious';

const STALE_WARNINGS = new Set(['POTENTIALLY_STALE_ODDS', 'LIVE_STALE_ODDS', 'STALE_AFTER_SHARP_MOVE']);
const PHANTOM_WARNINGS = new Set(['LIVE_HIGH_PROFIT_SUSPICIOUS', 'VERY_STALE_ODDS']);

export const warningsOf = (r: Row): string[] => (Array.isArray(r['warnings']) ? (r['warnings'] as unknown[]).map(String) : []);

export function doubtsOf(r: Row): Doubt[] {
  const warnings = warningsOf(r);
  const doubts: Doubt[] = [];
  if (r['possibly_stale'] === true || warnings.some((w) => STALE_WARNINGS.has(w))) doubts.push('stale');
  if (warnings.some((w) => PHANTOM_WARNINGS.has(w))) doubts.push('suspicious');
  return doubts;
}

export const isActionable = (r: Row): boolean => doubtsOf(r).length === 0;
