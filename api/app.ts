import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Logger } from 'pino';
import { ERROR_CODES } from './errors.js';
import type { AppDeps } from './deps.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { eventsRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';
import { oddsRoutes } from './routes/odds.js';
import { referenceRoutes } from './routes/reference.js';

export const API_PREFIX = '/api/v1';
export const API_VERSION = '2.0.0';

/**
 * The API as a Fastify instance, ready for `inject()` or `listen()`. Routes under /api/v1,
 * everything but /health behind the auth plugin's hook.
 */
export async function buildApp(deps: AppDeps, logger?: Logger): Promise<FastifyInstance> {
  // Fastify's instance type is parameterised by the logger; the callers only need the base type.
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Per-request log lines cost more than the request at the volumes this API serves.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { coerceTypes: 'array', allErrors: false, removeAdditional: false } },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Odds platform API',
        version: API_VERSION,
        description: 'Real-time sports odds from many sportsbooks, and the betting opportunities derived from them.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        },
      },
      security: [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }],
    },
  });
  await app.register(errorsPlugin);

  await app.register(async (open) => {
    await open.register(healthRoutes, { deps });
    open.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    open.get('/docs/errors', { schema: { hide: true } }, async () => ({
      success: true,
      data: Object.entries(ERROR_CODES).map(([code, e]) => ({ code, status: e.status, description: e.description })),
    }));
  }, { prefix: API_PREFIX });

  await app.register(async (authed) => {
    await authed.register(authPlugin, { keys: deps.keys, rateLimits: deps.rateLimits, now: () => Date.now() });
    await authed.register(referenceRoutes, { deps });
    await authed.register(eventsRoutes, { deps });
    await authed.register(oddsRoutes, { deps });
  }, { prefix: API_PREFIX });

  return app as unknown as FastifyInstance;
}
