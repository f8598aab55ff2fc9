export { Bets, startBets } from './bets.js';
export type { BetsReplica, NewBet } from './bets.js';
export { BetLedger } from './ledger.js';
export { betRow } from './rows.js';
