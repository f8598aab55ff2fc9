import { clvPercent } from '../odds-math/index.js';

/**
 * A bet's closing-line value in two forms. Against the raw closing price (what the same book
 * closed at, margin included): how much better the price taken was than the close. Against the
 * closing fair probability (the sharp close with the margin removed): the expected return of the
 * bet had the close been the truth. Each as a percentage of the stake and as a probability edge.
 */
export interface ClosingValue {
  /** (d_taken / d_close - 1) x 100; null without a closing price. */
  priceClvPercent: number | null;
  /** 1/d_close - 1/d_taken: implied probability the market moved towards the bet. */
  priceProbabilityEdge: number | null;
  /** (p_fair x d_taken - 1) x 100; null without a closing fair probability. */
  noVigClvPercent: number | null;
  /** p_fair - 1/d_taken. */
  noVigProbabilityEdge: number | null;
}

export function closingValue(takenDecimal: number, closingDecimal: number | null, closingFairProbability: number | null): ClosingValue {
  const taken = 1 / takenDecimal;
  return {
    priceClvPercent: closingDecimal === null ? null : (takenDecimal / closingDecimal - 1) * 100,
    priceProbabilityEdge: closingDecimal === null ? null : 1 / closingDecimal - taken,
    noVigClvPercent: closingFairProbability === null ? null : clvPercent(closingFairProbability, takenDecimal),
    noVigProbabilityEdge: closingFairProbability === null ? null : closingFairProbability - taken,
  };
}

/** What the close says the bet was worth: stake x no-vig CLV % / 100 (0 without a fair close). */
export function expectedProfit(stake: number, noVigClvPercent: number | null): number {
  return noVigClvPercent === null ? 0 : (stake * noVigClvPercent) / 100;
}
