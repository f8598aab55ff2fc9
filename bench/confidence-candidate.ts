import { plausibilityPoints } from '../pipeline/opportunities/index.js';

/**
 * A second definition of confidence, written from first principles after the first one
 * (`confidence_score`, pipeline/opportunities/confidence.ts) was graded and did not separate, and
 * fixed here before it is graded once (bench/confidence-calibration.ts). Not served: it is a
 * question put to the recordings. Pure.
 *
 * The first score rewards things that are nearly constant on real data (one sharp reference,
 * narrow two-way widths) or that measure the snapshot spacing (freshness). What decides whether a
 * +EV price beats the close is whether the edge is the book being behind the market, or the
 * reference being behind the book. So this one asks:
 *
 * - **Who moved last** (0-40). If the reference changed its price after the book last changed
 *   this one, the book has not followed a move the reference made: the close, which the
 *   reference sets, is likely to stay away from the book's price (40). If the book changed after
 *   the reference, the book may have moved on news the reference has not priced yet, and the
 *   "edge" is the reference's delay (0). Unknown or simultaneous: 20.
 * - **Alone or in company** (0-30). If the other books (neither this one nor a reference) offer
 *   the selection at about this price too, the market disagrees with the reference rather than
 *   with this book, and the reference is the likelier one to move. Points for the share of other
 *   books not offering at least this book's price less one point of implied probability:
 *   30 × (1 − that share); no other book: 15.
 * - **How sharp the reference is** (0-20): its own hold, 2 % or less 20, 8 % or more 0, linear.
 *   A wide reference market says little about the fair price.
 * - **Plausibility** (0-10): the served score's part (EV ≤ 5 % 10, ≥ 25 % 0): huge edges are
 *   errors more often than gifts.
 */

export interface CandidateInputs {
  evPercent: number;
  /** The book's decimal price of the selection. */
  priceDecimal: number;
  /** When the book last changed this price (`odds_changed_at`), epoch ms. */
  bookChangedAt: number;
  /** When the reference last changed any of the prices it was de-vigged from, epoch ms; null if unknown. */
  referenceChangedAt: number | null;
  /** Decimal prices of the same selection and line at the other books (not this book, not a reference). */
  otherPrices: readonly number[];
  /** The reference market's hold, percent. */
  referenceHoldPercent: number;
}

/** How much worse than this book's price (implied probability) another book's may be and still keep it company. */
const COMPANY_TOLERANCE = 0.01;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

export function whoMovedLastPoints(bookChangedAt: number, referenceChangedAt: number | null): number {
  if (referenceChangedAt === null || referenceChangedAt === bookChangedAt) return 20;
  return referenceChangedAt > bookChangedAt ? 40 : 0;
}

export function alonePoints(priceDecimal: number, otherPrices: readonly number[]): number {
  if (otherPrices.length === 0) return 15;
  const mine = 1 / priceDecimal;
  const company = otherPrices.filter((d) => 1 / d <= mine + COMPANY_TOLERANCE).length;
  return 30 * (1 - company / otherPrices.length);
}

export function referenceSharpnessPoints(referenceHoldPercent: number): number {
  return 20 * clamp01((8 - referenceHoldPercent) / 6);
}

/** 0-100, a whole number: the sum of the four parts. */
export function candidateConfidence(i: CandidateInputs): number {
  return Math.round(
    whoMovedLastPoints(i.bookChangedAt, i.referenceChangedAt) +
      alonePoints(i.priceDecimal, i.otherPrices) +
      referenceSharpnessPoints(i.referenceHoldPercent) +
      plausibilityPoints(i.evPercent),
  );
}
