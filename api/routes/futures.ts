import type { FastifyPluginAsync } from 'fastify';
import { FUTURE_TYPES } from '../../schemas/index.js';
import {
  futureEvSchema,
  futureMarketSchema,
  futureOddsSchema,
  presentFutureEv,
  presentFutureMarket,
  presentFutureOdds,
} from '../contract/index.js';
import {
  authErrorResponses,
  countMetaSchema,
  csvParam,
  dataEnvelope,
  pagination,
  paginatedEnvelope,
  pagingParams,
} from '../contract/index.js';
import type { AppDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { futuresEvList, futuresMarkets, futuresPrices } from '../queries/index.js';
import type { FuturesSource } from '../queries/index.js';
import type { ReplyOf, RouteTypes } from '../contract/index.js';
import { FuturesBoard } from '../views/index.js';

const idPattern = '^[A-Za-z0-9][A-Za-z0-9_.,-]*$';
const marketParams = {
  sport: csvParam('Sport ids, comma-separated.'),
  league: csvParam('League ids, comma-separated.'),
  future_type: csvParam(`Comma-separated: ${FUTURE_TYPES.join(', ')}.`),
} as const;

/**
 * Futures (outrights): the market list (open without a key, as the reference serves it), each
 * market's prices at the tier's books with the tier's delay (any key), and futures +EV (the +EV
 * feature, Pro and up). Served from the futures board the `futures` and `futures.markets`
 * changelogs keep; a replayed game-odds recording has no futures, so the lists are empty then.
 */
export const futuresRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const board = deps.futures ?? new FuturesBoard();
  const src: FuturesSource = { futures: board, catalog: deps.catalog };
  const updatedAt = (): string | null => (board.lastUpdate === null ? null : new Date(board.lastUpdate).toISOString());

  app.get<RouteTypes<'/api/v1/futures'>>(
    '/futures',
    {
      config: { keyless: true },
      schema: {
        tags: ['futures'],
        summary: 'Futures markets',
        description:
          'Outright markets (championship winner, MVP, season win totals, to make the playoffs) that at least one book prices. Open without an API key (10 requests a minute per address); a key, when sent, is checked and counted as usual. Lists markets only: prices are on /futures/odds.',
        security: [{}, { apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }],
        querystring: {
          type: 'object',
          properties: {
            ...marketParams,
            sportsbook: csvParam('Markets priced by these books (and only these listed in books_available).'),
            ...pagingParams(100, 500, 5000),
          },
        },
        response: {
          200: dataEnvelope(
            { type: 'array', items: futureMarketSchema },
            {
              type: 'object',
              properties: {
                ...countMetaSchema.properties,
                source: { type: 'string' },
                updated_at: { type: ['string', 'null'], format: 'date-time' },
              },
            },
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request): Promise<ReplyOf<'/api/v1/futures'>> => {
      const q = request.query;
      const markets = futuresMarkets(src, null, q);
      const page = markets.slice(q.offset, q.offset + q.limit);
      return {
        success: true,
        data: page.map(presentFutureMarket),
        meta: { count: page.length, total: markets.length, source: 'live', updated_at: updatedAt() },
      };
    },
  );

  app.get<RouteTypes<'/api/v1/futures/odds'>>(
    '/futures/odds',
    {
      schema: {
        tags: ['futures'],
        summary: 'Prices of futures markets',
        description:
          "Every price of the markets named by `future_id` (required) at the tier's books, outcomes most likely first. The free tier sees its two books and data 60 s behind, like other odds. Keys with the +EV feature (Pro and up) also get each outcome's fair probability (the sharp references de-vigged across every outcome) and the EV % of each price.",
        querystring: {
          type: 'object',
          properties: {
            future_id: {
              type: 'string',
              minLength: 1,
              maxLength: 2000,
              pattern: idPattern,
              description: 'Market ids from /futures (`market_id`), comma-separated. Required.',
            },
            market: { type: 'string', minLength: 1, maxLength: 2000, pattern: idPattern, description: 'Alias of future_id.' },
            sportsbook: csvParam('Sportsbook ids, comma-separated; default: the books of the tier.'),
            sport: marketParams.sport,
            league: marketParams.league,
            ...pagingParams(50, 500, 5000),
          },
        },
        response: {
          200: paginatedEnvelope(futureOddsSchema, {
            type: 'object',
            properties: {
              ...countMetaSchema.properties,
              missing: { type: 'array', items: { type: 'string' }, description: 'Requested market ids no book prices now.' },
              data_delay_seconds: { type: 'integer' },
            },
          }),
          ...authErrorResponses,
        },
      },
    },
    async (request): Promise<ReplyOf<'/api/v1/futures/odds'>> => {
      const q = request.query;
      const { rows, missing, delaySeconds, withFair } = futuresPrices(src, tierOf(request), q);
      const page = rows.slice(q.offset, q.offset + q.limit);
      return {
        success: true,
        data: page.map((r) => presentFutureOdds(r, withFair)),
        pagination: pagination(q.limit, q.offset, rows.length),
        meta: { count: page.length, total: rows.length, missing, data_delay_seconds: delaySeconds },
      };
    },
  );

  app.get<RouteTypes<'/api/v1/futures/ev'>>(
    '/futures/ev',
    {
      schema: {
        tags: ['futures'],
        summary: 'Futures +EV',
        description:
          "Futures prices above the sharp references' fair probability: each reference board is de-vigged across all its outcomes by every method (power, multiplicative, additive, Shin, odds ratio, logit); a price is listed while its EV is positive under at least one of them (worst case included), best EV (power) first. +EV feature: Pro tier and up.",
        querystring: {
          type: 'object',
          properties: {
            ...marketParams,
            future_id: { type: 'string', minLength: 1, maxLength: 2000, pattern: idPattern, description: 'Market ids, comma-separated.' },
            sportsbook: csvParam('Sportsbook ids, comma-separated; default: the books of the tier.'),
            min_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Lowest EV % under power de-vig.' },
            ...pagingParams(50, 200, 5000),
          },
        },
        response: { 200: paginatedEnvelope(futureEvSchema, countMetaSchema), ...authErrorResponses },
      },
    },
    async (request): Promise<ReplyOf<'/api/v1/futures/ev'>> => {
      const q = request.query;
      const found = futuresEvList(src, tierOf(request), q);
      const page = found.slice(q.offset, q.offset + q.limit);
      return {
        success: true,
        data: page.map((f) => presentFutureEv(f.opportunity, f.market)),
        pagination: pagination(q.limit, q.offset, found.length),
        meta: { count: page.length, total: found.length },
      };
    },
  );
};
