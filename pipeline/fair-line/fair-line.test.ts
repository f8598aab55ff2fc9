import { describe, it, expect } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { RECIPE_DEVIG_METHODS, americanToDecimal, deVig } from '../odds-math/index.js';
import { fairLine } from './fair-line.js';
import type { FairRecipe } from './recipe.js';

const NOW = 1_000_000;

function row(book: string, selection: SelectionType, priceAmerican: number, line: number | null = null, ageMs = 0): OddsRow {
  return {
    id: `${book}-${selection}-${String(line)}`,
    eventId: 'e1',
    book,
    market: line === null ? 'moneyline' : 'player_prop',
    selection,
    line,
    participant: null,
    statCategory: null,
    priceAmerican,
    priceDecimal: americanToDecimal(priceAmerican),
    probability: 1 / americanToDecimal(priceAmerican),
    ts: NOW - ageMs,
    oddsChangedAt: NOW - ageMs,
    observedAt: NOW - ageMs,
    isLive: false,
    bookEventId: 'b1',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
}

const recipe = (over: Partial<FairRecipe> = {}): FairRecipe => ({
  books: ['pinnacle', 'circa'],
  weighting: 'equal',
  method: 'multiplicative',
  assumedMargin: null,
  defaultMargin: 0.05,
  ...over,
});

// Pinnacle -150/+130: implied 0.6 and 0.434783, normalised 0.579832 / 0.420168.
// Circa -145/+125: implied 0.591837 and 0.444444, normalised 0.571116 / 0.428884.
const moneyline = [row('pinnacle', 'home', -150), row('pinnacle', 'away', 130), row('circa', 'home', -145), row('circa', 'away', 125)];
const sides: SelectionType[] = ['home', 'away'];

describe('fair line of a two-sided market', () => {
  it('is the equal-weight mean of the books de-vigged by the recipe method', () => {
    const fair = fairLine({ outcomes: sides, rows: moneyline, otherLines: [], now: NOW }, recipe());
    expect(fair.outcomes.map((o) => o.status)).toEqual(['two_sided', 'two_sided']);
    expect(fair.outcomes[0]?.probability).toBeCloseTo(0.5754739532574518, 12);
    expect(fair.outcomes[1]?.probability).toBeCloseTo(1 - 0.5754739532574518, 12);
    expect(fair.books.map((b) => [b.book, b.sides, b.weight])).toEqual([
      ['pinnacle', 'two_sided', 0.5],
      ['circa', 'two_sided', 0.5],
    ]);
  });

  it('has a band spanning each book alone and every method', () => {
    const fair = fairLine({ outcomes: sides, rows: moneyline, otherLines: [], now: NOW }, recipe());
    const band = fair.outcomes[0]?.band;
    expect(band?.books.low).toBeCloseTo(0.5711159737417943, 12);
    expect(band?.books.high).toBeCloseTo(0.5798319327731092, 12);
    const pinnacle = [americanToDecimal(-150), americanToDecimal(130)];
    const circa = [americanToDecimal(-145), americanToDecimal(125)];
    const means = RECIPE_DEVIG_METHODS.map((m) => ((deVig(m, pinnacle)[0] ?? 0) + (deVig(m, circa)[0] ?? 0)) / 2);
    expect(band?.methods?.low).toBeCloseTo(Math.min(...means), 12);
    expect(band?.methods?.high).toBeCloseTo(Math.max(...means), 12);
    expect(band?.low).toBe(Math.min(band?.methods?.low ?? 1, band?.books.low ?? 1));
    expect(band?.high).toBe(Math.max(band?.methods?.high ?? 0, band?.books.high ?? 0));
  });

  it('weighs a fresher, tighter book more with freshness_width', () => {
    // Circa a minute old counts half on age; its 4.13 % margin against Pinnacle's 3.48 % lowers it further.
    const rows = [...moneyline.slice(0, 2), row('circa', 'home', -145, null, 60_000), row('circa', 'away', 125, null, 60_000)];
    const fair = fairLine({ outcomes: sides, rows, otherLines: [], now: NOW }, recipe({ weighting: 'freshness_width' }));
    const pinnacle = 1 / (0.6 + 100 / 230 - 1) / 100;
    const circa = 0.5 / (145 / 245 + 100 / 225 - 1) / 100;
    expect(fair.books[0]?.weight).toBeCloseTo(pinnacle / (pinnacle + circa), 12);
    expect(fair.outcomes[0]?.probability).toBeCloseTo(
      (0.5798319327731092 * pinnacle + 0.5711159737417943 * circa) / (pinnacle + circa),
      12,
    );
  });

  it('uses only the books the recipe names', () => {
    const fair = fairLine({ outcomes: sides, rows: moneyline, otherLines: [], now: NOW }, recipe({ books: ['circa'] }));
    expect(fair.outcomes[0]?.probability).toBeCloseTo(0.5711159737417943, 12);
    expect(fair.outcomes[0]?.band?.books).toEqual({ low: fair.outcomes[0]?.probability, high: fair.outcomes[0]?.probability });
  });
});

describe('fair line of a one-sided market', () => {
  const overs: SelectionType[] = ['over', 'under'];
  const only = [row('pinnacle', 'over', -120, 24.5)];
  // Pinnacle's own 23.5 line, -115/-105: margin 115/215 + 105/205 - 1 = 4.7079 %.
  const other = [row('pinnacle', 'over', -115, 23.5), row('pinnacle', 'under', -105, 23.5)];

  it('discounts the posted side by the margin the book carries on its other lines, and leaves the missing side unavailable', () => {
    const fair = fairLine({ outcomes: overs, rows: only, otherLines: other, now: NOW }, recipe());
    expect(fair.outcomes[0]?.status).toBe('one_sided_assumed_margin');
    expect(fair.outcomes[0]?.probability).toBeCloseTo(0.5209297744509012, 12);
    expect(fair.outcomes[0]?.assumedMargin).toBeCloseTo(0.04707884288145214, 12);
    expect(fair.books[0]).toMatchObject({ sides: 'one_sided', marginSource: 'borrowed' });
    expect(fair.outcomes[1]).toEqual({ selection: 'under', status: 'unavailable', probability: null, band: null, assumedMargin: null });
  });

  it("takes the caller's margin first, and the recipe's default (5 % here) when there is nothing to borrow", () => {
    const caller = fairLine({ outcomes: overs, rows: only, otherLines: other, now: NOW }, recipe({ assumedMargin: 0.08 }));
    expect(caller.outcomes[0]?.probability).toBeCloseTo(120 / 220 / 1.08, 12);
    expect(caller.books[0]?.marginSource).toBe('caller');
    const fallback = fairLine({ outcomes: overs, rows: only, otherLines: [], now: NOW }, recipe());
    expect(fallback.outcomes[0]?.probability).toBeCloseTo(120 / 220 / 1.05, 12);
    expect(fallback.books[0]?.marginSource).toBe('default');
  });

  it("takes the recipe's default margin as the operator sets it", () => {
    const fair = fairLine({ outcomes: overs, rows: only, otherLines: [], now: NOW }, recipe({ defaultMargin: 0.08 }));
    expect(fair.outcomes[0]?.probability).toBeCloseTo(120 / 220 / 1.08, 12);
    expect(fair.outcomes[0]?.assumedMargin).toBe(0.08);
    expect(fair.books[0]).toMatchObject({ margin: 0.08, marginSource: 'default' });
  });

  it('is unavailable everywhere when no reference book prices the market', () => {
    const fair = fairLine({ outcomes: overs, rows: [row('draftkings', 'over', -110, 24.5)], otherLines: [], now: NOW }, recipe());
    expect(fair.outcomes.map((o) => o.status)).toEqual(['unavailable', 'unavailable']);
    expect(fair.books.map((b) => b.sides)).toEqual(['none', 'none']);
  });
});
