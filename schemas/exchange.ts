/**
 * What an exchange adds to a price: both sides of its ladder and the money behind them. A
 * sportsbook quotes one price per outcome and takes its margin inside it; an exchange shows the
 * best price to back and to lay, the size waiting at each, and charges commission on net
 * winnings instead. Carried on ticks and rows of exchange books only (absent or null elsewhere).
 */
export interface ExchangeQuote {
  /** Best price available to back, decimal, before commission; null when nobody offers one. */
  back: number | null;
  /** Money waiting at `back`, in the market's currency: the most one back bet there can be matched for. */
  backSize: number | null;
  /** Best price available to lay, decimal; null when nobody offers one. */
  lay: number | null;
  /** Backers' stake waiting at `lay`, in the market's currency: the most one lay bet there can be matched for. */
  laySize: number | null;
  /** Money traded on this outcome so far, in the market's currency; null when the exchange has not said. */
  volume: number | null;
  /** Commission on net winnings, percent (the market's base rate, or the account's configured rate). */
  commission: number;
}

/** Whether two quotes say the same (absent and null are the same: no exchange quote). */
export function sameExchangeQuote(a: ExchangeQuote | null | undefined, b: ExchangeQuote | null | undefined): boolean {
  if (a == null || b == null) return (a == null) === (b == null);
  return (
    a.back === b.back &&
    a.backSize === b.backSize &&
    a.lay === b.lay &&
    a.laySize === b.laySize &&
    a.volume === b.volume &&
    a.commission === b.commission
  );
}
