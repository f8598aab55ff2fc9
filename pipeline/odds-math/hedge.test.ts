import { describe, it, expect } from 'vitest';
import { hedge } from './hedge.js';

// Hand-derived examples. The two-way case is the textbook hedge, stake = original stake x
// original price / hedge price (100 x 3.0 / 1.8 = 166.67), which levels both outcomes.

describe('hedge solver', () => {
  it('levels a 100 at 3.0 bet on A with 166.67 on B at 1.8, locking in 33.33', () => {
    const result = hedge([{ outcome: 0, stake: 100, decimalOdds: 3 }], [2, 1.8]);
    expect(result.stakes[0]).toBe(0);
    expect(result.stakes[1]).toBeCloseTo(300 / 1.8, 10);
    expect(result.worstCaseProfit).toBeCloseTo(100 / 3, 10);
    expect(result.profits[0]).toBeCloseTo(result.profits[1] ?? NaN, 10);
  });

  it('covers both other outcomes of a three-way market and leaves 20/33 whatever wins', () => {
    // 10 at 5.0 on outcome 0 locks [40, -10, -10]; now [3.5, 2.2, 3.0]. Lifting the two losers to
    // 40 costs 50/2.2 + 50/3 = 39.39; adding outcome 0 too would cost more than it lifts
    // (1/3.5 + 1/2.2 + 1/3 > 1).
    const result = hedge([{ outcome: 0, stake: 10, decimalOdds: 5 }], [3.5, 2.2, 3]);
    expect(result.stakes[0]).toBe(0);
    expect(result.stakes[1]).toBeCloseTo(50 / 2.2, 10);
    expect(result.stakes[2]).toBeCloseTo(50 / 3, 10);
    for (const profit of result.profits) expect(profit).toBeCloseTo(20 / 33, 10);
  });

  it('cuts a worst case of -100 to -33.33 when the other side has shortened', () => {
    // 100 on A at 2.0 locks [100, -100]; B now at 1.5: lifting B to 100 costs 200/1.5 = 133.33.
    const result = hedge([{ outcome: 0, stake: 100, decimalOdds: 2 }], [1.9, 1.5]);
    expect(result.stakes[1]).toBeCloseTo(200 / 1.5, 10);
    expect(result.worstCaseProfit).toBeCloseTo(-100 / 3, 10);
    expect(result.profits[0]).toBeCloseTo(result.profits[1] ?? NaN, 10);
  });

  it('on an arbitrage needs a budget, and then spends exactly it', () => {
    expect(() => hedge([], [2.1, 2.1])).toThrow(/budget/);
    const result = hedge([], [2.1, 2.1], 100);
    expect(result.stakes[0]).toBeCloseTo(50, 10);
    expect(result.stakes[1]).toBeCloseTo(50, 10);
    expect(result.worstCaseProfit).toBeCloseTo(5, 10);
  });

  it('refuses a position on an outcome the market does not have', () => {
    expect(() => hedge([{ outcome: 2, stake: 10, decimalOdds: 2 }], [2, 2])).toThrow(RangeError);
    expect(() => hedge([{ outcome: 0, stake: 0, decimalOdds: 2 }], [2, 2])).toThrow(RangeError);
  });
});
