import type { BetResult, MarketId, SelectionType } from '../../schemas/index.js';

/** The final score a bet is settled on (home and away as the canonical event names them). */
export interface FinalScore {
  home: number;
  away: number;
}

/** What settlement needs of a bet: the outcome it backed. */
export interface SettledSelection {
  market: MarketId;
  selection: SelectionType;
  line: number | null;
}

/** One of the two halves of a quarter line, or a whole line: +1 won, -1 lost, 0 pushed. */
type Leg = 1 | -1 | 0;

const sign = (x: number): Leg => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * A quarter line (x.25, x.75) is two bets of half the stake, on the lines a quarter either side
 * (-0.75 = half on -0.5, half on -1); any other line is one bet.
 */
function linesOf(line: number): number[] {
  const quarter = Math.abs((line * 4) % 2) === 1;
  return quarter ? [line - 0.25, line + 0.25] : [line];
}

/** Both halves' legs combined into one result. */
function combine(legs: readonly Leg[]): BetResult {
  const [a, b] = legs;
  if (b === undefined || a === b) return a === 1 ? 'win' : a === -1 ? 'loss' : 'push';
  // Mixed halves: one pushed (a quarter line never has one half win and the other lose).
  return a === 1 || b === 1 ? 'half_win' : 'half_loss';
}

/**
 * Settles a full-game bet on the final score: win, loss, push, or half_win / half_loss on a
 * quarter line. A two-way moneyline pushes on a tie; on a three-way one (`threeWay`, soccer) the
 * tie is the draw's. Null for markets a final score cannot settle (periods, team totals, props,
 * outrights): those stay open until settled some other way.
 */
export function settleOnScore(bet: SettledSelection, final: FinalScore, threeWay: boolean): BetResult | null {
  const margin = final.home - final.away;
  const total = final.home + final.away;
  const byLine = (base: number, line: number): BetResult => combine(linesOf(line).map((l) => sign(base + l)));
  switch (bet.market) {
    case 'moneyline':
      if (bet.selection === 'draw') return margin === 0 ? 'win' : 'loss';
      if (bet.selection !== 'home' && bet.selection !== 'away') return null;
      if (margin === 0) return threeWay ? 'loss' : 'push';
      return margin > 0 === (bet.selection === 'home') ? 'win' : 'loss';
    case 'point_spread':
      if (bet.line === null) return null;
      if (bet.selection === 'home') return byLine(margin, bet.line);
      if (bet.selection === 'away') return byLine(-margin, bet.line);
      return null;
    case 'total_points':
      if (bet.line === null) return null;
      if (bet.selection === 'over') return byLine(total, -bet.line);
      if (bet.selection === 'under') return byLine(-total, bet.line);
      return null;
    default:
      return null;
  }
}

/**
 * The profit of a settled bet, in the stake's unit (a loss is negative). A dead heat pays the
 * stake times `deadHeatFactor` (the share of the place it tied for, e.g. 1/2 for two tied for
 * one place) at the full price and loses the rest: stake x (factor x d - 1).
 */
export function betProfit(result: BetResult, stake: number, decimalOdds: number, deadHeatFactor = 1): number {
  switch (result) {
    case 'win':
      return stake * (decimalOdds - 1);
    case 'loss':
      return -stake;
    case 'push':
    case 'void':
      return 0;
    case 'half_win':
      return (stake / 2) * (decimalOdds - 1);
    case 'half_loss':
      return -stake / 2;
    case 'dead_heat':
      return stake * (deadHeatFactor * decimalOdds - 1);
  }
}
