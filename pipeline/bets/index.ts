/** The bet ledger's arithmetic: a logged bet against its close and its result, pure functions of their inputs. */
export { closeOfBet } from './closing-fair.js';
export type { BetClose, BetOutcome, ClosingRecipe } from './closing-fair.js';
export { closingValue, expectedProfit } from './closing-value.js';
export type { ClosingValue } from './closing-value.js';
export { gradeBet, placedInPlay } from './grade.js';
export type { BetGrade, BetStatus } from './grade.js';
export { betProfit, settleOnScore } from './settlement.js';
export type { FinalScore, SettledSelection } from './settlement.js';
