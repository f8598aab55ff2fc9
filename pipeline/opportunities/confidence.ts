import type { ConfidenceInputs, OpportunityWarning } from '../../schemas/index.js';
import { LIVE_STALE_AFTER_SECONDS, STALE_AFTER_SECONDS } from './config.js';

/**
 * Staleness and the confidence score, pure functions of their inputs so that the API can
 * recompute them with the age at the time of a request (docs/opportunities.md has the formula).
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

/** Points for the references: the fallback book alone 10, one sharp 20, two 26, three or more 30. */
export function sharpPoints(sharpCount: number): number {
  if (sharpCount <= 0) return 10;
  if (sharpCount === 1) return 20;
  if (sharpCount === 2) return 26;
  return 30;
}

/**
 * Points for how sharp the reference market is (0-25): a two-way market by its width (10 cents or
 * less: 25, 40 cents or more: 0), other markets by the reference's hold (2 % or less: 25, 8 % or
 * more: 0), linear in between.
 */
export function marketPoints(marketWidth: number | null, referenceHoldPercent: number): number {
  if (marketWidth !== null) return 25 * clamp01((40 - marketWidth) / 30);
  return 25 * clamp01((8 - referenceHoldPercent) / 6);
}

/**
 * Points for freshness (0-25), from the price that goes stale first: 25 when just confirmed,
 * half at its book's threshold, 0 at twice it.
 */
export function freshnessPoints(now: number, clock: StaleClock): number {
  if (!(clock.limitSeconds > 0)) return 25;
  const ageSeconds = (now - clock.freshUntil) / 1000 + clock.limitSeconds;
  return 25 * clamp01(1 - ageSeconds / (2 * clock.limitSeconds));
}

/** Points for breadth (0-10): one per book pricing the selection, up to 10. */
export function bookPoints(bookCount: number): number {
  return Math.min(10, Math.max(0, bookCount));
}

/** Points for plausibility (0-10): an edge of 5 % or less 10, 25 % or more 0 (errors, stale lines). */
export function plausibilityPoints(evPercent: number): number {
  return 10 * clamp01((25 - evPercent) / 20);
}

/** 0-100, a whole number: the sum of the five parts above. */
export function confidenceScore(inputs: ConfidenceInputs, evPercent: number, now: number, clock: StaleClock): number {
  const total =
    sharpPoints(inputs.sharpCount) +
    marketPoints(inputs.marketWidth, inputs.referenceHoldPercent) +
    freshnessPoints(now, clock) +
    bookPoints(inputs.bookCount) +
    plausibilityPoints(evPercent);
  return Math.round(total);
}
