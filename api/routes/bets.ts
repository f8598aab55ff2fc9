import type { FastifyPluginAsync } from 'fastify';
import { MARKET_IDS, TIERS, TIER_NAMES } from '../../schemas/index.js';
import { BET_STATUSES, betSchema, betSummarySchema, logBetBody } from '../contract/index.js';
import {
  authErrorResponses,
  countMetaSchema,
  csvParam,
  dataEnvelope,
  errorResponse,
  notFoundResponse,
  pagingParams,
  paginatedEnvelope,
} from '../contract/index.js';
import type { RouteTypes } from '../contract/index.js';
import { betList, betSummary, deleteBet, logBet } from '../queries/index.js';
import type { BetSource } from '../queries/index.js';
import { callerOf, noStore } from '../plugins/index.js';

const storeDown = errorResponse("unavailable: the ledger's store or the history store is not reachable; retry shortly.");
const caps = TIER_NAMES.filter((t) => TIERS[t].maxBets > 0)
  .map((t) => `${t} ${TIERS[t].maxBets}`)
  .join(', ');

/** Filters of the list and the summary. */
const filters = {
  sportsbook: csvParam('Sportsbook ids, comma-separated.'),
  sport: csvParam('Sport ids, comma-separated.'),
  league: csvParam('League ids, comma-separated.'),
  market: { type: 'string', maxLength: 2000, description: `Market ids, comma-separated (${MARKET_IDS.join(', ')}).` },
  event_id: { type: 'string', minLength: 1, maxLength: 200, description: 'One event.' },
  from: { type: 'string', maxLength: 40, description: 'Placed at or after: YYYY-MM-DD or an ISO 8601 date-time.' },
  to: { type: 'string', maxLength: 40, description: 'Placed before: YYYY-MM-DD or an ISO 8601 date-time.' },
} as const;

/**
 * The bet ledger: log, list, delete, summarise. Bets are the account's own, whichever of its
 * keys asks; another account's bet does not exist as far as the caller can tell.
 */
export const betRoutes: FastifyPluginAsync<{ source: BetSource }> = async (app, { source }) => {
  app.addHook('onRequest', noStore);

  app.post<RouteTypes<'/api/v1/bets', 'post'>>(
    '/bets',
    {
      schema: {
        tags: ['bets'],
        summary: 'Log a bet',
        description:
          'Records a bet on a selection we price: event, market, selection, line, sportsbook, price taken and stake, or an odds row or ' +
          '+EV opportunity id to copy them from (a price given overrides the copied one). The bet is graded against the close when its ' +
          'event starts and settled on the final score; devig_method and sharp_book choose how the fair close is made. ' +
          `Pro tier or higher; bets per account: ${caps}.`,
        body: logBetBody,
        response: {
          201: dataEnvelope(betSchema),
          ...authErrorResponses,
          404: errorResponse('not_found: the event is not on the board.'),
          503: storeDown,
        },
      },
    },
    async (request, reply) => {
      const answer = await logBet(source, callerOf(request), request.body);
      void reply.code(201);
      return answer;
    },
  );

  app.get<RouteTypes<'/api/v1/bets'>>(
    '/bets',
    {
      schema: {
        tags: ['bets'],
        summary: "The account's bets with their grades",
        description:
          'Bets newest placed first, each with its status (pending, graded at the close, settled), its closing-line value against the ' +
          "book's closing price and against the fair close (percent and probability edge), its result and profit. Pro tier or higher.",
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: [...BET_STATUSES] },
            ...filters,
            ...pagingParams(50, 500),
          },
        },
        response: { 200: paginatedEnvelope(betSchema, countMetaSchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request) => betList(source, callerOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/bets/summary'>>(
    '/bets/summary',
    {
      schema: {
        tags: ['bets'],
        summary: 'Profit, ROI and closing-line value of the account’s bets',
        description:
          'Count, stake, profit, ROI, average CLV and the share of bets beating the close, in total and by sportsbook, sport, market and ' +
          'month placed, over the bets the filters select. Pro tier or higher.',
        querystring: { type: 'object', properties: filters },
        response: { 200: dataEnvelope(betSummarySchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request) => betSummary(source, callerOf(request), request.query),
  );

  app.delete<RouteTypes<'/api/v1/bets/{id}', 'delete'>>(
    '/bets/:id',
    {
      schema: {
        tags: ['bets'],
        summary: 'Delete a bet',
        description: 'Removes a bet from the ledger, on every replica. Pro tier or higher.',
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 100, description: 'The bet id (`bet_…`).' } },
        },
        response: {
          200: dataEnvelope({
            type: 'object',
            required: ['id', 'deleted', 'deleted_at'],
            properties: { id: { type: 'string' }, deleted: { type: 'boolean' }, deleted_at: { type: 'string', format: 'date-time' } },
          }),
          ...authErrorResponses,
          404: notFoundResponse,
          503: storeDown,
        },
      },
    },
    async (request) => deleteBet(source, callerOf(request), request.params.id),
  );
};
