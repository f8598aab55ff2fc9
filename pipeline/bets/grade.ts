import type { BetRecord, BetResult, ClosingLine, LeagueDef } from '../../schemas/index.js';
import type { EndedGame } from '../closing/index.js';
import { closeOfBet } from './closing-fair.js';
import { closingValue, expectedProfit } from './closing-value.js';
import type { ClosingValue } from './closing-value.js';
import { betProfit, settleOnScore } from './settlement.js';

/** Where a bet stands: waiting for its start (or, placed in play, for its result), graded against the close, settled on the result. */
export type BetStatus = 'pending' | 'graded' | 'settled';

export interface BetGrade extends ClosingValue {
  status: BetStatus;
  closingPriceAmerican: number | null;
  closingFairProbability: number | null;
  fairBooks: string[];
  /** Stake x no-vig CLV %: what the close says the bet was worth (null until graded). */
  expectedProfit: number | null;
  result: BetResult | null;
  profit: number | null;
}

/** Placed at or after its event's start: in play, after the close was taken. */
export const placedInPlay = (bet: Pick<BetRecord, 'placedAt' | 'eventStartTime'>): boolean => bet.placedAt >= bet.eventStartTime;

const UNGRADED: ClosingValue = { priceClvPercent: null, priceProbabilityEdge: null, noVigClvPercent: null, noVigProbabilityEdge: null };

/**
 * A bet graded and settled from what is known of its event: `closes` are the event's closing
 * lines (empty until the event starts and its close is captured), `ended` its last state once
 * final, postponed or cancelled. Postponed and cancelled games void the bet; a final score
 * settles the markets it can (`settleOnScore`), the others stay graded only.
 */
export function gradeBet(bet: BetRecord, closes: readonly ClosingLine[], ended: EndedGame | null, league: LeagueDef | undefined): BetGrade {
  // The close is the last pre-match price: a bet placed in play came after it, so there is no
  // close it could have beaten. It waits for its result instead.
  const graded = closes.length > 0 && !placedInPlay(bet);
  const close = graded
    ? closeOfBet(bet, closes, { method: bet.devigMethod, sharpBook: bet.sharpBook }, league)
    : { closingPriceAmerican: null, closingDecimal: null, fairProbability: null, fairBooks: [] };
  const value = graded ? closingValue(bet.priceDecimal, close.closingDecimal, close.fairProbability) : UNGRADED;
  let result: BetResult | null = null;
  if (ended && ended.status !== 'final') result = 'void';
  else if (ended) result = settleOnScore(bet, { home: ended.homeScore, away: ended.awayScore }, league?.threeWay === true);
  return {
    status: result !== null ? 'settled' : graded ? 'graded' : 'pending',
    closingPriceAmerican: close.closingPriceAmerican,
    closingFairProbability: close.fairProbability,
    fairBooks: close.fairBooks,
    ...value,
    expectedProfit: graded ? expectedProfit(bet.stake, value.noVigClvPercent) : null,
    result,
    profit: result === null ? null : betProfit(result, bet.stake, bet.priceDecimal),
  };
}
