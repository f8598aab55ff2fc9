import {
  DEVIG_METHODS,
  americanToDecimal,
  arbitrage,
  decimalToAmerican,
  decimalToProbability,
  deVig,
  evPercent,
  hold,
  impliedProbabilities,
  kellyPercent,
  overround,
} from '../../pipeline/odds-math/index.js';
import type { DevigMethod } from '../../pipeline/odds-math/index.js';
import type { JsonSchema } from './route-schemas.js';
import type { ToolOutcome, ToolSpec } from './tool.js';

/**
 * Tools over the odds math the pipeline itself uses (pipeline/odds-math): de-vig a market the
 * caller gives, EV, Kelly, arbitrage stakes and hold. Pure computations: no data, no tier.
 */

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const r2 = (x: number): number => Math.round(x * 100) / 100;

const format: JsonSchema = {
  type: 'string',
  enum: ['american', 'decimal'],
  default: 'american',
  description: 'How the prices are written: american (-110, +150) or decimal (1.91, 2.5).',
};
const market = (what: string): JsonSchema => ({
  type: 'array',
  minItems: 2,
  maxItems: 50,
  items: { type: 'number' },
  description: `${what}, one price per outcome of the market, covering every outcome (e.g. [-110, -110] for a spread, three prices for a soccer 1X2).`,
});
const price: JsonSchema = { type: 'number', description: 'The price on offer, in `format`.' };
const probability: JsonSchema = {
  type: 'number',
  exclusiveMinimum: 0,
  exclusiveMaximum: 1,
  description: 'Your fair (true) probability of the outcome, strictly between 0 and 1 (e.g. a de-vigged sharp price from devig_odds).',
};
const object = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const num: JsonSchema = { type: 'number' };
const nums: JsonSchema = { type: 'array', items: num };

/** A price in the caller's format as decimal odds; the argument is named when it is not a price. */
function toDecimal(value: number, fmt: string, argument: string): number {
  try {
    if (fmt === 'american') return americanToDecimal(value);
    if (!Number.isFinite(value) || value <= 1) throw new RangeError(`decimal odds must be greater than 1, got ${String(value)}`);
    return value;
  } catch (err) {
    throw new ArgumentError(argument, (err as Error).message);
  }
}

class ArgumentError extends Error {
  constructor(argument: string, detail: string) {
    super(`Invalid argument '${argument}': ${detail}`);
  }
}

function pricesOf(args: Record<string, unknown>): number[] {
  const fmt = args['format'] as string;
  return (args['odds'] as number[]).map((v, i) => toDecimal(v, fmt, `odds[${i}]`));
}

function calculator(
  spec: Omit<ToolSpec, 'run'> & { compute(args: Record<string, unknown>): { structured: Record<string, unknown>; summary: string } },
): ToolSpec {
  const { compute, ...contract } = spec;
  return {
    ...contract,
    async run(args): Promise<ToolOutcome> {
      try {
        return { ok: true, ...compute(args) };
      } catch (err) {
        if (err instanceof ArgumentError) return { ok: false, message: err.message };
        if (err instanceof RangeError) return { ok: false, message: `Invalid arguments: ${err.message}` };
        throw err;
      }
    },
  };
}

export const CALCULATOR_TOOLS: readonly ToolSpec[] = [
  calculator({
    name: 'devig_odds',
    title: 'De-vig a market',
    description:
      "Remove the book's margin from a market you give and get each outcome's fair probability and fair price. Methods: power (default; " +
      'robust to favourite-longshot bias), multiplicative (proportional), additive (equal margin per outcome), shin (insider-trading model), ' +
      `and the others the pipeline knows (${DEVIG_METHODS.join(', ')}).`,
    inputSchema: object(
      {
        odds: market("The market's prices"),
        format,
        method: { type: 'string', enum: [...DEVIG_METHODS], default: 'power', description: 'De-vig method.' },
      },
      ['odds'],
    ),
    outputSchema: object(
      {
        method: { type: 'string' },
        hold_percent: num,
        overround_percent: num,
        outcomes: {
          type: 'array',
          items: object(
            {
              odds: num,
              odds_decimal: num,
              implied_probability: num,
              fair_probability: num,
              fair_odds_american: num,
              fair_odds_decimal: num,
            },
            ['odds', 'fair_probability'],
          ),
        },
      },
      ['method', 'outcomes'],
    ),
    compute(args) {
      const decimals = pricesOf(args);
      const method = args['method'] as DevigMethod;
      const fair = deVig(method, decimals);
      const implied = impliedProbabilities(decimals);
      const odds = args['odds'] as number[];
      const outcomes = decimals.map((d, i) => {
        const p = fair[i] as number;
        return {
          odds: odds[i] as number,
          odds_decimal: r6(d),
          implied_probability: r6(implied[i] as number),
          fair_probability: r6(p),
          fair_odds_american: decimalToAmerican(1 / p),
          fair_odds_decimal: r6(1 / p),
        };
      });
      const structured = { method, hold_percent: r6(hold(decimals) * 100), overround_percent: r6(overround(decimals) * 100), outcomes };
      const fairText = outcomes
        .map(
          (o) => `${o.odds} -> ${(o.fair_probability * 100).toFixed(2)}% (${o.fair_odds_american > 0 ? '+' : ''}${o.fair_odds_american})`,
        )
        .join(', ');
      return { structured, summary: `${method} de-vig, hold ${structured.hold_percent.toFixed(2)}%: ${fairText}.` };
    },
  }),
  calculator({
    name: 'calculate_ev',
    title: 'Expected value of a bet',
    description:
      'Expected value of a price given your fair probability: EV% = (p x decimal - 1) x 100, with the full-Kelly stake % alongside. Positive means +EV.',
    inputSchema: object({ odds: price, format, fair_probability: probability }, ['odds', 'fair_probability']),
    outputSchema: object(
      { ev_percent: num, kelly_percent: num, odds_decimal: num, implied_probability: num, fair_probability: num, fair_odds_american: num },
      ['ev_percent'],
    ),
    compute(args) {
      const d = toDecimal(args['odds'] as number, args['format'] as string, 'odds');
      const p = args['fair_probability'] as number;
      const structured = {
        ev_percent: r6(evPercent(p, d)),
        kelly_percent: r6(kellyPercent(p, d)),
        odds_decimal: r6(d),
        implied_probability: r6(decimalToProbability(d)),
        fair_probability: p,
        fair_odds_american: decimalToAmerican(1 / p),
      };
      return {
        structured,
        summary: `EV ${structured.ev_percent.toFixed(2)}% at ${String(args['odds'])} with a fair probability of ${(p * 100).toFixed(2)}%${structured.ev_percent > 0 ? ' (+EV)' : ' (not +EV)'}.`,
      };
    },
  }),
  calculator({
    name: 'calculate_kelly',
    title: 'Kelly stake',
    description:
      'Kelly criterion stake for a price and your fair probability: the full-Kelly % of bankroll, and the stake for a bankroll at a Kelly fraction (e.g. 0.25 for quarter Kelly). A negative edge stakes 0.',
    inputSchema: object(
      {
        odds: price,
        format,
        fair_probability: probability,
        bankroll: { type: 'number', exclusiveMinimum: 0, maximum: 1e12, default: 1000, description: 'Your bankroll, in any currency.' },
        fraction: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 1,
          default: 1,
          description: 'Kelly fraction: 1 full Kelly, 0.5 half, 0.25 quarter.',
        },
      },
      ['odds', 'fair_probability'],
    ),
    outputSchema: object({ kelly_percent: num, stake_percent: num, stake: num, bankroll: num, fraction: num, ev_percent: num }, [
      'kelly_percent',
      'stake',
    ]),
    compute(args) {
      const d = toDecimal(args['odds'] as number, args['format'] as string, 'odds');
      const p = args['fair_probability'] as number;
      const bankroll = args['bankroll'] as number;
      const fraction = args['fraction'] as number;
      const kelly = kellyPercent(p, d);
      const stakePercent = Math.max(0, kelly) * fraction;
      const structured = {
        kelly_percent: r6(kelly),
        stake_percent: r6(stakePercent),
        stake: r2((bankroll * stakePercent) / 100),
        bankroll,
        fraction,
        ev_percent: r6(evPercent(p, d)),
      };
      return {
        structured,
        summary: `Full Kelly ${structured.kelly_percent.toFixed(2)}%; at ${fraction} Kelly stake ${structured.stake} of ${bankroll}.`,
      };
    },
  }),
  calculator({
    name: 'calculate_arbitrage',
    title: 'Arbitrage stakes',
    description:
      'For the best price of every outcome of one market (usually at different books): whether it is an arbitrage, the guaranteed profit %, and how to split a bankroll so every outcome pays the same.',
    inputSchema: object(
      {
        odds: market('The best price of each outcome'),
        format,
        bankroll: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 1e12,
          default: 100,
          description: 'Total stake to split across the outcomes.',
        },
      },
      ['odds'],
    ),
    outputSchema: object(
      { is_arbitrage: { type: 'boolean' }, profit_percent: num, implied_sum: num, bankroll: num, stakes: nums, payout: num, profit: num },
      ['is_arbitrage', 'stakes'],
    ),
    compute(args) {
      const bankroll = args['bankroll'] as number;
      const a = arbitrage(pricesOf(args), bankroll);
      const stakes = a.stakes.map(r2);
      const structured = {
        is_arbitrage: a.isArb,
        profit_percent: r6(a.profitPercent),
        implied_sum: r6(a.impliedSum),
        bankroll,
        stakes,
        payout: r2(a.payout),
        profit: r2(a.payout - bankroll),
      };
      return {
        structured,
        summary: `${a.isArb ? 'Arbitrage' : 'No arbitrage'}: ${structured.profit_percent.toFixed(2)}% (${structured.profit}) on ${bankroll} staked as ${stakes.join(' / ')}.`,
      };
    },
  }),
  calculator({
    name: 'calculate_hold',
    title: 'Hold of a market',
    description:
      "A market's hold (the share a book keeps, 1 - 1/sum(1/d)) and overround (sum(1/d) - 1), with each outcome's implied probability. Lower hold means a better market for the bettor.",
    inputSchema: object({ odds: market("The market's prices"), format }, ['odds']),
    outputSchema: object({ hold_percent: num, overround_percent: num, implied_probabilities: nums }, ['hold_percent']),
    compute(args) {
      const decimals = pricesOf(args);
      const structured = {
        hold_percent: r6(hold(decimals) * 100),
        overround_percent: r6(overround(decimals) * 100),
        implied_probabilities: impliedProbabilities(decimals).map(r6),
      };
      return { structured, summary: `Hold ${structured.hold_percent.toFixed(2)}%, overround ${structured.overround_percent.toFixed(2)}%.` };
    },
  }),
];
