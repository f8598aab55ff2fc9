import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { marketWidth } from './width.js';

// The cents convention, from published definitions:
// - Las Vegas Sun, Jeff Haney, "In baseball betting, dime is of the essence" (2004,
//   https://lasvegassun.com/news/2004/may/12/columnist-jeff-haney-in-baseball-betting-dime-is-o/):
//   -150/+140 is a 10-cent (dime) line, -150/+130 a 20-cent line, and the standard -110 football
//   line is a 20-cent line.
// - sportsbetlistings.com, "10-cent Lines Explained"
//   (https://www.sportsbetlistings.com/sports-betting-guide/10-cent-lines/): -105/-105 and
//   -120/+110 are 10-cent lines, -125/+105 is a 20-cent line.
// - mybookie.ag glossary (https://www.mybookie.ag/sports-betting-guide/numbers/): "With a 20-cent
//   line, if the favorite is minus 120, the underdog is even money."

describe('market width in cents', () => {
  it('-110/-110 is 20 cents and -105/-105 is 10 cents', () => {
    expect(marketWidth([-110, -110])).toBe(20);
    expect(marketWidth([-105, -105])).toBe(10);
  });

  it('-150/+130 is 20 cents and -150/+140 is a dime (Las Vegas Sun)', () => {
    expect(marketWidth([-150, 130])).toBe(20);
    expect(marketWidth([-150, 140])).toBe(10);
  });

  it('-120/+110 is 10 cents and -125/+105 is 20 cents (sportsbetlistings.com)', () => {
    expect(marketWidth([-120, 110])).toBe(10);
    expect(marketWidth([-125, 105])).toBe(20);
  });

  it('-120/+100 is 20 cents, -100 counting the same as +100 (mybookie.ag)', () => {
    expect(marketWidth([-120, 100])).toBe(20);
    expect(marketWidth([-120, -100])).toBe(20);
  });

  it('does not depend on the order of the two sides', () => {
    expect(marketWidth([130, -150])).toBe(20);
  });

  it('is zero for an even-money pair and negative when the prices beat even money', () => {
    expect(marketWidth([100, -100])).toBe(0);
    expect(marketWidth([-105, 110])).toBe(-5);
    expect(marketWidth([105, 105])).toBe(-10);
  });

  it('is the sum of the two juices for two favourites: -115/-105 is 20 cents', () => {
    expect(marketWidth([-115, -105])).toBe(20);
  });

  it('rejects anything but two valid American prices', () => {
    expect(() => marketWidth([-110])).toThrow(RangeError);
    expect(() => marketWidth([-110, -110, -110])).toThrow(RangeError);
    expect(() => marketWidth([-110, 50])).toThrow(RangeError);
  });

  it('a fair price against its mirror is always 0 cents wide', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 10_000 }), (price) => {
        expect(marketWidth([price, -price])).toBe(0);
      }),
    );
  });
});
