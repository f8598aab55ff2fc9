/**
 * An account's own commission rate: exchange rows and the combinations built on them, priced
 * again at request time, come out as the engines would have found them at that rate.
 */
import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, EvOpportunity, ExchangeQuote, OddsRow, OddsTick, Opportunity } from '../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../odds-math/index.js';
import { opportunityAtCommission, rowAtCommission } from './account-rate.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { Harness, T0, event, ml, only, tick } from './fixtures/builders.js';

const EXCHANGE = 'betfair_ex_eu';

function exchangeTick(selection: 'home' | 'away', quote: Omit<ExchangeQuote, 'commission' | 'volume'>, commission: number): OddsTick {
  const price = decimalToAmerican(netBackDecimal(quote.back ?? 0, commission));
  return tick(EXCHANGE, 'moneyline', selection, null, price, { exchange: { ...quote, volume: 1000, commission } });
}

/** Caesars' home at `caesarsHome` against an exchange laying home at 2.32 (40 waiting) and backing away at 2.1 (30 waiting). */
function market(caesarsHome: number, caesarsAway: number, commission: number): OddsTick[] {
  return [
    exchangeTick('home', { back: 2.3, backSize: 100, lay: 2.32, laySize: 40 }, commission),
    exchangeTick('away', { back: 2.1, backSize: 30, lay: 2.12, laySize: 100 }, commission),
    ...ml('caesars', caesarsHome, caesarsAway),
  ];
}

function found(ticks: OddsTick[]): Opportunity[] {
  const h = new Harness();
  h.event(event());
  h.ticks(ticks);
  return h.active('arbitrage');
}

/** The figures a caller sees, without the fields that say when and by which run a record was made. */
function figures(o: Opportunity | null): unknown {
  if (o === null || o.kind !== 'arbitrage') return o;
  return {
    legs: o.legs.map((l) => [l.book, l.selection, l.side, l.priceAmerican, l.priceDecimal, l.stakeShare, l.commission]),
    profitPercent: o.profitPercent,
    impliedSum: o.impliedSum,
    maxStake: o.maxStake,
    value: o.value,
  };
}

describe('an exchange row at an account’s rate', () => {
  const rowOf = (t: OddsTick): OddsRow => new SnapshotProcessor().handle(t, T0)?.row as OddsRow;
  const row = (): OddsRow => rowOf(exchangeTick('home', { back: 2.5, backSize: 2, lay: 2.52, laySize: 30 }, 5));

  it('is the quoted back net of that rate, with the rate in its commission', () => {
    // 2.5 at 5 % pays 2.425 (+143); at 2 % 2.47 (+147).
    const base = row();
    expect([base.priceAmerican, base.priceDecimal, base.exchange?.commission]).toEqual([143, 2.43, 5]);
    const cheap = rowAtCommission(base, 2);
    expect([cheap.priceAmerican, cheap.priceDecimal, cheap.probability, cheap.exchange?.commission, cheap.exchange?.back]).toEqual([
      147, 2.47, 0.404858, 2, 2.5,
    ]);
  });

  it('is the same row at its own rate, and a sportsbook row is never touched', () => {
    const base = row();
    expect(rowAtCommission(base, 5)).toBe(base);
    const book = rowOf(ml('caesars', 150, -170)[0] as OddsTick);
    expect(rowAtCommission(book, 0)).toBe(book);
  });
});

/** The combination that lays home on the exchange, and the one that backs away there. */
function laying(list: readonly Opportunity[]): ArbitrageOpportunity {
  return only(list.filter((o) => o.legs.some((l) => l.side === 'lay'))) as ArbitrageOpportunity;
}
function backing(list: readonly Opportunity[]): ArbitrageOpportunity {
  return only(list.filter((o) => o.legs.every((l) => l.side === undefined))) as ArbitrageOpportunity;
}

describe('a combination checked again at an account’s rate', () => {
  it('matches what the engines find with the exchange priced at that rate: prices, profit, shares and capacity', () => {
    // At 5 % the lay of home pays 1 + 0.95/1.32 = 1.7197 (-139, 1.7194); at 2 %, 1.7424 (-135, 1.7407).
    const atFive = laying(found(market(150, -300, 5)));
    const atTwo = laying(found(market(150, -300, 2)));
    expect(figures(atFive)).toEqual({
      legs: [
        ['caesars', 'home', 'back', 150, 2.5, 0.407502, undefined],
        [EXCHANGE, 'home', 'lay', -139, 1.7194, 0.592498, 5],
      ],
      profitPercent: 1.8755,
      impliedSum: 0.98158996,
      maxStake: 89.11,
      value: 1.8755,
    });
    expect(figures(opportunityAtCommission(atFive, 2))).toEqual(figures(atTwo));
    expect(figures(atTwo)).toEqual({
      legs: [
        ['caesars', 'home', 'back', 150, 2.5, 0.41048, undefined],
        [EXCHANGE, 'home', 'lay', -135, 1.7407, 0.58952, 2],
      ],
      profitPercent: 2.6201,
      impliedSum: 0.97446809,
      maxStake: 89.56,
      value: 2.6201,
    });
  });

  it('drops an arbitrage that the account’s higher rate makes unprofitable', () => {
    // Against Caesars' home 2.35 the lay pays 1.7576 at 0 % (sum 0.9945) but 1.7194 at 5 % (1.0071).
    const free = found(market(135, -300, 0));
    expect(opportunityAtCommission(laying(free), 5)).toBeNull();
    expect(opportunityAtCommission(backing(free), 5)).not.toBeNull();
  });

  it('recomputes the stake shares and the capacity of the exchange legs', () => {
    // Backing away on the exchange (2.1, 30 waiting) against Caesars' home 2.5.
    const free = backing(found(market(150, -300, 0)));
    const again = opportunityAtCommission(free, 3) as ArbitrageOpportunity;
    // Away 2.1 pays 2.1 (+110) at 0 %, 54.35 % of the stake: 30 waiting hold 55.20 in all. At 3 % it pays 2.067 (+107).
    expect([free.legs[1]?.priceAmerican, free.legs[1]?.stakeShare, free.maxStake]).toEqual([110, 0.543478, 55.2]);
    expect(again.legs.map((l) => [l.book, l.priceAmerican, l.stakeShare])).toEqual([
      ['caesars', 150, 0.452954],
      [EXCHANGE, 107, 0.547046],
    ]);
    expect([again.profitPercent, again.maxStake]).toEqual([13.2385, 54.84]);
    expect(figures(again)).toEqual(figures(backing(found(market(150, -300, 3)))));
  });

  it('leaves a combination without exchange legs, or already at the rate, as it is', () => {
    const books = only(found([...ml('fanduel', 110, -130), ...ml('caesars', -125, 105)]));
    expect(opportunityAtCommission(books, 0)).toBe(books);
    const atFive = laying(found(market(150, -300, 5)));
    expect(opportunityAtCommission(atFive, 5)).toBe(atFive);
  });
});

describe('a +EV price checked again at an account’s rate', () => {
  /** Pinnacle +125 / -145 as the only reference; the exchange backs home at 2.5 (100 waiting). */
  function evOnExchange(commission: number): EvOpportunity[] {
    const h = new Harness({ referenceBooks: ['pinnacle'] });
    h.event(event());
    h.ticks([
      exchangeTick('home', { back: 2.5, backSize: 100, lay: 2.52, laySize: 40 }, commission),
      exchangeTick('away', { back: 1.66, backSize: 100, lay: 1.68, laySize: 100 }, commission),
      ...ml('pinnacle', 125, -145),
    ]);
    return h.active('ev').filter((o): o is EvOpportunity => o.kind === 'ev' && o.book === EXCHANGE);
  }
  const evFigures = (o: Opportunity | null) =>
    o?.kind === 'ev'
      ? {
          price: [o.priceAmerican, o.priceDecimal, o.legs[0]?.priceAmerican, o.legs[0]?.commission],
          ev: Object.fromEntries(Object.entries(o.methods).map(([m, v]) => [m, [v.fairProbability, v.evPercent, v.kellyPercent]])),
          value: o.value,
        }
      : o;

  it('prices the exchange back at the rate and recomputes EV and Kelly per method against the same fair line', () => {
    const atFive = only(evOnExchange(5));
    const atTwo = opportunityAtCommission(atFive, 2);
    // Back 2.5 pays 2.425 (+143) at 5 % and 2.47 (+147) at 2 %: power's fair home 0.425023 gives
    // +3.2806 % and +4.9807 % (0.425023 x 2.47 = 1.049807), Kelly 2.2941 % and 3.3882 %.
    expect(evFigures(atFive)).toMatchObject({ price: [143, 2.43, 143, 5], value: 3.2806 });
    expect(evFigures(atTwo)).toMatchObject({ price: [147, 2.47, 147, 2], value: 4.9807 });
    expect((atTwo as EvOpportunity).methods.power).toMatchObject({ fairProbability: 0.425023, evPercent: 4.9807, kellyPercent: 3.3882 });
    // The engines run with the exchange at 2 % find the same figures, to the record's rounding of
    // the fair probabilities (multiplicative: 5.9343 here, 5.9344 there).
    const engine = only(evOnExchange(2));
    for (const m of Object.keys(engine.methods) as (keyof EvOpportunity['methods'])[]) {
      expect((atTwo as EvOpportunity).methods[m].evPercent).toBeCloseTo(engine.methods[m].evPercent, 3);
      expect((atTwo as EvOpportunity).methods[m].kellyPercent).toBeCloseTo(engine.methods[m].kellyPercent, 3);
    }
    expect(evFigures({ ...(atTwo as EvOpportunity), methods: engine.methods })).toEqual(evFigures(engine));
  });

  it('drops a price the rate leaves without an edge, and keeps the record as it is at its own rate', () => {
    const atFive = only(evOnExchange(5));
    expect(opportunityAtCommission(atFive, 20)).toBeNull();
    expect(opportunityAtCommission(atFive, 5)).toBe(atFive);
  });
});
