import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { arbitrage } from './arbitrage.js';

// Worked examples:
// - arbplay.app, "How to Calculate a Sure Bet" (https://arbplay.app/guides/how-to-calculate-a-sure-bet):
//   2.08 / 2.00 with €100 -> stakes €49.02 / €50.98, return €101.96 either way.
// - rommelbartolome.com, "Arbitrage betting" (https://rommelbartolome.com/arbitrage-betting):
//   2.25 / 3.5 / 3.6 sum to 100.79% (no arbitrage).
// (oddsfetcher.com's surebet guide was considered and left out: it sums implied probabilities
// rounded to 4 decimals, so its stakes are off by up to 15 cents per $1000.)

describe('arbitrage', () => {
  it('a 1X2 at 2.80 / 3.50 / 3.00 with 500 sums to 0.97619 and makes 2.439%', () => {
    // 1/2.8 + 1/3.5 + 1/3 = 0.357143 + 0.285714 + 0.333333 = 0.976190; 1/0.976190 - 1 = 2.439%.
    // Stakes 500 * 0.357143 / 0.976190 = 182.93, 146.34, 170.73; each returns 512.20.
    const result = arbitrage([2.8, 3.5, 3], 500);
    expect(result.isArb).toBe(true);
    expect(result.impliedSum).toBeCloseTo(0.97619, 5);
    expect(result.profitPercent).toBeCloseTo(2.439, 3);
    expect(result.stakes[0]).toBeCloseTo(182.93, 2);
    expect(result.stakes[1]).toBeCloseTo(146.34, 2);
    expect(result.stakes[2]).toBeCloseTo(170.73, 2);
    expect(result.payout).toBeCloseTo(512.2, 2);
  });

  it('2.08 / 2.00 with 100 makes 1.96%, stakes 49.02 / 50.98 and returns 101.96 (arbplay.app)', () => {
    const result = arbitrage([2.08, 2], 100);
    expect(result.isArb).toBe(true);
    expect(result.impliedSum).toBeCloseTo(0.9808, 4);
    expect(result.profitPercent).toBeCloseTo(1.96, 2);
    expect(result.stakes[0]).toBeCloseTo(49.02, 2);
    expect(result.stakes[1]).toBeCloseTo(50.98, 2);
    expect(result.payout).toBeCloseTo(101.96, 2);
  });

  it('2.25 / 3.5 / 3.6 sums to 100.79% and is no arbitrage (rommelbartolome.com)', () => {
    const result = arbitrage([2.25, 3.5, 3.6]);
    expect(result.isArb).toBe(false);
    expect(result.impliedSum).toBeCloseTo(1.0079, 4);
    expect(result.profitPercent).toBeLessThan(0);
  });

  it('an even-money pair breaks even and is not an arbitrage', () => {
    expect(arbitrage([2, 2])).toEqual({
      isArb: false,
      profitPercent: 0,
      impliedSum: 1,
      stakes: [50, 50],
      payout: 100,
    });
  });

  it('defaults the bankroll to 100 and rejects a bankroll that is not positive', () => {
    expect(arbitrage([2.1, 2.1]).stakes).toEqual([50, 50]);
    expect(() => arbitrage([2.1, 2.1], 0)).toThrow(RangeError);
    expect(() => arbitrage([2.1, 2.1], Number.NaN)).toThrow(RangeError);
    expect(() => arbitrage([2.1])).toThrow(RangeError);
  });

  it('stakes sum to the bankroll and every outcome pays the same', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1.01, max: 50, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.double({ min: 1, max: 1_000_000, noNaN: true }),
        (odds, bankroll) => {
          const result = arbitrage(odds, bankroll);
          const staked = result.stakes.reduce((sum, s) => sum + s, 0);
          expect(Math.abs(staked - bankroll) / bankroll).toBeLessThan(1e-12);
          result.stakes.forEach((stake, i) => {
            const payout = stake * (odds[i] ?? 0);
            expect(Math.abs(payout - result.payout) / result.payout).toBeLessThan(1e-12);
          });
          expect(result.isArb).toBe(result.profitPercent > 0);
        },
      ),
    );
  });
});
