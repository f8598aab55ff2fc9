import type { FastifyPluginAsync } from 'fastify';
import { MARKET_IDS, RECIPE_DEVIG_METHODS } from '../../schemas/index.js';
import { authErrorResponses, csvParam, dataEnvelope, notFoundResponse } from '../contract/index.js';
import { MARKET_HELP } from '../contract/index.js';
import { eventFairLinesSchema, fairLineSchema, recipeParams } from '../contract/index.js';
import type { RouteTypes } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { eventFairAnswer, fairAnswer } from '../queries/index.js';

const idPattern = '^[A-Za-z0-9][A-Za-z0-9_.:-]*$';
const devigMethodParam = {
  type: 'string',
  enum: [...RECIPE_DEVIG_METHODS],
  default: 'power',
  description: 'De-vig method: the stored ones, plus efficient_shin (per-outcome Shin, Kizildemir et al.) and goto (goto_conversion).',
} as const;

/** The open fair-line recipe: one market's fair price per outcome, how it was made and how sure it is. */
export const fairRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  app.get<RouteTypes<'/api/v1/fair'>>(
    '/fair',
    {
      schema: {
        tags: ['opportunities'],
        summary: 'Fair line of one market, from a recipe you choose',
        description:
          'Per outcome, the fair probability and price de-vigged from the reference sportsbooks you name (default: the configured sharp references), ' +
          'weighted equally or by freshness and margin, by the de-vig method you choose; with an uncertainty band over methods and over books, ' +
          'and a fair_status per outcome. A market no reference book prices on both sides is priced from a stated margin, never from a made-up side. ' +
          'Pro tier or higher; 404 for an unknown event or a market it does not have.',
        querystring: {
          type: 'object',
          required: ['event', 'market'],
          properties: {
            event: { type: 'string', minLength: 1, maxLength: 200, pattern: idPattern, description: 'Canonical event id.' },
            market: { type: 'string', enum: MARKET_IDS.filter((m) => m !== 'future'), description: 'Market id.' },
            line: {
              type: 'number',
              minimum: -1000,
              maximum: 1000,
              description: "The line: home's handicap for spreads, the threshold for totals and props; default: the main line.",
            },
            participant: { type: 'string', minLength: 1, maxLength: 200, description: 'Team or player, for team totals and props.' },
            stat_category: { type: 'string', minLength: 1, maxLength: 100, description: 'Stat of a player prop (points, rebounds ...).' },
            devig_method: devigMethodParam,
            ...recipeParams,
          },
        },
        response: { 200: dataEnvelope(fairLineSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => fairAnswer(deps, tierOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/events/{id}/fair'>>(
    '/events/:id/fair',
    {
      schema: {
        tags: ['opportunities'],
        summary: 'Fair lines of every market of one event, from a recipe you choose',
        description:
          'The fair line of each market of the event at its main line (each outcome family apart: a team total per team, a period spread and total), ' +
          'priced exactly as /fair prices one market: per outcome, fair probability and price, band over methods and books, fair_status. ' +
          'By default every game market, no player props or outrights; `market` names others as on /odds. Pro tier or higher; 404 for an unknown event.',
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 200, pattern: idPattern, description: 'Canonical event id.' } },
        },
        querystring: {
          type: 'object',
          properties: {
            market: csvParam(`${MARKET_HELP} Default: every game market (main, spread and total categories), no props or outrights.`),
            devig_method: devigMethodParam,
            ...recipeParams,
          },
        },
        response: { 200: dataEnvelope(eventFairLinesSchema), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => eventFairAnswer(deps, tierOf(request), request.params.id, request.query),
  );
};
