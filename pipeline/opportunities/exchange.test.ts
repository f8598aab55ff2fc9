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
    // Laying away at 1.68 against Caesars' away is a second arbitrage (below); this one backs both legs.
    const arb = only(h.active('arbitrage').filter((o) => o.legs.every((l) => l.side === undefined))) as ArbitrageOpportunity;
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

describe('laying on the exchange as an arbitrage leg', () => {
  // Caesars pays 2.5 on home; the exchange lays home at 2.32 with 40 of backers' money waiting.
  // Its away side is thin (back 1.68, net -155), so backing away there is no arbitrage.
  const market = (caesarsHome: number, commission: number): OddsTick[] => [
    exchangeTick('home', { back: 2.3, backSize: 100, lay: 2.32, laySize: 40, volume: 1000 }, commission),
    exchangeTick('away', { back: 1.68, backSize: 100, lay: 1.7, laySize: 100, volume: 800 }, commission),
    ...ml('caesars', caesarsHome, -200),
  ];

  it('pairs a back at a sportsbook with a lay of the same outcome, the lay priced as a back of it losing, net of commission', () => {
    const h = new Harness();
    h.event(event());
    h.ticks(market(150, 5));
    const arb = only(h.active('arbitrage')) as ArbitrageOpportunity;
    // Lay 2.32 at 5 %: 1 + 0.95 / 1.32 = 1.7197 on "home loses", -139 as the feed rounds it (1.719424).
    const layAsBack = 1 + 100 / 139;
    const impliedSum = 1 / 2.5 + 1 / layAsBack;
    expect(arb.legs.map((l) => [l.book, l.selection, l.side, l.priceAmerican, l.priceDecimal, l.layPrice])).toEqual([
      ['caesars', 'home', 'back', 150, 2.5, undefined],
      [EXCHANGE, 'home', 'lay', -139, 1.7194, 2.32],
    ]);
    expect(arb.impliedSum).toBe(Math.round(impliedSum * 1e8) / 1e8);
    expect(arb.profitPercent).toBe(1.8755);
    // The lay leg's share is its liability: 59.25 % of the stake.
    expect(arb.legs.map((l) => l.stakeShare)).toEqual([0.407502, 0.592498]);
  });

  it('bounds the stake by the liability the backers’ money at the lay price allows', () => {
    const h = new Harness();
    h.event(event());
    h.ticks(market(150, 5));
    const arb = only(h.active('arbitrage')) as ArbitrageOpportunity;
    // 40 laid at 2.32 is a liability of 40 x 1.32 = 52.8, which is 59.25 % of a total of 89.11.
    const share = 1 / (1 + 100 / 139) / (1 / 2.5 + 1 / (1 + 100 / 139));
    expect(arb.maxStake).toBe(Math.floor(((40 * 1.32) / share) * 100) / 100);
    expect(arb.maxStake).toBe(89.11);
  });

  it('finds no lay arbitrage that the commission on the lay’s winnings takes away', () => {
    // Against Caesars' home 2.35, the lay pays 1.7576 without commission (sum 0.9945) but 1.7194 at 5 % (1.0071).
    const free = new Harness();
    free.event(event());
    free.ticks(market(135, 0));
    expect(free.active('arbitrage').map((o) => o.legs.map((l) => l.side))).toEqual([['back', 'lay']]);
    const charged = new Harness();
    charged.event(event());
    charged.ticks(market(135, 5));
    expect(charged.active('arbitrage')).toEqual([]);
  });

  it('leaves lays out of low-hold markets, which back every outcome', () => {
    const h = new Harness({ lowHoldPercent: 5 });
    h.event(event());
    h.ticks(market(150, 5));
    const lowHolds = h.active('low_hold');
    expect(lowHolds.length).toBeGreaterThan(0);
    for (const o of lowHolds) expect(o.legs.every((l) => l.side === undefined)).toBe(true);
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
