import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { americanToDecimal } from './conversions.js';
import { TYPICAL_MARGIN_SIGMA, middle, middleHitProbability, spreadMiddle, totalsMiddle, wholeNumbersProbability } from './middles.js';

// Expected probabilities were computed independently with Python's math.erfc:
// Phi(z) = erfc(-z / sqrt 2) / 2. The standard deviations are the published ones in
// TYPICAL_MARGIN_SIGMA (Stern 1991 for the NFL). The push-middle example (Over 50 -110 /
// Under 51 +100) is the one discussed in sharpandsquare.com, "NFL Middle Tables"
// (https://sharpandsquare.com/nfl-middle-tables).

const minus110 = americanToDecimal(-110);
// At -110 / -110 the stakes are 50 / 50, a miss returns 95.45 (-4.545%) and a hit 190.91 (+90.91%).
const MISS_AT_110 = (1 / (2 / minus110) - 1) * 100;
const HIT_AT_110 = (minus110 - 1) * 100;

describe('totals middle', () => {
  const result = totalsMiddle({ line: 44.5, decimalOdds: minus110 }, { line: 47.5, decimalOdds: minus110 }, { sigma: 10 });

  it('Over 44.5 / Under 47.5 wins both on 45, 46 and 47', () => {
    expect(result.isMiddle).toBe(true);
    expect(result.windowWidth).toBe(3);
    expect(result.windowOutcomes).toEqual([45, 46, 47]);
    expect([result.lowerBound, result.upperBound]).toEqual([44.5, 47.5]);
  });

  it('at -110 / -110 stakes 50 / 50, costs 4.545% on a miss and makes 90.91% on a hit', () => {
    expect(result.stakes[0]).toBeCloseTo(50, 12);
    expect(result.stakes[1]).toBeCloseTo(50, 12);
    expect(result.missProfitPercent).toBeCloseTo(-4.545454545, 8);
    expect(result.worstCaseProfitPercent).toBeCloseTo(MISS_AT_110, 12);
    expect(result.maxProfitPercent).toBeCloseTo(90.909090909, 8);
  });

  it('hits 11.92% of the time with sigma 10 around the midpoint 46, for an EV of +6.84%', () => {
    // 2 * Phi(0.15) - 1 = 0.119235384740485.
    expect(result.hitProbability).toBeCloseTo(0.119235384740485, 12);
    expect(result.evPercent).toBeCloseTo(6.836104907046289, 8);
  });

  it('with whole-number lines, Over 44 / Under 47 also pays on the pushes at 44 and 47', () => {
    const integerLines = totalsMiddle({ line: 44, decimalOdds: minus110 }, { line: 47, decimalOdds: minus110 }, { sigma: 10 });
    expect(integerLines.windowOutcomes).toEqual([45, 46]);
    // P(45) + P(46) with mean 45.5 = 0.07965567455405798; each push outcome has P = 0.0394319
    // and returns one stake plus the other leg's win: 50 + 95.45 = 145.45 (+45.45%).
    expect(integerLines.hitProbability).toBeCloseTo(0.07965567455405798, 12);
    expect(integerLines.evPercent).toBeCloseTo(7.001228878185654, 8);
    expect(integerLines.maxProfitPercent).toBeCloseTo(HIT_AT_110, 8);
  });

  it('Over 50 -110 / Under 51 +100 has no window but profits on either push (sharpandsquare.com)', () => {
    const pushes = totalsMiddle({ line: 50, decimalOdds: minus110 }, { line: 51, decimalOdds: 2 }, { sigma: 10 });
    expect(pushes.isMiddle).toBe(false);
    expect(pushes.windowOutcomes).toEqual([]);
    expect(pushes.hitProbability).toBe(0);
    // Stakes 51.16 / 48.84 return 97.67 on a miss; at 50 the Over is refunded: 51.16 + 97.67.
    expect(pushes.stakes[0]).toBeCloseTo(51.16279069767443, 10);
    expect(pushes.missProfitPercent).toBeCloseTo(-2.3255813953488302, 10);
    expect(pushes.maxProfitPercent).toBeCloseTo(48.83720930232559, 10);
    expect(pushes.evPercent).toBeCloseTo(1.6572023323540679, 8);
  });

  it('lines crossed the wrong way (Over 47.5 / Under 44.5) lose both bets on 45-47', () => {
    const crossed = totalsMiddle({ line: 47.5, decimalOdds: minus110 }, { line: 44.5, decimalOdds: minus110 }, { sigma: 10 });
    expect(crossed.isMiddle).toBe(false);
    expect(crossed.windowWidth).toBe(-3);
    expect(crossed.windowOutcomes).toEqual([]);
    expect(crossed.hitProbability).toBe(0);
    expect(crossed.worstCaseProfitPercent).toBe(-100);
    expect(crossed.evPercent).toBeCloseTo(-15.927013997955394, 8);
  });

  it('with half-point lines the continuous model gives the same hit probability', () => {
    const continuous = totalsMiddle(
      { line: 44.5, decimalOdds: minus110 },
      { line: 47.5, decimalOdds: minus110 },
      { sigma: 10, integerScores: false },
    );
    expect(continuous.windowOutcomes).toEqual([]);
    expect(continuous.isMiddle).toBe(true);
    expect(continuous.hitProbability).toBeCloseTo(result.hitProbability, 12);
    expect(continuous.evPercent).toBeCloseTo(result.evPercent, 10);
  });

  it('a mean away from the window lowers the hit probability', () => {
    const offCentre = totalsMiddle({ line: 44.5, decimalOdds: minus110 }, { line: 47.5, decimalOdds: minus110 }, { sigma: 10, mean: 52 });
    expect(offCentre.hitProbability).toBeLessThan(result.hitProbability);
  });
});

describe('spread middle', () => {
  const result = spreadMiddle(
    { line: 3.5, decimalOdds: minus110 },
    { line: -1.5, decimalOdds: minus110 },
    { sigma: TYPICAL_MARGIN_SIGMA.nfl },
  );

  it('Team A +3.5 / Team B -1.5 wins both when A loses by 2 or 3', () => {
    expect(result.isMiddle).toBe(true);
    expect([result.lowerBound, result.upperBound]).toEqual([-3.5, -1.5]);
    expect(result.windowWidth).toBe(2);
    expect(result.windowOutcomes).toEqual([-3, -2]);
  });

  it('hits 5.75% of the time with the NFL sigma of 13.86 around -2.5', () => {
    // 2 * Phi(1 / 13.86) - 1 = 0.05751752178828856.
    expect(result.hitProbability).toBeCloseTo(0.05751752178828856, 12);
    expect(result.evPercent).toBeCloseTo(0.9448543525184467, 8);
  });

  it('key-number weights raise the chance of landing on 3', () => {
    // A +3.5 / B -2.5 wins both only when A loses by exactly 3. With mean -3, P(-3) = 0.0287775;
    // tripling the mass on margins of 3 either way: 3 * 0.0287775 / (1 + 2 * 0.0287775 +
    // 2 * P(3)) = 0.07777947509042535.
    const legs = [
      { line: 3.5, decimalOdds: minus110 },
      { line: -2.5, decimalOdds: minus110 },
    ] as const;
    const plain = spreadMiddle(legs[0], legs[1], { sigma: 13.86 });
    const weighted = spreadMiddle(legs[0], legs[1], {
      sigma: 13.86,
      keyNumberWeights: [
        [-3, 3],
        [3, 3],
      ],
    });
    expect(plain.windowOutcomes).toEqual([-3]);
    expect(plain.hitProbability).toBeCloseTo(0.028777472306130925, 12);
    expect(weighted.hitProbability).toBeCloseTo(0.07777947509042535, 12);
  });

  it("a pick'em line (0) on team A gives no negative zero bound", () => {
    const pickem = spreadMiddle({ line: 0, decimalOdds: minus110 }, { line: 2.5, decimalOdds: minus110 }, { sigma: 12 });
    expect(Object.is(pickem.lowerBound, 0)).toBe(true);
    expect(pickem.windowOutcomes).toEqual([1, 2]);
  });
});

describe('middle dispatch and validation', () => {
  const over = { line: 44.5, decimalOdds: minus110 };
  const under = { line: 47.5, decimalOdds: minus110 };

  it('middle("total") and middle("spread") are totalsMiddle and spreadMiddle', () => {
    expect(middle('total', over, under, { sigma: 10 })).toEqual(totalsMiddle(over, under, { sigma: 10 }));
    const a = { line: 3.5, decimalOdds: minus110 };
    const b = { line: -1.5, decimalOdds: 2 };
    expect(middle('spread', a, b, { sigma: 12 })).toEqual(spreadMiddle(a, b, { sigma: 12 }));
  });

  it('publishes the margin standard deviations it cites', () => {
    expect(TYPICAL_MARGIN_SIGMA).toEqual({ nfl: 13.86, nba: 12, ncaaf: 16, ncaab: 10 });
  });

  it('rejects unknown markets, bad sigma, bad bankroll, bad prices and absurd lines', () => {
    expect(() => middle('moneyline' as 'total', over, under, { sigma: 10 })).toThrow(RangeError);
    expect(() => totalsMiddle(over, under, { sigma: 0 })).toThrow(/sigma/);
    expect(() => totalsMiddle(over, under, { sigma: Number.NaN })).toThrow(RangeError);
    expect(() => totalsMiddle(over, under, { sigma: 10, bankroll: -1 })).toThrow(/bankroll/);
    expect(() => totalsMiddle(over, { line: 47.5, decimalOdds: 1 }, { sigma: 10 })).toThrow(RangeError);
    expect(() => totalsMiddle(over, { line: 5000, decimalOdds: 2 }, { sigma: 10 })).toThrow(RangeError);
    expect(() => totalsMiddle(over, { line: Number.POSITIVE_INFINITY, decimalOdds: 2 }, { sigma: 10 })).toThrow(RangeError);
  });

  it('rejects key-number weights that are not [integer, weight >= 0], repeated, or on continuous scores', () => {
    const model = (keyNumberWeights: readonly (readonly [number, number])[]) => ({
      sigma: 10,
      keyNumberWeights,
    });
    expect(() => totalsMiddle(over, under, model([[45.5, 2]]))).toThrow(RangeError);
    expect(() => totalsMiddle(over, under, model([[45, -1]]))).toThrow(RangeError);
    expect(() =>
      totalsMiddle(
        over,
        under,
        model([
          [45, 2],
          [45, 3],
        ]),
      ),
    ).toThrow(/twice/);
    expect(() => totalsMiddle(over, under, { sigma: 10, integerScores: false, keyNumberWeights: [[45, 2]] })).toThrow(/integer scores/);
  });

  it('middleHitProbability is zero without a window and the normal mass of the window otherwise', () => {
    expect(middleHitProbability(47.5, 44.5, 46, 10)).toBe(0);
    expect(middleHitProbability(45, 46, 45.5, 10)).toBe(0);
    expect(middleHitProbability(44.5, 47.5, 46, 10)).toBeCloseTo(0.119235384740485, 12);
  });
});

describe('middle properties', () => {
  const leg = fc.record({
    line: fc.integer({ min: 0, max: 120 }).map((half) => half / 2),
    decimalOdds: fc.double({ min: 1.5, max: 3, noNaN: true }),
  });
  const model = fc.record({
    sigma: fc.double({ min: 2, max: 20, noNaN: true }),
    bankroll: fc.double({ min: 1, max: 10_000, noNaN: true }),
  });

  it('stakes sum to the bankroll and a miss costs the same whichever leg wins', () => {
    fc.assert(
      fc.property(leg, leg, model, (a, b, m) => {
        const result = totalsMiddle(a, b, m);
        const [stakeA, stakeB] = result.stakes;
        expect(Math.abs(stakeA + stakeB - m.bankroll) / m.bankroll).toBeLessThan(1e-12);
        expect(stakeA * a.decimalOdds).toBeCloseTo(stakeB * b.decimalOdds, 6);
        const impliedSum = 1 / a.decimalOdds + 1 / b.decimalOdds;
        expect(result.missProfitPercent).toBeCloseTo((1 / impliedSum - 1) * 100, 9);
      }),
    );
  });

  it('orders the outcomes: worst <= miss <= max, hit probability in [0, 1], EV between worst and max', () => {
    fc.assert(
      fc.property(leg, leg, model, (a, b, m) => {
        const result = totalsMiddle(a, b, m);
        expect(result.worstCaseProfitPercent).toBeLessThanOrEqual(result.missProfitPercent);
        expect(result.missProfitPercent).toBeLessThanOrEqual(result.maxProfitPercent);
        expect(result.hitProbability).toBeGreaterThanOrEqual(0);
        expect(result.hitProbability).toBeLessThanOrEqual(1);
        expect(result.evPercent).toBeGreaterThanOrEqual(result.worstCaseProfitPercent - 1e-9);
        expect(result.evPercent).toBeLessThanOrEqual(result.maxProfitPercent + 1e-9);
      }),
    );
  });

  it('with half-point lines and a window, EV = p * hit + (1 - p) * miss', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 1.5, max: 3, noNaN: true }),
        fc.double({ min: 1.5, max: 3, noNaN: true }),
        fc.double({ min: 2, max: 20, noNaN: true }),
        (start, width, oddsA, oddsB, sigma) => {
          const result = totalsMiddle(
            { line: start + 0.5, decimalOdds: oddsA },
            { line: start + width + 0.5, decimalOdds: oddsB },
            { sigma },
          );
          const p = result.hitProbability;
          expect(result.windowOutcomes).toHaveLength(width);
          expect(result.evPercent).toBeCloseTo(p * result.maxProfitPercent + (1 - p) * result.missProfitPercent, 8);
        },
      ),
    );
  });

  it('without key numbers the hit probability does not depend on where scores are counted from', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.double({ min: 2, max: 20, noNaN: true }), (shift, sigma) => {
        const base = middleHitProbability(44.5, 47.5, 46, sigma);
        expect(middleHitProbability(44.5 + shift, 47.5 + shift, 46 + shift, sigma)).toBeCloseTo(base, 12);
      }),
    );
  });
});

describe('probability of whole-number outcomes', () => {
  it('gives each whole number the normal mass of [x - 0.5, x + 0.5]', () => {
    expect(wholeNumbersProbability([0], 0, 1)).toBe(0.38292492254802607);
    expect(wholeNumbersProbability([3], 0, TYPICAL_MARGIN_SIGMA.nfl)).toBe(0.02811147009697368);
  });

  it('adds the outcomes up, and is 0 for none', () => {
    expect(wholeNumbersProbability([-3, 3, 7], -2.5, TYPICAL_MARGIN_SIGMA.nfl)).toBe(0.07811337391140777);
    expect(wholeNumbersProbability([], 1, 2)).toBe(0);
  });

  it('agrees with the hit probability of the window the outcomes fill, without key-number weights', () => {
    const window = [45, 46, 47];
    expect(wholeNumbersProbability(window, 46.5, 10)).toBeCloseTo(middleHitProbability(44.5, 47.5, 46.5, 10), 12);
  });

  it('throws a RangeError for a sigma that is not positive or a mean that is not finite', () => {
    expect(() => wholeNumbersProbability([3], 0, 0)).toThrow(RangeError);
    expect(() => wholeNumbersProbability([3], Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('middle at the stakes the caller placed', () => {
  // Over 44.5 at 2.0 for 100 and Under 47.5 at 1.9 for 120 (220 staked), sigma 10 about 46.
  // Below 45 only the Under wins: 228 - 220 = +8; above 47 only the Over: 200 - 220 = -20; on
  // 45-47 both: 428 - 220 = +208. Probabilities from Python's math.erfc: 0.4403823076297575
  // below, the same above, 0.119235384740485 inside; expected profit 8.871078333847178 %.
  const result = totalsMiddle({ line: 44.5, decimalOdds: 2 }, { line: 47.5, decimalOdds: 1.9 }, { sigma: 10, stakes: [100, 120] });

  it('keeps the stakes and reports each miss on its own', () => {
    expect(result.stakes).toEqual([100, 120]);
    expect(result.missProfitPercents[0]).toBeCloseTo((8 / 220) * 100, 10);
    expect(result.missProfitPercents[1]).toBeCloseTo((-20 / 220) * 100, 10);
    expect(result.maxProfitPercent).toBeCloseTo((208 / 220) * 100, 10);
    expect(result.worstCaseProfitPercent).toBeCloseTo((-20 / 220) * 100, 10);
  });

  it('weighs each miss by its own probability in the expected profit', () => {
    expect(result.evPercent).toBeCloseTo(8.871078333847178, 8);
  });

  it('gives the proportional split the same answer as before when its stakes are passed in', () => {
    const split = totalsMiddle({ line: 44.5, decimalOdds: minus110 }, { line: 47.5, decimalOdds: minus110 }, { sigma: 10 });
    const given = totalsMiddle(
      { line: 44.5, decimalOdds: minus110 },
      { line: 47.5, decimalOdds: minus110 },
      { sigma: 10, stakes: [50, 50] },
    );
    expect(given.evPercent).toBeCloseTo(split.evPercent, 10);
    expect(split.missProfitPercents).toEqual([split.missProfitPercent, split.missProfitPercent]);
  });

  it('refuses a negative stake', () => {
    expect(() => totalsMiddle({ line: 44.5, decimalOdds: 2 }, { line: 47.5, decimalOdds: 2 }, { sigma: 10, stakes: [-1, 10] })).toThrow(
      RangeError,
    );
  });
});
