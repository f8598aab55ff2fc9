/**
 * Exchange rows carry both sides of the ladder; a sportsbook's row is unchanged (the exchange
 * fields are absent, not null), and both serialize through the route's schema.
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, CanonicalEvent, OddsRow, OpportunityLeg } from '../../schemas/index.js';
import { Catalog } from '../views/catalog.js';
import { oddsRowSchema, presentOdds } from './odds.js';
import { presentArbitrage } from './opportunities.js';
import { DEFAULT_PHANTOM_POLICY } from '../../pipeline/opportunities/index.js';

const catalog = new Catalog();
const event: CanonicalEvent = {
  id: 'e1',
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'nba-bos',
  awayTeamId: 'nba-mia',
  startTime: Date.UTC(2026, 10, 21, 18),
  status: 'upcoming',
  isLive: false,
  externalIds: {},
  updatedAt: 0,
};
const row = (book: string, extra: Partial<OddsRow> = {}): OddsRow => ({
  id: `r-${book}`,
  eventId: 'e1',
  book,
  market: 'moneyline',
  selection: 'home',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: 143,
  priceDecimal: 2.43,
  probability: 0.411523,
  ts: 1000,
  oddsChangedAt: 1000,
  observedAt: 1000,
  isLive: false,
  bookEventId: 'x',
  selectionId: null,
  isActive: true,
  suspendedSince: null,
  ...extra,
});
const EXCHANGE_FIELDS = ['back', 'lay', 'max_bet', 'max_lay', 'volume', 'commission'];
const serialize = (fastJson as unknown as (s: object) => (x: unknown) => string)(oddsRowSchema);

describe('exchange fields on odds rows', () => {
  it('an exchange row shows back and lay, the sizes at them, volume and commission beside its net price', () => {
    const presented = presentOdds(
      catalog,
      row('betfair_ex_eu', { exchange: { back: 2.5, backSize: 3, lay: 2.56, laySize: 4.5, volume: 150, commission: 5 } }),
      event,
    );
    expect(presented).toMatchObject({ odds_american: 143, back: 2.5, lay: 2.56, max_bet: 3, max_lay: 4.5, volume: 150, commission: 5 });
    expect(JSON.parse(serialize(presented))).toMatchObject({ back: 2.5, lay: 2.56, max_bet: 3, max_lay: 4.5, volume: 150, commission: 5 });
  });

  it('an empty side is null on an exchange row', () => {
    const presented = presentOdds(
      catalog,
      row('betfair_ex_eu', { exchange: { back: 2.5, backSize: 3, lay: null, laySize: null, volume: null, commission: 2 } }),
      event,
    );
    expect(JSON.parse(serialize(presented))).toMatchObject({ lay: null, max_lay: null, volume: null, commission: 2 });
  });

  it('a sportsbook row has none of the exchange fields, whether its quote is absent or null', () => {
    for (const r of [row('draftkings'), row('draftkings', { exchange: null })]) {
      const json = JSON.parse(serialize(presentOdds(catalog, r, event))) as Record<string, unknown>;
      expect(EXCHANGE_FIELDS.filter((f) => f in json)).toEqual([]);
    }
  });
});

const arb = (maxStake?: number): ArbitrageOpportunity => ({
  id: 'a1',
  kind: 'arbitrage',
  eventId: 'e1',
  situation: 'e1|moneyline|',
  market: 'moneyline',
  family: 'side',
  participant: null,
  statCategory: null,
  event: { sport: 'basketball', league: 'nba', homeTeamId: 'nba-bos', awayTeamId: 'nba-mia', startTime: 0, isLive: false },
  legs: [
    {
      book: 'betfair_ex_eu',
      selection: 'home',
      line: null,
      priceAmerican: 143,
      priceDecimal: 2.43,
      ts: 0,
      rowId: 'r1',
      bookEventId: 'x',
      selectionId: null,
      stakeShare: 0.457589,
    },
    {
      book: 'caesars',
      selection: 'away',
      line: null,
      priceAmerican: 105,
      priceDecimal: 2.05,
      ts: 0,
      rowId: 'r2',
      bookEventId: 'y',
      selectionId: null,
      stakeShare: 0.542411,
    },
  ],
  oldestOddsTs: 0,
  oldestOddsAgeSeconds: 0,
  freshUntil: null,
  staleAfterSeconds: null,
  possiblyStale: false,
  warnings: [],
  detectedAt: 0,
  lastSeenAt: 0,
  expiredAt: null,
  expireReason: null,
  value: 11.19,
  peakValue: 11.19,
  line: null,
  profitPercent: 11.19,
  impliedSum: 0.899328,
  ...(maxStake === undefined ? {} : { maxStake }),
});

describe('max_stake on combinations', () => {
  it('is shown when a leg is on an exchange, and left out otherwise', () => {
    expect(presentArbitrage(catalog, arb(4.37), 100, 0, DEFAULT_PHANTOM_POLICY).max_stake).toBe(4.37);
    expect(presentArbitrage(catalog, arb(), 100, 0, DEFAULT_PHANTOM_POLICY)).not.toHaveProperty('max_stake');
  });
});

describe('the sides of a combination that lays on an exchange', () => {
  const base = arb(89.11);
  const [back, exchange] = base.legs as [OpportunityLeg, OpportunityLeg];
  const laid: ArbitrageOpportunity = {
    ...base,
    legs: [
      { ...back, book: 'caesars', priceAmerican: 150, priceDecimal: 2.5, stakeShare: 0.407502, side: 'back' },
      {
        ...exchange,
        book: 'betfair_ex_eu',
        selection: 'home',
        priceAmerican: -139,
        priceDecimal: 1.7194,
        stakeShare: 0.592498,
        side: 'lay',
        layPrice: 2.32,
      },
    ],
  };

  it('says each leg’s side, and for the lay its quoted price and the backers’ stake behind its liability', () => {
    const row = presentArbitrage(catalog, laid, 100, 0, DEFAULT_PHANTOM_POLICY);
    const [back, lay] = row.legs ?? [];
    expect(back).toMatchObject({ sportsbook: 'caesars', side: 'back', stake: 40.75 });
    expect(back).not.toHaveProperty('lay_odds');
    // A liability of 59.25 at 2.32 lays a backer's stake of 59.25 / 1.32 = 44.89.
    expect(lay).toMatchObject({
      sportsbook: 'betfair_ex_eu',
      selection_type: 'home',
      side: 'lay',
      odds_decimal: 1.7194,
      stake: 59.25,
      lay_odds: 2.32,
      lay_stake: 44.89,
    });
  });

  it('leaves the sides out of a combination that only backs', () => {
    const backs = { ...laid, legs: laid.legs.map(({ side: _side, layPrice: _layPrice, ...l }) => l) };
    for (const l of presentArbitrage(catalog, backs, 100, 0, DEFAULT_PHANTOM_POLICY).legs ?? []) {
      expect(l).not.toHaveProperty('side');
      expect(l).not.toHaveProperty('lay_stake');
    }
  });
});
