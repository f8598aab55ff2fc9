import { settingDefault } from '../../schemas/index.js';
import type { Opportunity } from '../../schemas/index.js';
import { staleClockOfRecord } from './staleness.js';
import type { StaleClock } from './staleness.js';
import type { StaleDerivativeJudge } from './stale-derivatives.js';

/**
 * Phantom opportunities: ones a careful bettor would not trust, whatever their numbers say. They
 * are judged at the time of a request (the clock moves on while a record stays the same), so
 * these flags are never on a record: the API adds them to the row's warnings and leaves the
 * flagged rows out of its default lists (docs/opportunities.md, "Phantom filters").
 */

export const PHANTOM_WARNINGS = ['LIVE_HIGH_PROFIT_SUSPICIOUS', 'VERY_STALE_ODDS'] as const;
export type PhantomWarning = (typeof PHANTOM_WARNINGS)[number];

export interface PhantomPolicy {
  /** A guaranteed profit above this (percent) is too good to be a price a book would honour. */
  maxProfitPercent: number;
  /** How many of its book's stale thresholds old a price may be before the opportunity is dropped. */
  veryStaleFactor: number;
  /**
   * Where the request-time `STALE_AFTER_SHARP_MOVE` warning comes from, when the replica has a
   * board to judge it on. Judged beside the phantom flags, at the same moment, but it only warns:
   * a flagged row stays in the default lists.
   */
  staleDerivatives?: StaleDerivativeJudge;
}

export const DEFAULT_PHANTOM_POLICY: PhantomPolicy = {
  maxProfitPercent: settingDefault('PHANTOM_MAX_PROFIT_PERCENT'),
  veryStaleFactor: settingDefault('VERY_STALE_FACTOR'),
};

/**
 * What the opportunity wins whatever the result, percent, or null when it guarantees nothing:
 * an arbitrage's profit, a negative low hold (the same market is then an arbitrage), a middle's
 * worst case when even a miss wins. A +EV row is an expectation, never guaranteed.
 */
export function guaranteedProfitPercent(o: Opportunity): number | null {
  switch (o.kind) {
    case 'arbitrage':
      return o.profitPercent;
    case 'low_hold':
      return -o.holdPercent;
    case 'middle':
      return o.worstCaseProfitPercent > 0 ? o.worstCaseProfitPercent : null;
    case 'ev':
      return null;
  }
}

/**
 * The phantom flags of an opportunity at `now`. The age limit is measured on the record's stale
 * clock (the price that goes stale first, against its book's threshold): flagged once that price
 * has gone unconfirmed longer than `veryStaleFactor` thresholds.
 */
export function phantomWarnings(o: Opportunity, now: number, policy: PhantomPolicy): PhantomWarning[] {
  const warnings: PhantomWarning[] = [];
  const profit = guaranteedProfitPercent(o);
  if (profit !== null && profit > policy.maxProfitPercent) warnings.push('LIVE_HIGH_PROFIT_SUSPICIOUS');
  if (now > veryStaleAt(staleClockOfRecord(o), policy.veryStaleFactor)) warnings.push('VERY_STALE_ODDS');
  return warnings;
}

/** When a price on `clock` has gone unconfirmed for `factor` of its book's thresholds: past it, `VERY_STALE_ODDS`. */
export function veryStaleAt(clock: StaleClock, factor: number): number {
  return clock.freshUntil + (factor - 1) * clock.limitSeconds * 1000;
}

export function isPhantom(o: Opportunity, now: number, policy: PhantomPolicy): boolean {
  return phantomWarnings(o, now, policy).length > 0;
}
