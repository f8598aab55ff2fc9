import { describe, expect, it } from 'vitest';
import type { EvOpportunity } from '../../schemas/index.js';
import { Harness, T0, event, ml, only, spread, tick } from './fixtures/builders.js';

// Expected values are computed here from the textbook formulas, independently of odds-math:
// implied r = 1/d, multiplicative p = r / sum(r), additive p = r - (sum(r) - 1) / n (and Shin
// equals additive for two outcomes), power p = r^k with sum r^k = 1 solved by bisection below.
const dec = (a: number): number => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);
const implied = (prices: number[]): number[] => prices.map((a) => 1 / dec(a));
const multiplicative = (prices: number[]): number[] => {
  const r = implied(prices);
  const s = r.reduce((x, y) => x + y, 0);
  return r.map((x) => x / s);
};
const additive = (prices: number[]): number[] => {
  const r = implied(prices);
  const s = r.reduce((x, y) => x + y, 0);
  return r.map((x) => x - (s - 1) / r.length);
};
const power = (prices: number[]): number[] => {
  const r = implied(prices);
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 200; i++) {
    const k = (lo + hi) / 2;
    if (r.reduce((s, x) => s + x ** k, 0) > 1) lo = k;
    else hi = k;
  }
  return r.map((x) => x ** lo);
};
const ev = (p: number, american: number): number => (p * dec(american) - 1) * 100;
const at = (list: number[], i: number): number => list[i] ?? Number.NaN;

function evs(h: Harness): EvOpportunity[] {
  return h.active('ev') as EvOpportunity[];
}

describe('+EV against one sharp book', () => {
  const h = new Harness();
  h.event(event());
  h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105, { selectionId: 'dk-away' })]);

  it('finds the book above the fair price, with every field of the contract', () => {
    const o = only(evs(h));
    expect(o).toMatchObject({
      kind: 'ev',
      book: 'draftkings',
      selection: 'away',
      line: null,
      priceAmerican: 105,
      sharpBook: 'pinnacle',
      sharpBooks: ['pinnacle'],
      marketWidth: 20,
      bookCount: 2,
      arbAvailable: false,
      arbProfitPercent: null,
      bookEventId: 'draftkings-1',
      selectionId: 'dk-away',
      oldestOddsAgeSeconds: 0,
      possiblyStale: false,
      warnings: ['SINGLE_SHARP_REF'],
      detectedAt: T0,
      value: 2.5,
    });
    for (const m of ['power', 'multiplicative', 'additive', 'shin'] as const) {
      expect(o.methods[m]).toMatchObject({ fairProbability: 0.5, noVigOdds: 100, evPercent: 2.5, kellyPercent: 2.381 });
    }
  });

  it('scores confidence from the board: changed with the reference 20, no other book 15, a 4.55 % reference hold 11.5, plausible 10', () => {
    const o = only(evs(h));
    expect(o.confidence).toEqual({
      sharpCount: 1,
      marketWidth: 20,
      referenceHoldPercent: 4.5455,
      bookCount: 2,
      bookChangedAt: T0,
      referenceChangedAt: T0,
      otherBooks: 0,
      otherBooksInCompany: 0,
    });
    expect(o.methods.power.confidenceScore).toBe(57);
  });

  it('never uses a book as its own reference: the sharp book alone is not +EV against itself', () => {
    expect(evs(h).some((o) => o.book === 'pinnacle')).toBe(false);
  });
});

describe('+EV against several sharp books', () => {
  it('averages the fair probabilities of every reference present, per method', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -120, 110), ...ml('circa', -125, 115), ...ml('draftkings', -150, 125)]);
    const o = only(evs(h).filter((x) => x.book === 'draftkings'));
    expect(o.sharpBooks).toEqual(['pinnacle', 'circa']);
    expect(o.warnings).toEqual([]);
    const expected = {
      multiplicative: (at(multiplicative([-120, 110]), 1) + at(multiplicative([-125, 115]), 1)) / 2,
      additive: (at(additive([-120, 110]), 1) + at(additive([-125, 115]), 1)) / 2,
      shin: (at(additive([-120, 110]), 1) + at(additive([-125, 115]), 1)) / 2,
      power: (at(power([-120, 110]), 1) + at(power([-125, 115]), 1)) / 2,
    };
    for (const [m, p] of Object.entries(expected) as [keyof typeof expected, number][]) {
      expect(o.methods[m].fairProbability).toBeCloseTo(p, 6);
      expect(o.methods[m].evPercent).toBeCloseTo(ev(p, 125), 4);
      expect(o.methods[m].kellyPercent).toBeCloseTo((ev(p, 125) / 125) * 100, 4);
    }
  });

  it('prices a sharp book against the other sharps only', () => {
    const h = new Harness();
    h.event(event());
    // Each sharp is +EV on one side against the other's de-vigged line, never against itself.
    h.ticks([...ml('pinnacle', -120, 110), ...ml('circa', -140, 130)]);
    expect(evs(h).map((o) => [o.book, o.selection, o.sharpBooks])).toEqual([
      ['circa', 'away', ['pinnacle']],
      ['pinnacle', 'home', ['circa']],
    ]);
  });
});

describe('reference rules', () => {
  it('falls back to the fallback book only when no sharp prices the market, and says so', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('betonlineag', -110, -110), ...ml('fanduel', -120, 108)]);
    const o = only(evs(h));
    expect([o.book, o.sharpBook]).toEqual(['fanduel', 'betonlineag']);
    expect(o.warnings).toEqual(['SINGLE_SHARP_REF', 'FALLBACK_SHARP_REF']);
    expect(o.confidence.sharpCount).toBe(0);
  });

  it('needs the reference to price every outcome at the same line, and never mixes lines', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([
      ...spread('pinnacle', -3.5, -110, -110),
      ...spread('draftkings', -2.5, 120, -140),
      tick('circa', 'point_spread', 'home', -2.5, -105),
    ]);
    expect(evs(h)).toEqual([]);
  });

  it('de-vigs three outcomes in a three-way soccer moneyline', () => {
    const h = new Harness();
    h.event(event({ id: 'epl-1', sport: 'soccer', league: 'epl', homeTeamId: 'arsenal', awayTeamId: 'chelsea' }));
    const soccer = { eventId: 'epl-1' };
    h.ticks([
      tick('pinnacle', 'moneyline', 'home', null, 150, soccer),
      tick('pinnacle', 'moneyline', 'draw', null, 240, soccer),
      tick('pinnacle', 'moneyline', 'away', null, 190, soccer),
      tick('bet365', 'moneyline', 'draw', null, 270, soccer),
    ]);
    const o = only(evs(h));
    expect([o.book, o.selection, o.marketWidth]).toEqual(['bet365', 'draw', null]);
    expect(o.methods.multiplicative.fairProbability).toBeCloseTo(at(multiplicative([150, 240, 190]), 1), 6);
    expect(o.references.map((r) => r.selection)).toEqual(['home', 'draw', 'away']);
  });

  it('keeps an opportunity that only some de-vig methods call +EV', () => {
    const h = new Harness();
    h.event(event());
    // A longshot: power takes more margin off it than multiplicative does.
    h.ticks([...ml('pinnacle', -400, 300), tick('draftkings', 'moneyline', 'away', null, 330)]);
    const o = only(evs(h));
    expect(o.methods.multiplicative.evPercent).toBeGreaterThan(0);
    expect(o.methods.power.evPercent).toBeLessThan(0);
    expect(o.methods.power.kellyPercent).toBe(0);
    expect(o.value).toBe(o.methods.power.evPercent);
  });
});

describe('staleness', () => {
  it('flags prices older than 60 s before the game and 10 s in play', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110, { ts: T0 - 90_000 }), ...ml('draftkings', -115, 105)], T0);
    const pre = only(evs(h));
    expect([pre.oldestOddsTs, pre.oldestOddsAgeSeconds, pre.possiblyStale, pre.warnings]).toEqual([
      T0 - 90_000,
      90,
      true,
      ['POTENTIALLY_STALE_ODDS', 'SINGLE_SHARP_REF'],
    ]);

    const live = new Harness();
    live.event(event({ isLive: true, status: 'live' }));
    live.ticks([...ml('pinnacle', -110, -110, { ts: T0 - 12_000, isLive: true }), ...ml('draftkings', -115, 105, { isLive: true })], T0);
    expect(only(evs(live)).warnings).toEqual(['LIVE_STALE_ODDS', 'SINGLE_SHARP_REF']);
  });
});

describe('+EV reference prices are built once per reference market', () => {
  // Every rebuild of a +EV price used to copy the reference's rows again: opportunities that are
  // replaced within seconds filled the old generation with identical copies.
  const h = new Harness();
  h.event(event());
  h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105), ...ml('fanduel', -125, 106)]);
  const byBook = (book: string): EvOpportunity => only(evs(h).filter((o) => o.book === book));

  it('gives every price measured against an unchanged reference the same reference objects', () => {
    const dk = byBook('draftkings');
    const fd = byBook('fanduel');
    expect(dk.references.map((p) => [p.book, p.selection, p.priceAmerican])).toEqual([
      ['pinnacle', 'home', -110],
      ['pinnacle', 'away', -110],
    ]);
    expect(fd.references[0]).toBe(dk.references[0]);
    expect(fd.references[1]).toBe(dk.references[1]);
    // A soft book's move rebuilds its opportunity, not the reference's prices.
    h.ticks(ml('draftkings', -115, 108), T0 + 1000);
    expect(byBook('draftkings').priceAmerican).toBe(108);
    expect(byBook('draftkings').references[1]).toBe(fd.references[1]);
  });

  it('builds new reference prices when the reference moves', () => {
    const before = byBook('fanduel').references;
    h.ticks(ml('pinnacle', -105, -115), T0 + 2000);
    const after = byBook('fanduel').references;
    expect(after.map((p) => p.priceAmerican)).toEqual([-105, -115]);
    expect(after[1]).not.toBe(before[1]);
    expect(before.map((p) => p.priceAmerican)).toEqual([-110, -110]);
    expect(byBook('draftkings').references[1]).toBe(after[1]);
  });
});

describe('confidence read off the board', () => {
  const MINUTE = 60_000;
  const draftkingsAway = (h: Harness): EvOpportunity => only(evs(h).filter((o) => o.book === 'draftkings'));

  it('gives 40 for who moved last when the reference changed its price after the book last changed its own', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105)]);
    h.ticks(ml('pinnacle', -112, -108, { ts: T0 + MINUTE }), T0 + MINUTE);
    const o = draftkingsAway(h);
    expect([o.confidence.bookChangedAt, o.confidence.referenceChangedAt]).toEqual([T0, T0 + MINUTE]);
    // 40 + 15 (no other book) + 20 × (8 − 4.5376) / 6 = 11.54 + 10.
    expect(o.confidence.referenceHoldPercent).toBe(4.5376);
    expect(o.methods.power.confidenceScore).toBe(77);
  });

  it('gives 0 for who moved last when the book changed its price after the reference', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105)]);
    h.ticks(ml('draftkings', -118, 108, { ts: T0 + MINUTE }), T0 + MINUTE);
    const o = draftkingsAway(h);
    expect([o.confidence.bookChangedAt, o.confidence.referenceChangedAt]).toEqual([T0 + MINUTE, T0]);
    // 0 + 15 + 11.52 + 10.
    expect(o.methods.power.confidenceScore).toBe(37);
  });

  it('counts the other books, not the references, and those within a point of implied probability of the price', () => {
    const h = new Harness();
    h.event(event());
    // Draftkings' away 105 is implied 48.78 %: FanDuel's 104 (49.02 %) keeps it company, BetMGM's
    // -110 (52.38 %) does not; Pinnacle is the reference and is not counted.
    h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105), ...ml('fanduel', -125, 104), ...ml('betmgm', -110, -110)]);
    const o = draftkingsAway(h);
    expect([o.confidence.otherBooks, o.confidence.otherBooksInCompany]).toEqual([2, 1]);
    // 20 + 30 × 1/2 + 11.52 + 10.
    expect(o.methods.power.confidenceScore).toBe(57);
  });

  it('updates the score when another book moves into the price’s company, the prices used unchanged', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 105), ...ml('betmgm', -110, -110)]);
    expect(draftkingsAway(h).methods.power.confidenceScore).toBe(72);
    const out = h.ticks(ml('betmgm', -125, 104, { ts: T0 + MINUTE }), T0 + MINUTE);
    const updated = out.filter((c) => c.type === 'update' && c.opportunity.kind === 'ev' && c.opportunity.book === 'draftkings');
    expect(updated).toHaveLength(1);
    const o = draftkingsAway(h);
    expect([o.confidence.otherBooks, o.confidence.otherBooksInCompany]).toEqual([1, 1]);
    // 20 + 0 + 11.52 + 10.
    expect(o.methods.power.confidenceScore).toBe(42);
  });
});
