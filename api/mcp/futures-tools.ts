import { FUTURE_TYPES } from '../../schemas/index.js';
import {
  futureMarketSchema,
  futureOddsSchema,
  presentFutureMarket,
  presentFutureOdds,
  futuresComparisonSchema,
  presentFuturesComparison,
} from '../contract/index.js';
import { pagination, paginationSchema } from '../contract/index.js';
import { futuresComparison, futuresMarkets, futuresPrices, requireTierFor } from '../queries/index.js';
import type { FuturesComparisonQuery, FuturesPricesQuery, FuturesSource } from '../queries/index.js';
import type { Catalog } from '../views/index.js';
import { FuturesBoard } from '../views/index.js';
import type { FuturesView } from '../views/index.js';
import type { JsonSchema } from './route-schemas.js';
import type { ToolOutcome, ToolSpec } from './tool.js';
import { refusalsAsToolErrors } from './tool-refusal.js';

const idList = { type: 'string', minLength: 1, maxLength: 2000, pattern: '^[A-Za-z0-9][A-Za-z0-9_.,-]*$' } as const;

const marketArgs = {
  sport: { type: 'string', maxLength: 2000, description: 'Sport ids, comma-separated.' },
  league: { type: 'string', maxLength: 2000, description: 'League ids, comma-separated (e.g. nba, nfl, epl).' },
  future_type: { type: 'string', maxLength: 200, description: `Comma-separated: ${FUTURE_TYPES.join(', ')}.` },
  sportsbook: { type: 'string', maxLength: 2000, description: 'Sportsbook ids, comma-separated; default: the books of your tier.' },
} as const;

/**
 * The futures tools of COMPAT §6 (Pro): `get_futures_odds` lists the markets, or with
 * `future_id` every book's prices with the fair line; `compare_futures_lines` lays one market
 * out side by side. Answered by the futures answers the REST routes call (ids, the tier's books and
 * delay), behind the futures tools' own tier gate, with the REST presenters.
 */
export function futuresTools(catalog: Catalog, view: FuturesView = new FuturesBoard()): ToolSpec[] {
  const src: FuturesSource = { futures: view, catalog };
  return [
    {
      name: 'get_futures_odds',
      title: 'Futures odds',
      description:
        'Outright markets: championship winners, MVP races, season win totals, to make the playoffs. Without future_id: the markets (market_id, name, type, books). ' +
        "With future_id (market ids, comma-separated): every price at your books, most likely outcome first, with the sharp references' de-vigged fair probability and the EV % of each price. Pro tier and up.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          future_id: { ...idList, description: 'Market ids from a call without it (market_id), comma-separated.' },
          ...marketArgs,
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          offset: { type: 'integer', minimum: 0, maximum: 5000, default: 0 },
        },
      },
      outputSchema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { anyOf: [futureMarketSchema, futureOddsSchema] } },
          pagination: paginationSchema,
        },
      } as JsonSchema,
      run: async (args, context): Promise<ToolOutcome> =>
        refusalsAsToolErrors(() => {
          const tier = context.record.tier;
          requireTierFor(tier, 'futuresTools');
          // Checked against the input schema, its defaults filled in, before the tool runs.
          const q = args as unknown as FuturesPricesQuery & { limit: number; offset: number };
          const { limit, offset } = q;
          if (q.future_id === undefined) {
            const markets = futuresMarkets(src, tier, q);
            const page = markets.slice(offset, offset + limit);
            return {
              ok: true,
              structured: { data: page.map(presentFutureMarket), pagination: pagination(limit, offset, markets.length) },
              summary: `${markets.length} futures markets${markets.length > offset + limit ? `; more with offset ${offset + limit}` : ''}. Ask again with future_id for prices.`,
            };
          }
          const { rows, requested, missing, withFair } = futuresPrices(src, tier, q);
          const page = rows.slice(offset, offset + limit);
          return {
            ok: true,
            structured: { data: page.map((r) => presentFutureOdds(r, withFair)), pagination: pagination(limit, offset, rows.length) },
            summary: `${rows.length} futures prices in ${requested - missing.length} of ${requested} markets${rows.length > offset + limit ? `; more with offset ${offset + limit}` : ''}.`,
          };
        }),
    },
    {
      name: 'compare_futures_lines',
      title: 'Compare futures lines',
      description:
        "One outright market side by side: for each outcome every book's price, the best price and book, the sharp references' fair probability (each de-vig method) and the EV % of each price; plus each book's hold on the market. Pro tier and up.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['future_id'],
        properties: {
          future_id: { ...idList, description: 'One market id (market_id from get_futures_odds).' },
          sportsbook: marketArgs.sportsbook,
        },
      },
      outputSchema: futuresComparisonSchema as unknown as JsonSchema,
      run: async (args, context): Promise<ToolOutcome> =>
        refusalsAsToolErrors(() => {
          const tier = context.record.tier;
          requireTierFor(tier, 'futuresTools');
          const q = args as unknown as FuturesComparisonQuery;
          const comparison = futuresComparison(src, tier, q);
          if (!comparison)
            return {
              ok: false,
              message: `No book of yours prices the futures market '${q.future_id}'; get_futures_odds without future_id lists the markets`,
            };
          const best = comparison.outcomes[0];
          return {
            ok: true,
            structured: presentFuturesComparison(comparison),
            summary:
              `${comparison.market.name}: ${comparison.outcomes.length} outcomes at ${comparison.holds.length} books` +
              (best?.best
                ? `; favourite ${best.selection}, best ${best.best.priceAmerican > 0 ? '+' : ''}${best.best.priceAmerican} at ${best.best.book}.`
                : '.'),
          };
        }),
    },
  ];
}
