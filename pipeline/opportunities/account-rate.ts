import type {
  ArbitrageOpportunity,
  LowHoldOpportunity,
  MiddleOpportunity,
  OddsRow,
  Opportunity,
  OpportunityLeg,
} from '../../schemas/index.js';
import {
  americanToDecimal,
  arbitrage,
  decimalToAmerican,
  hold,
  layAsBackDecimal,
  netBackDecimal,
  roundedDecimalOdds,
  roundedImpliedProbability,
  spreadMiddle,
  totalsMiddle,
} from '../odds-math/index.js';
import { capacityOf } from './capacity.js';
import { round } from './state.js';

/**
 * Exchange prices at one account's commission rate. The board and the engines price an exchange
 * at one rate for everybody; an account that pays another rate (a discount, a premium charge)
 * is paid a different net price, so what it is shown is priced again at request time from the
 * exchange's quoted prices, which rows and legs carry beside their net price.
 */

/** The price a back at `back` (or, laying, a lay at `back`) is worth net of `commissionPercent`, rounded as the feed rounds it. */
function netAmerican(quoted: number, commissionPercent: number, side: 'back' | 'lay'): number {
  return decimalToAmerican(side === 'lay' ? layAsBackDecimal(quoted, commissionPercent) : netBackDecimal(quoted, commissionPercent));
}

/**
 * An exchange row priced at `commissionPercent`: `odds_*` become its back net of that rate and
 * `commission` says the rate. Sportsbook rows, rows without a back price and rows already at
 * that rate are returned as they are (the same object).
 */
export function rowAtCommission(row: OddsRow, commissionPercent: number): OddsRow {
  const x = row.exchange;
  if (x == null || x.commission === commissionPercent || x.back === null || !(x.back > 1) || row.priceAmerican === null) return row;
  const american = netAmerican(x.back, commissionPercent, 'back');
  return {
    ...row,
    priceAmerican: american,
    priceDecimal: roundedDecimalOdds(american),
    probability: roundedImpliedProbability(american),
    exchange: { ...x, commission: commissionPercent },
  };
}

/** A leg priced at `commissionPercent`, or the same leg when it is no exchange leg or already at that rate. */
function legAtCommission(leg: OpportunityLeg, commissionPercent: number): OpportunityLeg {
  if (leg.commission === undefined || leg.commission === commissionPercent) return leg;
  const side = leg.side === 'lay' ? 'lay' : 'back';
  const quoted = side === 'lay' ? leg.layPrice : leg.backPrice;
  if (quoted === undefined || !(quoted > 1)) return leg;
  const american = netAmerican(quoted, commissionPercent, side);
  return { ...leg, priceAmerican: american, priceDecimal: roundedDecimalOdds(american), commission: commissionPercent };
}

/**
 * An arbitrage, middle or low-hold combination checked again at an account's commission rate:
 * its exchange legs priced at that rate, and its figures (profit or hold, implied sum, stake
 * shares, `max_stake`, the middle's payoffs) recomputed from them. An arbitrage that the rate
 * makes unprofitable (implied sum at or above 1) is gone: null. Middles and low-hold markets
 * are re-priced but kept (neither list requires a sure profit; their callers filter on EV and
 * hold). A combination without exchange legs, or with every exchange leg already at the rate,
 * and +EV records, come back as they are (the same object).
 */
export function opportunityAtCommission(o: Opportunity, commissionPercent: number): Opportunity | null {
  if (o.kind === 'ev') return o;
  const legs = o.legs.map((l) => legAtCommission(l, commissionPercent));
  if (legs.every((l, i) => l === o.legs[i])) return o;
  const decimals = legs.map((l) => americanToDecimal(l.priceAmerican));
  switch (o.kind) {
    case 'arbitrage':
      return arbitrageAt(o, legs, decimals);
    case 'low_hold':
      return lowHoldAt(o, legs, decimals);
    case 'middle':
      return middleAt(o, legs, decimals);
  }
}

function withShares(legs: readonly OpportunityLeg[], shares: readonly number[]): OpportunityLeg[] {
  return legs.map((l, i) => ({ ...l, stakeShare: round(shares[i] ?? 0, 6) }));
}

/** The peak moves with the value: the record's history was seen at the board's rate, not the account's. */
function peakShifted(o: Opportunity, value: number): number {
  return round(o.peakValue + (value - o.value), 4);
}

/** The record without its `maxStake`, which the new stake shares decide again. */
function withoutCapacity<T extends { maxStake?: number }>(o: T): Omit<T, 'maxStake'> {
  const { maxStake: _maxStake, ...rest } = o;
  return rest;
}

function arbitrageAt(o: ArbitrageOpportunity, legs: OpportunityLeg[], decimals: number[]): ArbitrageOpportunity | null {
  const result = arbitrage(decimals, 1);
  if (!(result.impliedSum < 1)) return null;
  const profit = round(result.profitPercent, 4);
  return {
    ...withoutCapacity(o),
    legs: withShares(legs, result.stakes),
    profitPercent: profit,
    impliedSum: round(result.impliedSum, 8),
    value: profit,
    peakValue: peakShifted(o, profit),
    ...capacityOf(
      legs.map((l) => l.maxLegStake),
      result.stakes,
    ),
  };
}

function lowHoldAt(o: LowHoldOpportunity, legs: OpportunityLeg[], decimals: number[]): LowHoldOpportunity {
  const { stakes, impliedSum } = arbitrage(decimals, 1);
  const holdPercent = round(hold(decimals) * 100, 4);
  return {
    ...withoutCapacity(o),
    legs: withShares(legs, stakes),
    holdPercent,
    impliedSum: round(impliedSum, 8),
    value: holdPercent,
    peakValue: peakShifted(o, holdPercent),
    ...capacityOf(
      legs.map((l) => l.maxLegStake),
      stakes,
    ),
  };
}

function middleAt(o: MiddleOpportunity, legs: OpportunityLeg[], decimals: number[]): MiddleOpportunity {
  const [first, second] = legs as [OpportunityLeg, OpportunityLeg];
  const a = { line: first.line ?? 0, decimalOdds: decimals[0] as number };
  const b = { line: second.line ?? 0, decimalOdds: decimals[1] as number };
  const model = { sigma: o.model.sigma, mean: o.model.mean, bankroll: 1 };
  const result = o.family === 'total' ? totalsMiddle(a, b, model) : spreadMiddle(a, b, model);
  const ev = round(result.evPercent, 4);
  return {
    ...withoutCapacity(o),
    legs: withShares(legs, result.stakes),
    hitProbability: round(result.hitProbability, 6),
    evPercent: ev,
    missProfitPercent: round(result.missProfitPercent, 4),
    maxProfitPercent: round(result.maxProfitPercent, 4),
    worstCaseProfitPercent: round(result.worstCaseProfitPercent, 4),
    value: ev,
    peakValue: peakShifted(o, ev),
    ...capacityOf(
      legs.map((l) => l.maxLegStake),
      result.stakes,
    ),
  };
}
