import type { MarketId, SelectionType } from './markets.js';

/**
 * Closing lines and closing-line value. When an event starts, every book's last pre-match price
 * per market and line is its close; the sharp references' closes, de-vigged, give the closing
 * fair probability each +EV opportunity detected before the start is graded against.
 */

/** De-vig methods a close carries the references' fair probability for (one column each in `closing_odds`). */
export const CLOSING_DEVIG_METHODS = ['power', 'multiplicative', 'additive', 'shin'] as const;
export type ClosingDevigMethod = (typeof CLOSING_DEVIG_METHODS)[number];

/** One book's last pre-match price on one selection at one line (table `closing_odds`). */
export interface ClosingLine {
  rowKey: string;
  eventId: string;
  sport: string;
  league: string;
  homeTeamId: string;
  awayTeamId: string;
  eventStartTime: number;
  book: string;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  selection: SelectionType;
  /** The line from the selection's own perspective, as quoted. */
  line: number | null;
  priceAmerican: number;
  priceDecimal: number;
  impliedProbability: number;
  /** Power de-vig of this book's own closing market; null when the book closed only one side. */
  bookNoVigProbability: number | null;
  /** Fair probability from the sharp references' closes, by de-vig method (null: no reference closed this line). */
  noVig: Record<ClosingDevigMethod, number | null>;
  /** Reference books averaged into `noVig`, best first. */
  referenceBooks: string[];
  /** When the book last set or confirmed the price. */
  oddsTs: number;
  capturedAt: number;
}

export const GRADE_RESULTS = ['win', 'loss', 'push'] as const;
export type GradeResult = (typeof GRADE_RESULTS)[number];

/** A +EV opportunity detected before the start, against the close (table `clv_grades`). */
export interface ClvGrade {
  opportunityId: string;
  eventId: string;
  sport: string;
  league: string;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  book: string;
  selection: SelectionType;
  line: number | null;
  eventStartTime: number;
  detectedAt: number;
  /** The price when the opportunity was first detected (the bet a user would have placed). */
  priceAmerican: number;
  priceDecimal: number;
  /** EV % and fair probability (power de-vig) at detection, and the reference it used. */
  evPercent: number;
  fairProbability: number;
  sharpBook: string;
  /** The reference whose close graded it (best-ranked reference that closed the line); null when none did. */
  closingDevigBook: string | null;
  closingNoVigProbability: number | null;
  /** The same book's closing price on the same selection and line, when it had one. */
  closingPriceAmerican: number | null;
  /** (closing no-vig probability x entry decimal - 1) x 100; null without a closing reference. */
  clvPercent: number | null;
  /** Settled from the final score where the market allows (full-game moneyline, spread, total); null otherwise. */
  result: GradeResult | null;
  gradedAt: number;
}
