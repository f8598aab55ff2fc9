import type {
  ArbitrageOpportunity,
  DevigMethodName,
  EvMethodValues,
  EvOpportunity,
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
  evPercent,
  hold,
  kellyPercent,
  layAsBackDecimal,
  netBackDecimal,
  roundedDecimalOdds,
  roundedImpliedProbability,
  spreadMiddle,
  totalsMiddle,
} from '../odds-math/index.js';
import { capacityOf } from './capacity.js';
import { confidenceScore } from './confidence.js';
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
 * An opportunity checked again at an account's commission rate: its exchange legs priced at
 * that rate, and its figures recomputed from them (+EV: EV and Kelly per de-vig method against
 * the same fair line; arbitrage, middles, low-hold: profit or hold, implied sum, stake shares,
 * `max_stake`, the middle's payoffs). An arbitrage that the rate makes unprofitable (implied sum
 * at or above 1), or a +EV price it leaves at no edge under any method, is gone: null. Middles
 * and low-hold markets are re-priced but kept (neither list requires a sure profit; their
 * callers filter on EV and hold). A record without exchange legs, or with every exchange leg
 * already at the rate, comes back as it is (the same object).
 */
export function opportunityAtCommission(o: Opportunity, commissionPercent: number): Opportunity | null {
  const legs = o.legs.map((l) => legAtCommission(l, commissionPercent));
  if (legs.every((l, i) => l === o.legs[i])) return o;
  const decimals = legs.map((l) => americanToDecimal(l.priceAmerican));
  switch (o.kind) {
    case 'ev':
      return evAt(o, legs[0] as OpportunityLeg, decimals[0] as number);
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

/**
 * A +EV price at another net price: the fair line does not move (an exchange reference's is the
 * midpoint of its quoted back and lay, which no commission changes), so each method's EV and
 * Kelly follow from its fair probability and the new price. The probabilities are the record's,
 * rounded to 6 places, so a figure can differ from a run of the engines at that rate in its
 * last (4th) decimal. The confidence score is recomputed with the new EV; its company count stays
 * the one judged at the board's price (the other books' prices are not on the record).
 */
function evAt(o: EvOpportunity, leg: OpportunityLeg, decimal: number): EvOpportunity | null {
  const methods = {} as Record<DevigMethodName, EvMethodValues>;
  const peakEvPercent = { ...o.peakEvPercent };
  let edge = false;
  for (const m of Object.keys(o.methods) as DevigMethodName[]) {
    const before = o.methods[m];
    const ev = round(evPercent(before.fairProbability, decimal), 4);
    edge ||= m !== 'worst_case' && ev > 0;
    methods[m] = {
      ...before,
      evPercent: ev,
      kellyPercent: round(Math.max(0, kellyPercent(before.fairProbability, decimal)), 4),
      confidenceScore: confidenceScore(o.confidence, ev),
    };
    peakEvPercent[m] = round(o.peakEvPercent[m] + (ev - before.evPercent), 4);
  }
  if (!edge) return null;
  const value = methods.power.evPercent;
  return {
    ...o,
    legs: [leg],
    priceAmerican: leg.priceAmerican,
    priceDecimal: leg.priceDecimal,
    methods,
    value,
    peakValue: peakShifted(o, value),
    peakEvPercent,
  };
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
