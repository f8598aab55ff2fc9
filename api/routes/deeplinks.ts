import type { FastifyPluginAsync } from 'fastify';
import { DEFAULT_STATE } from '../deeplinks/index.js';
import type { DeepLinkResolver } from '../deeplinks/index.js';
import { authErrorResponses, errorResponse, notFoundResponse, withIgnoredParams } from '../contract/index.js';
import { tierOf } from '../plugins/index.js';
import { deepLinkBatch, deepLinkTarget } from '../queries/index.js';
import type { RouteTypes } from '../contract/index.js';

const MAX_BATCH_IDS = 500;

const stateParam = {
  type: 'string',
  pattern: '^[A-Za-z]{2}$',
  default: DEFAULT_STATE,
  description: 'US state code (e.g. nj); shapes the URL of books whose site is per state. Default pa.',
} as const;

/** `POST /deeplinks/batch` (Hobby and up): which ids have a deep link, as resolver paths. */
export const deepLinkBatchRoutes: FastifyPluginAsync<{ resolver: DeepLinkResolver }> = async (app, { resolver }) => {
  app.post<RouteTypes<'/api/v1/deeplinks/batch', 'post'>>(
    '/deeplinks/batch',
    {
      schema: {
        tags: ['deeplinks'],
        summary: 'Deep links of many odds or opportunity ids',
        description:
          `Maps every requested id (odds ids and opportunity ids, 1 to ${MAX_BATCH_IDS}) to its resolver path ` +
          '(`/api/v1/deeplink/{id}?state=…`), or to null when the id is unknown or expired or its sportsbook has no link templates. Hobby tier and up.',
        body: {
          type: 'object',
          required: ['ids'],
          additionalProperties: false,
          properties: {
            ids: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_BATCH_IDS,
              items: { type: 'string', minLength: 1, maxLength: 200 },
              description: 'Odds ids or opportunity ids.',
            },
            state: stateParam,
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['success', 'data', 'updated_at'],
            properties: {
              success: { type: 'boolean' },
              data: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'Id -> resolver path, or null.' },
              meta: withIgnoredParams({
                type: 'object',
                properties: { count: { type: 'integer' }, resolved: { type: 'integer' }, state: { type: 'string' } },
              }),
              updated_at: { type: 'string', format: 'date-time' },
            },
          },
          ...authErrorResponses,
        },
      },
    },
    async (request) => deepLinkBatch(resolver, tierOf(request), request.body),
  );
};

const hint = (description: string): object => ({ type: 'string', minLength: 1, maxLength: 200, description });

/**
 * `GET /deeplink/{id}` (no key): a redirect to the sportsbook. `origins` are the sportsbook sites
 * of the link templates (`templateOrigins`): the only places off this site a fallback may lead.
 */
export const deepLinkRoutes: FastifyPluginAsync<{ resolver: DeepLinkResolver; origins: ReadonlySet<string> }> = async (
  app,
  { resolver, origins },
) => {
  app.get<RouteTypes<'/api/v1/deeplink/{id}'>>(
    '/deeplink/:id',
    {
      schema: {
        tags: ['deeplinks'],
        summary: 'Redirect to the sportsbook page of an odds or opportunity id',
        description:
          "No key needed. 302 to the most precise page the book's templates allow: the bet slip or selection (X-Deep-Link-Type: " +
          "outcome), the event page (event), or the book's homepage (homepage). An unknown or expired id, or a book without " +
          'templates, is 404, or a 302 to `fallback` when one is given (X-Deep-Link-Type: fallback). A fallback may only be a ' +
          'path on this site or a URL on a sportsbook site the link templates point to; anything else is 400.',
        security: [],
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 200, description: 'An odds id or an opportunity id.' } },
        },
        querystring: {
          type: 'object',
          properties: {
            state: stateParam,
            book: hint('Sportsbook id: picks the leg of a multi-book opportunity; with game_id, the book of an unknown id.'),
            game_id: hint("Our event id: with book, links to that book's event page when the id itself is no longer known."),
            sport: hint('Accepted for compatibility; the service resolves from its own data.'),
            league: hint('Accepted for compatibility; the service resolves from its own data.'),
            home: hint('Accepted for compatibility; the service resolves from its own data.'),
            away: hint('Accepted for compatibility; the service resolves from its own data.'),
            fallback: {
              type: 'string',
              maxLength: 2000,
              description:
                'Where to redirect when no link resolves, instead of 404: a path on this site (`/…`) or an http(s) URL on a sportsbook site of the link templates.',
            },
          },
        },
        response: {
          302: {
            description:
              'Redirect: Location is the sportsbook URL; X-Deep-Link-Type is outcome, event, homepage or fallback; Cache-Control: private, max-age=60.',
            type: 'null',
            headers: {
              Location: { type: 'string', description: 'The sportsbook URL (or the fallback).' },
              'X-Deep-Link-Type': { type: 'string', enum: ['outcome', 'event', 'homepage', 'fallback'] },
              'Cache-Control': { type: 'string', description: 'private, max-age=60' },
            },
          },
          400: errorResponse(
            "invalid_request: a malformed state, or a fallback that leads off this site and the sportsbooks' sites; the message names it.",
          ),
          404: notFoundResponse,
        },
      },
    },
    async (request, reply) => {
      const target = deepLinkTarget(resolver, origins, request.params.id, request.query);
      return reply
        .code(302)
        .headers({ location: target.url, 'x-deep-link-type': target.type, 'cache-control': 'private, max-age=60' })
        .send();
    },
  );
};
