import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { americanToDecimal } from './conversions.js';
import {
  DEVIG_METHODS,
  RECIPE_DEVIG_METHODS,
  deVig,
  deVigAdditive,
  deVigEfficientShin,
  deVigGoto,
  deVigImplied,
  deVigMultiplicative,
  deVigPower,
  deVigLogit,
  deVigOddsRatio,
  deVigShin,
  deVigWorstCase,
  oddsRatio,
  powerExponent,
  shinZ,
} from './devig.js';

// Worked examples:
// - R package `implied` by Jonas C. Lindstrøm, README (https://github.com/opisthokonta/implied):
//   three football 1X2 markets with their basic (multiplicative), Shin, power and WPO results.
//   Its Shin and power solvers use R's uniroot at the default tolerance (about 1e-4 on the
//   parameter, R/implied_probabilities.R), so they agree with ours to 5 decimals; the basic and
//   WPO methods are closed forms and agree to the 7 printed decimals. WPO as written there,
//   p = (n - M*O) / (n*O) = 1/O - M/n, is algebraically the additive method.
// - Python package `shin` by Maurice Berk, README and tests/test_shin.py
//   (https://github.com/mberk/shin): [2.6, 2.4, 4.3] -> [0.37299406033208965,
//   0.4047794109200184, 0.2222265287474275], z = 0.01694251276407055; and for two outcomes Shin
//   equals the additive method (Clarke et al. 2017), checked on [1.5, 2.74].
// - Clarke, Kovalchik & Ingram (2017), "Adjusting Bookmaker's Odds to Allow for Overround",
//   American Journal of Sports Science 5(6), as quoted in the `implied` vignette: the six-runner
//   market with implied probabilities [0.870, 0.2, 0.1, 0.05, 0.02, 0.01], on which the textbook
//   additive method gives negative probabilities.

const IMPLIED_README_ODDS = [
  [4.2, 3.7, 1.95],
  [2.45, 3.7, 2.9],
  [2.05, 3.2, 3.8],
];

function expectAllClose(actual: number[], expected: number[], digits: number): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, i) => expect(actual[i]).toBeCloseTo(value, digits));
}

/** Slack for comparisons that floating-point rounding can flip: far below any price step. */
const ROUNDING = 1e-12;

const sumOf = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0);

/** Implied probabilities of a random market: n outcomes, margin in [minMargin, maxMargin]. */
function impliedMarket(minMargin: number, maxMargin: number) {
  return fc
    .record({
      weights: fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), {
        minLength: 2,
        maxLength: 6,
      }),
      margin: fc.double({ min: minMargin, max: maxMargin, noNaN: true }),
    })
    .map(({ weights, margin }) => {
      const total = sumOf(weights);
      return weights.map((w) => (w / total) * (1 + margin));
    })
    .filter((implied) => implied.every((r) => r < 1));
}

const oddsMarket = (minMargin: number, maxMargin: number) =>
  impliedMarket(minMargin, maxMargin).map((implied) => implied.map((r) => 1 / r));

describe('a -110/-110 market', () => {
  const odds = [americanToDecimal(-110), americanToDecimal(-110)];

  for (const method of DEVIG_METHODS) {
    it(`${method} de-vig gives 0.5/0.5`, () => {
      expectAllClose(deVig(method, odds), [0.5, 0.5], 12);
    });
  }
});

describe('multiplicative de-vig', () => {
  it('of -150/+130 gives 0.5798/0.4202', () => {
    // 0.6 and 0.434783 sum to 1.034783; 0.6 / 1.034783 = 0.579832.
    const fair = deVigMultiplicative([americanToDecimal(-150), americanToDecimal(130)]);
    expectAllClose(fair, [0.579832, 0.420168], 6);
  });

  it('matches the basic method of the `implied` R package on its three 1X2 markets', () => {
    const expected = [
      [0.2331556, 0.2646631, 0.5021813],
      [0.3988848, 0.2641264, 0.3369888],
      [0.4586948, 0.2938514, 0.2474538],
    ];
    IMPLIED_README_ODDS.forEach((odds, i) => {
      expectAllClose(deVigMultiplicative(odds), expected[i] ?? [], 7);
    });
  });
});

describe('power de-vig', () => {
  it('matches the power method of the `implied` R package to 5 decimals', () => {
    const expected = [
      [0.2311414, 0.2630644, 0.5057942],
      [0.4003156, 0.2627189, 0.3369655],
      [0.4667139, 0.2908985, 0.2423876],
    ];
    IMPLIED_README_ODDS.forEach((odds, i) => {
      expectAllClose(deVigPower(odds), expected[i] ?? [], 5);
    });
  });

  it('finds the exponent the `implied` package reports (it prints 1/k: 0.9797664, 0.9788115, 0.9419744)', () => {
    const inverseExponents = [0.9797664, 0.9788115, 0.9419744];
    IMPLIED_README_ODDS.forEach((odds, i) => {
      expect(1 / powerExponent(odds)).toBeCloseTo(inverseExponents[i] ?? 0, 4);
    });
  });

  it('satisfies its defining equation: the implied probabilities to the power k sum to 1', () => {
    const odds = [1.5, 4.2, 6.5];
    const k = powerExponent(odds);
    expect(sumOf(odds.map((d) => (1 / d) ** k))).toBeCloseTo(1, 12);
    expect(k).toBeGreaterThan(1);
  });

  it('takes more of the margin from the longshot than multiplicative does', () => {
    const odds = [1.25, 4.5];
    const power = deVigPower(odds);
    const multiplicative = deVigMultiplicative(odds);
    expect(power[1] ?? 1).toBeLessThan(multiplicative[1] ?? 0);
  });

  it('has exponent 1 and changes nothing in a margin-free market', () => {
    expect(powerExponent([2, 4, 4])).toBe(1);
    expect(deVigPower([2, 4, 4])).toEqual([0.5, 0.25, 0.25]);
  });
});

describe('additive de-vig', () => {
  it('matches the WPO (= additive) results of the `implied` R package on its three 1X2 markets', () => {
    const expected = [
      [0.2310332, 0.2632083, 0.5057585],
      [0.4004096, 0.2625166, 0.3370739],
      [0.4666506, 0.2913457, 0.2420036],
    ];
    IMPLIED_README_ODDS.forEach((odds, i) => {
      expectAllClose(deVigAdditive(odds), expected[i] ?? [], 7);
    });
  });

  it('subtracts an equal share of the overround: 0.55/0.5 becomes 0.525/0.475', () => {
    expectAllClose(deVigAdditive([1 / 0.55, 1 / 0.5]), [0.525, 0.475], 12);
  });

  it("caps longshots at half their implied probability in Clarke et al.'s six-runner market", () => {
    // Overround 0.25. Equal shares of 0.04167 would make the 0.02 and 0.01 runners negative.
    // Capped at half: 0.01 and 0.005 leave 0.235 for four runners (0.05875 each), which
    // exceeds the 0.05 runner's cap of 0.025; that leaves 0.21 for three (0.07 each), over the
    // 0.1 runner's cap of 0.05; that leaves 0.16 for the two favourites, 0.08 each.
    const fair = deVigAdditive([0.87, 0.2, 0.1, 0.05, 0.02, 0.01].map((r) => 1 / r));
    expectAllClose(fair, [0.79, 0.12, 0.05, 0.025, 0.01, 0.005], 12);
  });

  it('adds the shortfall equally in an underround market', () => {
    expectAllClose(deVigAdditive([1 / 0.45, 1 / 0.45]), [0.5, 0.5], 12);
    expectAllClose(deVigAdditive([1 / 0.6, 1 / 0.3]), [0.65, 0.35], 12);
  });

  it('refuses a market with more than 100% overround', () => {
    expect(() => deVigAdditive([1.01, 1.01, 1.01])).toThrow(RangeError);
  });
});

describe('Shin de-vig', () => {
  it('matches the `shin` Python package on [2.6, 2.4, 4.3]', () => {
    expectAllClose(deVigShin([2.6, 2.4, 4.3]), [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], 10);
    expect(shinZ([2.6, 2.4, 4.3])).toBeCloseTo(0.01694251276407055, 10);
  });

  it('equals the additive method for two outcomes ([1.5, 2.74], `shin` tests)', () => {
    const implied = [1 / 1.5, 1 / 2.74];
    const excess = sumOf(implied) - 1;
    expectAllClose(
      deVigShin([1.5, 2.74]),
      implied.map((r) => r - excess / 2),
      12,
    );
  });

  it('matches the closed-form z of the `shin` package for two outcomes', () => {
    const [a, b] = [1 / 1.5, 1 / 2.74];
    const total = a + b;
    const diff = a - b;
    const z = ((total - 1) * (diff ** 2 - total)) / (total * (diff ** 2 - 1));
    expect(shinZ([1.5, 2.74])).toBeCloseTo(z, 12);
  });

  it('matches the Shin method of the `implied` R package to 5 decimals', () => {
    const expected = [
      [0.2315716, 0.2635742, 0.5048542],
      [0.4000221, 0.2629271, 0.3370508],
      [0.4645882, 0.2919788, 0.2434331],
    ];
    IMPLIED_README_ODDS.forEach((odds, i) => {
      expectAllClose(deVigShin(odds), expected[i] ?? [], 5);
    });
  });

  it('has z = 0 in a margin-free market and a negative z in an underround one', () => {
    expect(shinZ([2, 4, 4])).toBe(0);
    expect(shinZ([2.1, 2.1])).toBeLessThan(0);
  });
});

describe('dispatch and validation', () => {
  it('lists the six methods, power first as the default', () => {
    expect(DEVIG_METHODS).toEqual(['power', 'multiplicative', 'additive', 'shin', 'odds_ratio', 'logit']);
  });

  it('deVigImplied takes implied probabilities and agrees with deVig on the prices', () => {
    const odds = [2.6, 2.4, 4.3];
    for (const method of DEVIG_METHODS) {
      expect(
        deVigImplied(
          method,
          odds.map((d) => 1 / d),
        ),
      ).toEqual(deVig(method, odds));
    }
  });

  it('rejects an unknown method, a one-outcome market and invalid prices', () => {
    expect(() => deVig('fancy' as 'power', [1.9, 1.9])).toThrow(/unknown de-vig method "fancy"/);
    expect(() => deVigPower([1.9])).toThrow(RangeError);
    expect(() => deVigShin([1.9, 0.9])).toThrow(RangeError);
    expect(() => deVigImplied('power', [0.5, 1])).toThrow(RangeError);
  });
});

describe('properties of every method', () => {
  for (const method of DEVIG_METHODS) {
    it(`${method}: fair probabilities sum to 1 and lie in (0, 1) for 2-6 outcomes with 0-20% overround`, () => {
      fc.assert(
        fc.property(oddsMarket(0, 0.2), (odds) => {
          const fair = deVig(method, odds);
          expect(Math.abs(sumOf(fair) - 1)).toBeLessThan(1e-9);
          for (const p of fair) {
            expect(p).toBeGreaterThan(0);
            expect(p).toBeLessThan(1);
          }
        }),
        { numRuns: 500 },
      );
    });

    it(`${method}: also sums to 1 within (0, 1) in underround markets (best prices across books)`, () => {
      fc.assert(
        fc.property(oddsMarket(-0.1, 0), (odds) => {
          const fair = deVig(method, odds);
          expect(Math.abs(sumOf(fair) - 1)).toBeLessThan(1e-9);
          for (const p of fair) {
            expect(p).toBeGreaterThan(0);
            expect(p).toBeLessThan(1);
          }
        }),
      );
    });

    it(`${method}: leaves a margin-free market unchanged`, () => {
      fc.assert(
        fc.property(impliedMarket(0, 0), (implied) => {
          const fair = deVigImplied(method, implied);
          implied.forEach((r, i) => expect(fair[i]).toBeCloseTo(r / sumOf(implied), 9));
        }),
      );
    });

    it(`${method}: keeps the order of the outcomes (a shorter price never gets a lower fair probability)`, () => {
      fc.assert(
        fc.property(impliedMarket(0, 0.2), (implied) => {
          const fair = deVigImplied(method, implied);
          // Two implied probabilities a few ulps apart can come out in the other order after
          // the solver's arithmetic (CI drew 0.45847520481388376 against 0.4584752048138838),
          // so the order is asserted up to rounding, not to the last bit.
          implied.forEach((ri, i) =>
            implied.forEach((rj, j) => {
              if (ri > rj) expect((fair[i] ?? 0) - (fair[j] ?? 1)).toBeGreaterThan(-ROUNDING);
            }),
          );
        }),
      );
    });
  }

  it("power: raising one outcome's implied probability raises its fair probability", () => {
    fc.assert(
      fc.property(impliedMarket(0, 0.2), fc.nat(), fc.double({ min: 0.001, max: 0.2, noNaN: true }), (implied, pick, bump) => {
        const i = pick % implied.length;
        const raised = implied.map((r, j) => (j === i ? r * (1 + bump) : r));
        fc.pre(raised.every((r) => r < 1));
        const before = deVigImplied('power', implied)[i] ?? 1;
        const after = deVigImplied('power', raised)[i] ?? 0;
        expect(after).toBeGreaterThan(before);
      }),
    );
  });
});

// Odds-ratio method: the `implied` README (opisthokonta/implied, the version that prints the
// results) runs method = 'or' on the same three football markets as above and prints
//   [0.2320048 0.2636415 0.5043537], [0.3996912 0.2633869 0.3369219], [0.4634406 0.2919032 0.2446562]
// with odds ratios 1.034449, 1.035805, 1.102606. Its solver is R's uniroot at the default
// tolerance, so we agree to 5 decimals on the probabilities and 4 on the ratios.
describe('odds-ratio (Cheung) de-vig', () => {
  const expected = [
    [0.2320048, 0.2636415, 0.5043537],
    [0.3996912, 0.2633869, 0.3369219],
    [0.4634406, 0.2919032, 0.2446562],
  ];
  const ratios = [1.034449, 1.035805, 1.102606];
  IMPLIED_README_ODDS.forEach((odds, k) => {
    it(`reproduces the implied README on ${odds.join('/')}`, () => {
      expectAllClose(deVigOddsRatio(odds), expected[k] as number[], 5);
      expect(oddsRatio(odds)).toBeCloseTo(ratios[k] as number, 4);
    });
  });

  it('holds one odds ratio across every outcome', () => {
    const odds = [2.05, 3.2, 3.8];
    const fair = deVigOddsRatio(odds);
    const ors = odds.map((d, i) => {
      const r = 1 / d;
      const p = fair[i] as number;
      return (r * (1 - p)) / (p * (1 - r));
    });
    for (const c of ors) expect(c).toBeCloseTo(ors[0] as number, 9);
  });

  it('of -110/-110 is 0.5/0.5, and of -150/+130 lies between multiplicative and power on the favourite', () => {
    expectAllClose(deVigOddsRatio([americanToDecimal(-110), americanToDecimal(-110)]), [0.5, 0.5], 12);
    const odds = [americanToDecimal(-150), americanToDecimal(130)];
    const fav = deVigOddsRatio(odds)[0] as number;
    expect(fav).toBeGreaterThan(deVigMultiplicative(odds)[0] as number);
    expect(fav).toBeLessThan((deVigPower(odds)[0] as number) + 1e-3);
  });
});

describe('logit-shift de-vig', () => {
  it('is the odds-ratio model on the log-odds scale: same probabilities, solved independently', () => {
    for (const odds of [...IMPLIED_README_ODDS, [1.5, 2.74], [2.6, 2.4, 4.3], [1.19, 7, 14]]) {
      expectAllClose(deVigLogit(odds), deVigOddsRatio(odds), 9);
    }
  });

  it('shifts every outcome by the same amount in log-odds', () => {
    const odds = [4.2, 3.7, 1.95];
    const fair = deVigLogit(odds);
    const logit = (p: number): number => Math.log(p / (1 - p));
    const shifts = odds.map((d, i) => logit(1 / d) - logit(fair[i] as number));
    for (const s of shifts) expect(s).toBeCloseTo(shifts[0] as number, 9);
    // ln of the README's odds ratio for this market, 1.034449.
    expect(shifts[0]).toBeCloseTo(Math.log(1.034449), 4);
  });
});

describe('worst-case screen', () => {
  it('takes, per outcome, the lowest fair probability of any method', () => {
    const odds = [4.2, 3.7, 1.95];
    const all = DEVIG_METHODS.map((m) => deVig(m, odds));
    const worst = deVigWorstCase(odds);
    worst.forEach((p, i) => expect(p).toBe(Math.min(...all.map((f) => f[i] as number))));
    // README values: the longshot's lowest is the additive method's (the README's WPO, which is
    // the additive method, 0.2310332); the favourite's is the basic method's 0.5021813.
    expect(worst[0]).toBeCloseTo(0.2310332, 6);
    expect(worst[2]).toBeCloseTo(0.5021813, 4);
  });

  it('does not sum to 1 when the methods disagree: it is a screen, not a distribution', () => {
    const worst = deVigWorstCase([4.2, 3.7, 1.95]);
    expect(sumOf(worst)).toBeLessThan(1);
  });

  it('still answers when the additive method cannot (overround above 100 %)', () => {
    const worst = deVigWorstCase([1.05, 1.05, 1.05]);
    expect(worst).toHaveLength(3);
    for (const p of worst) expect(p).toBeGreaterThan(0);
  });
});

describe('goto conversion (goto_conversion README, github.com/gotoConversion/goto_conversion)', () => {
  it('turns [1.2, 3.4, 5.6] into the README values', () => {
    expectAllClose(deVigGoto([1.2, 3.4, 5.6]), [0.7753528189788175, 0.17479473292721065, 0.04985244809397199], 14);
  });

  it('gives the same from the README American prices -500 / +240 / +460', () => {
    expectAllClose(deVigGoto([-500, 240, 460].map(americanToDecimal)), [0.7753528189788175, 0.17479473292721065, 0.04985244809397199], 14);
  });

  it('refuses a margin so large that a longshot would fall to zero or below', () => {
    expect(() => deVigGoto([1.1, 1.5, 40])).toThrow(RangeError);
  });
});

describe('efficient (per-outcome) Shin of Kizildemir, Akin & Alkan 2024', () => {
  // The goto_conversion README's test cases for efficient_shin_conversion, which it states match
  // the first three rows of table 1 of the paper.
  it.each([
    [
      [1.22, 4.57, 6.54],
      [0.8005889182988829, 0.13614976602243348, 0.0632613156786835],
    ],
    [
      [1.22, 4.63, 6.38],
      [0.8004787158953608, 0.1325348922189233, 0.0669863918857159],
    ],
    [
      [1.17, 4.97, 7.57],
      [0.8396249156189404, 0.11832615760257503, 0.04204892677848464],
    ],
  ])('%j gives the published %j', (odds, expected) => {
    expectAllClose(deVigEfficientShin(odds), expected, 14);
  });

  it("equals Shin's method on two outcomes, where the per-outcome z is Shin's own closed form", () => {
    expectAllClose(deVigEfficientShin([1.5, 2.74]), deVigShin([1.5, 2.74]), 10);
  });

  it('is reachable by name as a recipe method, but is not one the pipeline stores', () => {
    expect(deVig('efficient_shin', [1.22, 4.57, 6.54])).toEqual(deVigEfficientShin([1.22, 4.57, 6.54]));
    expect(RECIPE_DEVIG_METHODS).toEqual([...DEVIG_METHODS, 'efficient_shin', 'goto']);
  });

  it('splits a field of equal prices equally, even where the rest is priced above 1 plus its own', () => {
    // Twenty runners at 10.0: each faces a rest of 1.9; z_i = 1.24 / 4.48 for all of them.
    for (const p of deVigEfficientShin(new Array<number>(20).fill(10))) expect(p).toBeCloseTo(0.05, 12);
  });
});

describe("Buchdahl's margin weights proportional to the odds", () => {
  // Hand-checkable, not a published example (Buchdahl's own worked numbers could not be checked
  // offline): fair odds n*O / (n - M*O) on [1.5, 4.0, 7.0], M = 1/1.5 + 1/4 + 1/7 - 1 = 5/84;
  // for the favourite 4.5 / (3 - 7.5/84) = 1.5460123. The `implied` README's WPO values above
  // are the published check of the same formula.
  it('is the additive method written as fair odds', () => {
    const odds = [1.5, 4.0, 7.0];
    const n = odds.length;
    const margin = sumOf(odds.map((o) => 1 / o)) - 1;
    const fairOdds = odds.map((o) => (n * o) / (n - margin * o));
    expect(fairOdds[0]).toBeCloseTo(1.5460123, 7);
    expectAllClose(
      deVigAdditive(odds).map((p) => 1 / p),
      fairOdds,
      12,
    );
  });
});
