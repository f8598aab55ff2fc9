import type { ConfidenceInputs, OddsRow } from '../../schemas/index.js';

/**
 * The confidence score of a +EV price (0-100), pure, so that the API can recompute it with the
 * de-vig method a caller picks (docs/opportunities.md, "confidence_score").
 *
 * This is the second definition, written from first principles after the first one (references,
 * market width, freshness, breadth, plausibility) was graded on the real recordings and did not
 * separate the prices that beat the close from those that did not. It was fixed before it was
 * graded and is served as it was graded; the parts are not to be tuned to the grades. Its idea: a
 * +EV price beats the close when the edge is the book being behind the market, and does not when
 * it is the reference being behind the book.
 *
 * - **Who moved last** (0-40). If the reference changed its price after the book last changed
 *   this one, the book has not followed a move the reference made: the close, which the
 *   reference sets, is likely to stay away from the book's price (40). If the book changed after
 *   the reference, the book may have moved on news the reference has not priced yet, and the
 *   "edge" is the reference's delay (0). Unknown or simultaneous: 20.
 * - **Alone or in company** (0-30). If the other books (neither this one nor a reference) offer
 *   the selection at about this price too, the market disagrees with the reference rather than
 *   with this book, and the reference is the likelier one to move: 30 × the share of other books
 *   not offering at least this book's price less one point of implied probability; no other
 *   book: 15.
 * - **How sharp the reference is** (0-20): its own hold, 2 % or less 20, 8 % or more 0, linear.
 *   A wide reference market says little about the fair price.
 * - **Plausibility** (0-10): EV 5 % or less 10, 25 % or more 0, linear: huge edges are errors
 *   more often than gifts.
 *
 * Freshness is no part of it: it is its own signal (`possibly_stale`, `VERY_STALE_ODDS`,
 * `odds_age_seconds`), and as a part of the first score it measured the recordings' snapshot
 * spacing rather than anything that predicted the close.
 */

/** How much worse than this book's price (implied probability) another book's may be and still keep it company. */
export const COMPANY_TOLERANCE = 0.01;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** 40 when the reference changed after the book, 0 when the book changed after it, 20 when simultaneous or unknown. */
export function whoMovedLastPoints(bookChangedAt: number | null, referenceChangedAt: number | null): number {
  if (bookChangedAt === null || referenceChangedAt === null || referenceChangedAt === bookChangedAt) return 20;
  return referenceChangedAt > bookChangedAt ? 40 : 0;
}

/** Whether another book's price (decimal) is at least this one's (decimal) less one point of implied probability. */
export function keepsCompany(priceDecimal: number, otherDecimal: number): boolean {
  return 1 / otherDecimal <= 1 / priceDecimal + COMPANY_TOLERANCE;
}

/** 30 × the share of the other books not keeping the price company; 15 when there is no other book. */
export function alonePoints(otherBooks: number, inCompany: number): number {
  if (otherBooks === 0) return 15;
  return 30 * (1 - inCompany / otherBooks);
}

/** The reference's own hold: 2 % or less 20, 8 % or more 0, linear. */
export function referenceSharpnessPoints(referenceHoldPercent: number): number {
  return 20 * clamp01((8 - referenceHoldPercent) / 6);
}

/** An edge of 5 % or less 10, 25 % or more 0 (errors, stale lines), linear. */
export function plausibilityPoints(evPercent: number): number {
  return 10 * clamp01((25 - evPercent) / 20);
}

/** 0-100, a whole number: the sum of the four parts, with the chosen method's EV. */
export function confidenceScore(inputs: ConfidenceInputs, evPercent: number): number {
  return Math.round(
    whoMovedLastPoints(inputs.bookChangedAt, inputs.referenceChangedAt) +
      alonePoints(inputs.otherBooks, inputs.otherBooksInCompany) +
      referenceSharpnessPoints(inputs.referenceHoldPercent) +
      plausibilityPoints(evPercent),
  );
}

/** The latest change among the reference prices; null when there is none. */
export function latestChange(rows: readonly OddsRow[]): number | null {
  let latest: number | null = null;
  for (const r of rows) if (latest === null || r.oddsChangedAt > latest) latest = r.oddsChangedAt;
  return latest;
}
