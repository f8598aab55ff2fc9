import type { BetRow } from './responses.js';

/** One step of the curve: the running totals after a bet. */
export interface ProfitPoint {
  /** The event's start, epoch ms: when the bet was graded. */
  t: number;
  betId: string;
  /** Sum of the settled bets' profit so far. */
  profit: number;
  /** Sum of stake x no-vig CLV % / 100 (the ledger's expected_profit) so far. */
  expected: number;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Cumulative profit beside cumulative expected profit, over the graded and settled bets in the
 * order their events started (placed time breaks ties). A bet adds its profit once settled and
 * its expected profit once it has a no-vig close; one without either adds nothing to that line.
 * Sums are rounded to 4 places at each step so float noise never shows as a cent.
 */
export function profitCurve(bets: readonly BetRow[]): ProfitPoint[] {
  const counted = bets
    .filter((b) => b.status !== 'pending')
    .sort((a, b) => Date.parse(a.event_start_time) - Date.parse(b.event_start_time) || Date.parse(a.placed_at) - Date.parse(b.placed_at));
  let profit = 0;
  let expected = 0;
  return counted.map((b) => {
    profit = round4(profit + (b.profit ?? 0));
    expected = round4(expected + (b.expected_profit ?? 0));
    return { t: Date.parse(b.event_start_time), betId: b.id, profit, expected };
  });
}
