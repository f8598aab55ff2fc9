import { selectionFamily } from '../../schemas/index.js';
import type { ClosingDevigMethod, ClosingLine, LeagueDef, MarketId, SelectionType } from '../../schemas/index.js';
import { americanToDecimal, deVig } from '../odds-math/index.js';
import { canonicalLine, familyKey, outcomesOf } from '../opportunities/index.js';

/** The outcome a bet backed, at the book it was placed with. */
export interface BetOutcome {
  book: string;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  selection: SelectionType;
  line: number | null;
}

/** How the closing fair probability is made: a de-vig method, and one sharp book or (null) the closing references. */
export interface ClosingRecipe {
  method: ClosingDevigMethod;
  sharpBook: string | null;
}

/** What a bet is graded against: the same book's closing price and the closing fair probability, with who made it. */
export interface BetClose {
  closingPriceAmerican: number | null;
  closingDecimal: number | null;
  fairProbability: number | null;
  /** The books the fair probability came from (the sharp book, or the references averaged). */
  fairBooks: string[];
}

const sameGroup = (a: BetOutcome, b: BetOutcome): boolean => familyKey(a) === familyKey(b) && canonicalLine(a) === canonicalLine(b);
const sameOutcome = (a: BetOutcome, b: BetOutcome): boolean => a.selection === b.selection && sameGroup(a, b);

/**
 * A bet's close among its event's closing lines. The price is the bet's own book's close on the
 * same outcome and line. The fair probability is, without a sharp book, the references' no-vig
 * close the closing processor stored by `method`; with one, that book's closes of every outcome
 * of the market at the bet's line, de-vigged by `method` (null when it did not close them all).
 * A line that moved before the close has no close at the bet's line: both stay null.
 */
export function closeOfBet(
  bet: BetOutcome,
  closes: readonly ClosingLine[],
  recipe: ClosingRecipe,
  league: LeagueDef | undefined,
): BetClose {
  const own = closes.find((c) => c.book === bet.book && sameOutcome(c, bet)) ?? null;
  const priced = { closingPriceAmerican: own?.priceAmerican ?? null, closingDecimal: own ? americanToDecimal(own.priceAmerican) : null };
  if (recipe.sharpBook === null) {
    const ref = closes.find((c) => sameOutcome(c, bet) && c.noVig[recipe.method] !== null);
    return { ...priced, fairProbability: ref?.noVig[recipe.method] ?? null, fairBooks: ref?.referenceBooks ?? [] };
  }
  const sharp = recipe.sharpBook;
  const outcomes = outcomesOf({ market: bet.market, family: selectionFamily(bet.selection) }, league);
  const market = outcomes.map((selection) => closes.find((c) => c.book === sharp && c.selection === selection && sameGroup(c, bet)));
  const index = outcomes.indexOf(bet.selection);
  if (index < 0 || market.some((c) => c === undefined)) return { ...priced, fairProbability: null, fairBooks: [] };
  const fair = fairOf(recipe.method, market as ClosingLine[]);
  return { ...priced, fairProbability: fair?.[index] ?? null, fairBooks: fair ? [sharp] : [] };
}

/** The market de-vigged, or null where the method cannot (the additive method past a 100 % overround). */
function fairOf(method: ClosingDevigMethod, market: readonly ClosingLine[]): number[] | null {
  try {
    return deVig(
      method,
      market.map((c) => americanToDecimal(c.priceAmerican)),
    );
  } catch {
    return null;
  }
}
