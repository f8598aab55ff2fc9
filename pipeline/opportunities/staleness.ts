import type { OpportunityWarning } from '../../schemas/index.js';
import { LIVE_STALE_AFTER_SECONDS, STALE_AFTER_SECONDS } from './config.js';

/**
 * Staleness, pure functions of their inputs so that the API can recompute it with the age at the
 * time of a request (docs/opportunities.md, "Staleness").
 *
 * A price is stale once it has gone unconfirmed longer than its book normally takes (the
 * book's threshold, from the freshness ledger); an opportunity, once the first of its prices is.
 */

/** When an opportunity goes stale, and the threshold of the price that decides it. */
export interface StaleClock {
  /** Epoch ms after which the first of its prices is past its book's threshold. */
  freshUntil: number;
  /** That price's threshold, seconds. */
  limitSeconds: number;
}

/** The fixed thresholds: what records written before per-book thresholds get. */
export interface StaleThresholds {
  staleAfterSeconds: number;
  liveStaleAfterSeconds: number;
}

export const DEFAULT_STALE_THRESHOLDS: StaleThresholds = {
  staleAfterSeconds: STALE_AFTER_SECONDS,
  liveStaleAfterSeconds: LIVE_STALE_AFTER_SECONDS,
};

/** The price that goes stale first, each against its own book's threshold. */
export function staleClockOf(prices: readonly { ts: number; book: string }[], limitSeconds: (book: string) => number): StaleClock {
  let clock: StaleClock = { freshUntil: Number.POSITIVE_INFINITY, limitSeconds: 0 };
  for (const p of prices) {
    const limit = limitSeconds(p.book);
    const until = p.ts + limit * 1000;
    if (until < clock.freshUntil) clock = { freshUntil: until, limitSeconds: limit };
  }
  return clock;
}

/** The clock of a record; one written before it carried its own is read with the fixed thresholds. */
export function staleClockOfRecord(
  o: { oldestOddsTs: number; freshUntil: number | null; staleAfterSeconds: number | null; event: { isLive: boolean } },
  t: StaleThresholds = DEFAULT_STALE_THRESHOLDS,
): StaleClock {
  if (o.freshUntil !== null && o.staleAfterSeconds !== null) return { freshUntil: o.freshUntil, limitSeconds: o.staleAfterSeconds };
  const limit = o.event.isLive ? t.liveStaleAfterSeconds : t.staleAfterSeconds;
  return { freshUntil: o.oldestOddsTs + limit * 1000, limitSeconds: limit };
}

export interface Staleness {
  ageSeconds: number;
  possiblyStale: boolean;
  /** POTENTIALLY_STALE_ODDS (prematch) or LIVE_STALE_ODDS (live), or nothing. */
  warning: OpportunityWarning | null;
}

export function oddsAgeSeconds(oldestTs: number, now: number): number {
  return Math.round(Math.max(0, now - oldestTs)) / 1000;
}

/** The age of the oldest price (what clients are shown) and whether the clock has run out. */
export function staleness(oldestTs: number, now: number, isLive: boolean, clock: StaleClock): Staleness {
  const ageSeconds = oddsAgeSeconds(oldestTs, now);
  const possiblyStale = now > clock.freshUntil;
  return { ageSeconds, possiblyStale, warning: possiblyStale ? (isLive ? 'LIVE_STALE_ODDS' : 'POTENTIALLY_STALE_ODDS') : null };
}

/** Warnings of an EV row: staleness first, then the reference quality. */
export function evWarnings(stale: Staleness, sharpCount: number): OpportunityWarning[] {
  const warnings: OpportunityWarning[] = [];
  if (stale.warning) warnings.push(stale.warning);
  if (sharpCount <= 1) warnings.push('SINGLE_SHARP_REF');
  if (sharpCount === 0) warnings.push('FALLBACK_SHARP_REF');
  return warnings;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * How fresh the price that goes stale first is, 0-1: 1 just confirmed, 0.5 at its book's
 * threshold, 0 at twice it (a low-hold row's `confidence`).
 */
export function freshnessShare(now: number, clock: StaleClock): number {
  if (!(clock.limitSeconds > 0)) return 1;
  const ageSeconds = (now - clock.freshUntil) / 1000 + clock.limitSeconds;
  return clamp01(1 - ageSeconds / (2 * clock.limitSeconds));
}
