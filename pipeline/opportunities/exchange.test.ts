/**
 * Exchange prices in the engines: a leg on an exchange is priced net of commission and carries
 * only the money waiting at its price; an exchange's back/lay midpoint can be the +EV reference.
 */
import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, EvOpportunity, ExchangeQuote, OddsTick } from '../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../odds-math/index.js';
import { Harness, event, ml, only, tick } from './fixtures/builders.js';

const EXCHANGE = 'betfair_ex_eu';

/** An exchange's tick as the Betfair mapping makes it: priced at the back net of commission. */
function exchangeTick(selection: 'home' | 'away', quote: Omit<ExchangeQuote, 'commission'>, commission = 5): OddsTick {
  const price = decimalToAmerican(netBackDecimal(quote.back ?? 0, commission));
  return tick(EXCHANGE, 'moneyline', selection, null, price, { exchange: { ...quote, commission } });
}

describe('exchange legs in arbitrage', () => {
  it('prices the exchange leg net of commission and says how much stake the size at its price holds', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([
      // Back 2.5 at 5 % pays 2.425 (+143), with only 2 waiting at that price.
      exchangeTick('home', { back: 2.5, backSize: 2, lay: 2.52, laySize: 30, volume: 1000 }),
      exchangeTick('away', { back: 1.66, backSize: 50, lay: 1.68, laySize: 40, volume: 900 }),
      ...ml('caesars', -150, 105),
    ]);
    const arb = only(h.active('arbitrage')) as ArbitrageOpportunity;
    expect(arb.legs.map((l) => [l.book, l.selection, l.priceAmerican])).toEqual([
      [EXCHANGE, 'home', 143],
      ['caesars', 'away', 105],
    ]);
    // The exchange leg takes (1/2.43) / (1/2.43 + 1/2.05) of the stake: 2 units hold 4.37 in all.
    const share = 1 / 2.43 / (1 / 2.43 + 1 / 2.05);
    expect(arb.maxStake).toBe(Math.floor((2 / share) * 100) / 100);
    expect(arb.maxStake).toBe(4.37);
  });

  it('finds no arbitrage that commission takes away', () => {
    const h = new Harness();
    h.event(event());
    // Back 2.06 against a sportsbook's 1.96 sums to 0.9956 before commission; at 5 % the back pays 2.007 (+101): 1.0077.
    h.ticks([exchangeTick('home', { back: 2.06, backSize: 500, lay: 2.08, laySize: 500, volume: 1000 }), ...ml('caesars', -160, -104)]);
    expect(h.active('arbitrage')).toEqual([]);
  });

  it('leaves the capacity out when every leg is a sportsbook’s', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('fanduel', 110, -130), ...ml('caesars', -125, 105)]);
    expect(only(h.active('arbitrage'))).not.toHaveProperty('maxStake');
  });
});

describe('an exchange as the +EV reference', () => {
  const market = (homeLay: number): OddsTick[] => [
    exchangeTick('home', { back: 2, backSize: 100, lay: homeLay, laySize: 100, volume: 5000 }),
    exchangeTick('away', { back: 1.96, backSize: 100, lay: 2, laySize: 100, volume: 5000 }),
    ...ml('draftkings', 110, -130),
  ];

  it('takes the back/lay midpoint as the fair line', () => {
    const h = new Harness({ referenceBooks: [EXCHANGE], fallbackReferenceBooks: [] });
    h.event(event());
    h.ticks(market(2.04));
    const ev = only(h.active('ev').filter((o) => (o as EvOpportunity).book === 'draftkings')) as EvOpportunity;
    const home = (1 / 2 + 1 / 2.04) / 2;
    const away = (1 / 1.96 + 1 / 2) / 2;
    const fair = home / (home + away);
    expect(ev.selection).toBe('home');
    expect(ev.sharpBook).toBe(EXCHANGE);
    expect(ev.methods.power.fairProbability).toBe(Math.round(fair * 1e6) / 1e6);
    expect(ev.methods.shin.fairProbability).toBe(ev.methods.power.fairProbability);
    expect(ev.methods.power.evPercent).toBeCloseTo((fair * 2.1 - 1) * 100, 3);
  });

  it('is no reference while a spread is wider than three probability points', () => {
    const h = new Harness({ referenceBooks: [EXCHANGE], fallbackReferenceBooks: [] });
    h.event(event());
    // Home back 2.0, lay 2.2: 50 % against 45.5 %, 4.5 points apart.
    h.ticks(market(2.2));
    expect(h.active('ev')).toEqual([]);
  });
});
