/**
 * The search at the lowest commission rate in use: the rate is an input of the processor, and a
 * combination that holds only below an exchange's own rate is found, marked with that rate,
 * beside everything the board's rates find, which stays exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, ExchangeQuote, OddsTick, Opportunity } from '../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../odds-math/index.js';
import { opportunityAtCommission } from './account-rate.js';
import { Harness, T0, event, ml, only, tick } from './fixtures/builders.js';
import type { OpportunityOptions } from './config.js';

const EXCHANGE = 'betfair_ex_eu';
const T1 = T0 + 1000;

function exchangeTick(selection: 'home' | 'away', quote: Omit<ExchangeQuote, 'commission' | 'volume'>): OddsTick {
  const price = decimalToAmerican(netBackDecimal(quote.back ?? 0, 5));
  return tick(EXCHANGE, 'moneyline', selection, null, price, { exchange: { ...quote, volume: 1000, commission: 5 } });
}

/**
 * Caesars' home at +138 (2.38) against the exchange (base rate 5 %) laying home at 2.32 with 40
 * waiting. The lay pays 1 + 0.95/1.32 = 1.7197 (-139) at 5 %: 1/2.38 + 1/1.7194 = 1.0018, no
 * arbitrage. At 2 % it pays 1.7424 (-135, 1.7407): 0.4202 + 0.5745 = 0.9946, 0.5393 % profit.
 */
function market(): OddsTick[] {
  return [
    exchangeTick('home', { back: 2.3, backSize: 100, lay: 2.32, laySize: 40 }),
    exchangeTick('away', { back: 1.7, backSize: 30, lay: 1.72, laySize: 100 }),
    ...ml('caesars', 138, -300),
  ];
}

function run(options: OpportunityOptions = {}): Harness {
  const h = new Harness(options);
  h.event(event());
  h.ticks(market());
  return h;
}

const combinations = (list: readonly Opportunity[]): Opportunity[] => list.filter((o) => o.kind !== 'ev');
const arbitrageOf = (h: Harness): ArbitrageOpportunity => only(h.active('arbitrage')) as ArbitrageOpportunity;

describe('the engines with a search rate as input', () => {
  it('find an arbitrage that holds only at the lower rate, its exchange leg priced at it and the record marked with it', () => {
    expect(run().active('arbitrage')).toEqual([]);
    const found = arbitrageOf(run({ searchCommission: 2 }));
    expect(found.legs.map((l) => [l.book, l.side, l.priceAmerican, l.priceDecimal, l.commission, l.stakeShare])).toEqual([
      ['caesars', 'back', 138, 2.38, undefined, 0.422434],
      [EXCHANGE, 'lay', -135, 1.7407, 2, 0.577566],
    ]);
    expect([found.profitPercent, found.impliedSum, found.maxStake, found.foundAtCommission]).toEqual([0.5393, 0.99463615, 91.41, 2]);
  });

  it('leave everything the board’s rates find as the board found it', () => {
    const board = run().active();
    const searched = run({ searchCommission: 2 }).active();
    expect(searched.filter((o) => o.kind === 'ev' || o.foundAtCommission === undefined)).toEqual(board);
    // The low-hold market (Caesars' home, the exchange's away back) is the board's record, unmarked.
    expect(combinations(board).map((o) => [o.kind, o.value, 'foundAtCommission' in o])).toEqual([['low_hold', 1.9769, false]]);
  });

  it('find nothing more at a rate at or above the exchange’s own', () => {
    expect(run({ searchCommission: 5 }).active()).toEqual(run().active());
    expect(run({ searchCommission: 7 }).active()).toEqual(run().active());
  });
});

describe('a change of the search rate', () => {
  it('re-prices the state at once: a lower rate creates what it finds, a return to the board’s rate expires it', () => {
    const h = run();
    const down = h.processor.setSearchCommission(2, T1);
    expect(down.map((c) => [c.type, c.opportunity.kind, c.opportunity.value])).toEqual([['create', 'arbitrage', 0.5393]]);
    expect(h.processor.setSearchCommission(2, T1)).toEqual([]);
    const up = h.processor.setSearchCommission(5, T1);
    expect(up.map((c) => [c.type, c.opportunity.kind, c.opportunity.expireReason])).toEqual([['expire', 'arbitrage', 'condition']]);
    expect(h.processor.active()).toEqual(run().active());
  });

  it('ends a combination and starts it again when it moves between the board’s rates and the search rate only', () => {
    // Caesars' home at +150 (2.5) makes the lay of home an arbitrage at 5 % too; at +138 it holds at 2 % only.
    const h = new Harness({ searchCommission: 2 });
    h.event(event());
    h.ticks([...market().slice(0, 2), ...ml('caesars', 150, -300)]);
    const lays = (o: Opportunity): boolean => o.kind === 'arbitrage' && o.legs.some((l) => l.side === 'lay');
    expect((only(h.active().filter(lays)) as ArbitrageOpportunity).foundAtCommission).toBeUndefined();
    const moved = h.ticks(ml('caesars', 138, -300), T1).filter((c) => lays(c.opportunity)) as {
      type: string;
      opportunity: ArbitrageOpportunity;
    }[];
    expect(moved.map((c) => [c.type, c.opportunity.foundAtCommission, c.opportunity.expireReason])).toEqual([
      ['expire', undefined, 'condition'],
      ['create', 2, null],
    ]);
    expect(moved[0]?.opportunity.id).toBe(moved[1]?.opportunity.id);
  });

  it('is deterministic: a processor started at the rate and one moved to it hold the same combinations', () => {
    const moved = run();
    moved.processor.setSearchCommission(2, T0);
    expect(moved.processor.active()).toEqual(run({ searchCommission: 2 }).active());
  });
});

describe('a combination found at the search rate, checked at a caller’s rate', () => {
  it('holds at 3 % (the lay pays -136), not at the 5 % base rate, and is itself at 2 %', () => {
    const found = arbitrageOf(run({ searchCommission: 2 }));
    expect(opportunityAtCommission(found, 2)).toBe(found);
    expect(opportunityAtCommission(found, 5)).toBeNull();
    const atThree = opportunityAtCommission(found, 3) as ArbitrageOpportunity;
    expect([atThree.legs[1]?.priceAmerican, atThree.legs[1]?.commission, atThree.profitPercent]).toEqual([-136, 3, 0.3573]);
  });
});
