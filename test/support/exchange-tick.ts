import type { ExchangeQuote, RawTick } from '../../schemas/index.js';
import { decimalToAmerican, netBackDecimal } from '../../pipeline/odds-math/index.js';
import { rawTick } from './raw-tick.js';

/**
 * An exchange's raw price (Betfair EU, rate `commission`, 1,000 traded) on the Lakers v Celtics
 * moneyline of `rawTick`: `priceAmerican` is the quoted back net of the rate, as the feed sends it.
 */
export function exchangeRawTick(
  startTime: number,
  outcome: string,
  quote: Omit<ExchangeQuote, 'commission' | 'volume'>,
  over: Partial<RawTick> = {},
  commission = 5,
): RawTick {
  return rawTick(startTime, {
    book: 'betfair_ex_eu',
    bookEventId: 'betfair_ex_eu-1',
    outcome,
    priceAmerican: decimalToAmerican(netBackDecimal(quote.back ?? 0, commission)),
    exchange: { ...quote, volume: 1000, commission },
    ...over,
  });
}
