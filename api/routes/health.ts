import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { RouteTypesWithStatus } from '../contract/index.js';
import { healthCheck } from '../queries/index.js';

const checkSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'down'] },
    latency_ms: { type: 'integer' },
    message: { type: 'string', description: 'What was found; a check of something not configured is ok and says so here.' },
  },
} as const;

const healthSchema = {
  type: 'object',
  required: ['status', 'version', 'timestamp', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'down'] },
    version: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    checks: {
      type: 'object',
      required: ['redis', 'data', 'schema'],
      properties: { redis: checkSchema, data: checkSchema, schema: checkSchema, runtime: checkSchema },
    },
  },
} as const;

export const healthRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const report = healthCheck(deps);

  app.get<RouteTypesWithStatus<'/api/v1/health', 503>>(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Service health (no authentication)',
        description:
          'ok, degraded (no recent odds, Redis unreachable, data lost from the store, or Kafka changelogs that cannot give a restore every key) or down (schema missing, store unreachable, or a pipeline stage stopped: 503). Checks: redis, data, schema, runtime.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const health = await report();
      return reply.code(health.status === 'down' ? 503 : 200).send(health);
    },
  );
};
