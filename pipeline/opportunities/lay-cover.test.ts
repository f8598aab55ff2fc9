/**
 * Lays in markets of three or more outcomes: a lay of X covers "not X", so a back of X at one
 * book and a lay of X on an exchange together cover a 1X2 market.
 */
import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, ExchangeQuote, OddsTick, SelectionType } from '../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../odds-math/index.js';
import { Harness, event, only, tick } from './fixtures/builders.js';

const EXCHANGE = 'betfair_ex_uk';
const soccer = event({ id: 'epl-20251110-ars-che', sport: 'soccer', league: 'epl', homeTeamId: 'arsenal', awayTeamId: 'chelsea' });

function at(t: OddsTick): OddsTick {
  return { ...t, eventId: soccer.id };
}

function oneXTwo(book: string, home: number, draw: number, away: number): OddsTick[] {
  return (['home', 'draw', 'away'] as const).map((s, i) => at(tick(book, 'moneyline', s, null, [home, draw, away][i] ?? null)));
}

function exchangeTick(selection: SelectionType, quote: Omit<ExchangeQuote, 'commission' | 'volume'>, commission = 5): OddsTick {
  const price = decimalToAmerican(netBackDecimal(quote.back ?? 0, commission));
  return at(tick(EXCHANGE, 'moneyline', selection, null, price, { exchange: { ...quote, volume: 1000, commission } }));
}

/** The exchange lays the draw at 3.3 with 60 of backers' money waiting; its backs are a tick below its lays. */
function exchange(commission = 5): OddsTick[] {
  return [
    exchangeTick('home', { back: 2.1, backSize: 500, lay: 2.12, laySize: 500 }, commission),
    exchangeTick('draw', { back: 3.25, backSize: 500, lay: 3.3, laySize: 60 }, commission),
    exchangeTick('away', { back: 3.9, backSize: 500, lay: 3.95, laySize: 500 }, commission),
  ];
}

describe('lays in a three-way market', () => {
  it('pairs a back of the draw at a sportsbook with a lay of the draw on the exchange', () => {
    const h = new Harness();
    h.event(soccer);
    // Caesars' draw at +275 (3.75) against the exchange's lay at 3.3 (5 %): 1 + 0.95/2.3 = 1.413, -242 (1.4132).
    h.ticks([...exchange(), ...oneXTwo('caesars', -120, 275, 240)]);
    const arb = only(h.active('arbitrage')) as ArbitrageOpportunity;
    expect(arb.legs.map((l) => [l.book, l.selection, l.side, l.priceAmerican, l.priceDecimal, l.layPrice])).toEqual([
      ['caesars', 'draw', 'back', 275, 3.75, undefined],
      [EXCHANGE, 'draw', 'lay', -242, 1.4132, 3.3],
    ]);
    const layAsBack = 1 + 100 / 242;
    expect(arb.impliedSum).toBe(Math.round((1 / 3.75 + 1 / layAsBack) * 1e8) / 1e8);
    expect(arb.profitPercent).toBe(2.6411);
    expect(arb.legs.map((l) => l.stakeShare)).toEqual([0.273709, 0.726291]);
    // 60 laid at 3.3 is a liability of 138, 72.63 % of a total of 190.00.
    expect(arb.maxStake).toBe(190);
  });

  it('finds no cover that the commission on the lay takes away', () => {
    // Caesars' draw at +240 (3.4): 0.2941 + 1/1.4132 = 1.0017 at 5 %; at 2 % the lay is 1.4261 (-235): 0.9956.
    const charged = new Harness();
    charged.event(soccer);
    charged.ticks([...exchange(5), ...oneXTwo('caesars', -120, 240, 240)]);
    expect(charged.active('arbitrage')).toEqual([]);
    const cheap = new Harness();
    cheap.event(soccer);
    cheap.ticks([...exchange(2), ...oneXTwo('caesars', -120, 240, 240)]);
    expect(cheap.active('arbitrage').map((o) => o.legs.map((l) => `${l.selection}:${l.side}`))).toEqual([['draw:back', 'draw:lay']]);
  });

  it('never pairs the exchange’s own back and lay of one runner', () => {
    const h = new Harness();
    h.event(soccer);
    h.ticks(exchange(0));
    expect(h.active('arbitrage')).toEqual([]);
  });

  it('keeps back-only combinations of the three outcomes exactly as before', () => {
    const h = new Harness();
    h.event(soccer);
    h.ticks([...oneXTwo('caesars', 130, 260, 240), ...oneXTwo('fanduel', 110, 300, 210)]);
    const arb = only(h.active('arbitrage')) as ArbitrageOpportunity;
    expect(arb.legs.map((l) => [l.book, l.selection, l.side])).toEqual([
      ['caesars', 'home', undefined],
      ['fanduel', 'draw', undefined],
      ['caesars', 'away', undefined],
    ]);
  });
});
