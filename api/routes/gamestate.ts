import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, dataEnvelope } from '../contract/index.js';
import { gameStateSchema } from '../contract/index.js';
import type { AppDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { gameStates } from '../queries/index.js';
import { GameStateBoard } from '../views/index.js';
import type { RouteTypes } from '../contract/index.js';

const envelope = dataEnvelope(
  {
    type: 'object',
    description: 'sport -> event id -> game state. Empty when no game of the sport is live (an unknown sport too).',
    additionalProperties: { type: 'object', additionalProperties: gameStateSchema },
  },
  {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      source: { type: 'string', description: '`live`: games the connected feed reports on. Replayed odds recordings carry no game state.' },
      updated_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
);

/**
 * Live game state (Enterprise): joined to odds and opportunities by event id only; EV rows
 * never carry scores. Served from the game-state board the `gamestate` changelog keeps.
 */
export const gameStateRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const board = deps.gameStates ?? new GameStateBoard();
  const description =
    'Score, period, clock and possession (server in tennis) of every live game, by sport then event id. Enterprise tier only (403 feature_required otherwise). A game leaves the list at final, postponed or cancelled. A replayed odds recording has no game state, so the list is empty then.';

  app.get<RouteTypes<'/api/v1/gamestate'>>(
    '/gamestate',
    {
      schema: {
        tags: ['gamestate'],
        summary: 'Live game state of every sport',
        description,
        response: { 200: envelope, ...authErrorResponses },
      },
    },
    async (request) => gameStates(board, deps.catalog, tierOf(request)),
  );

  app.get<RouteTypes<'/api/v1/gamestate/{sport}'>>(
    '/gamestate/:sport',
    {
      schema: {
        tags: ['gamestate'],
        summary: 'Live game state of one sport',
        description: `${description} The sport id is case-insensitive; an unknown sport gives an empty \`data\`, not 404.`,
        params: { type: 'object', required: ['sport'], properties: { sport: { type: 'string', minLength: 1, maxLength: 64 } } },
        response: { 200: envelope, ...authErrorResponses },
      },
    },
    async (request) => gameStates(board, deps.catalog, tierOf(request), request.params.sport),
  );
};
