import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { OpportunityLeg } from '../../schemas/index.js';
import { stakesFor, toCsv } from './opportunities.js';

const leg = (priceAmerican: number): OpportunityLeg => ({
  book: 'b',
  selection: 'home',
  line: null,
  priceAmerican,
  priceDecimal: 0,
  ts: 0,
  rowId: 'r',
  bookEventId: 'e',
  selectionId: null,
  stakeShare: 0,
});

describe('toCsv', () => {
  it('quotes fields holding a comma, a quote or a line break, doubling quotes, with CRLF lines', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['plain', 'x,y'],
          ['say "hi"', 'two\nlines'],
          [null, 3],
        ],
      ),
    ).toBe('a,b\r\nplain,"x,y"\r\n"say ""hi""","two\nlines"\r\n,3\r\n');
  });
});

describe('stakesFor', () => {
  it('splits the bankroll in proportion to 1/decimal, in cents that add up exactly', () => {
    expect(stakesFor([leg(105), leg(100)], 1000)).toEqual([
      { stake: 493.83, payout: 1012.35 },
      { stake: 506.17, payout: 1012.34 },
    ]);
  });

  it('always adds up to the bankroll to the cent', () => {
    const price = fc.oneof(fc.integer({ min: -2000, max: -100 }), fc.integer({ min: 100, max: 2000 }));
    fc.assert(
      fc.property(fc.array(price, { minLength: 2, maxLength: 3 }), fc.integer({ min: 100, max: 1_000_000_000 }), (prices, cents) => {
        const stakes = stakesFor(prices.map(leg), cents / 100);
        expect(Math.round(stakes.reduce((s, x) => s + x.stake * 100, 0))).toBe(cents);
        for (const s of stakes) expect(Math.round(s.stake * 100)).toBeCloseTo(s.stake * 100, 6);
      }),
    );
  });
});
