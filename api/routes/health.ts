import type { FastifyPluginAsync } from 'fastify';
import { appliedVersions, loadMigrations } from '../../pipeline/store/index.js';
import type { AppDeps } from '../deps.js';
import type { ReplyOf, RouteTypesWithStatus } from '../contract/index.js';

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

/** A check of the report. */
type Check = ReplyOf<'/api/v1/health'>['checks']['redis'];

/** Odds older than this mean the feed or the pipeline stopped. */
const DATA_STALE_MS = 60_000;
const SCHEMA_CHECK_EVERY_MS = 30_000;

export const healthRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const expected = loadMigrations().map((m) => m.version);
  let schemaCheck: { at: number; check: Check } | null = null;

  async function schema(): Promise<Check> {
    const now = Date.now();
    if (schemaCheck && now - schemaCheck.at < SCHEMA_CHECK_EVERY_MS) return schemaCheck.check;
    let check: Check;
    try {
      const applied = new Set(await appliedVersions(deps.store));
      const missing = expected.filter((v) => !applied.has(v));
      check =
        missing.length === 0
          ? { status: 'ok', latency_ms: Date.now() - now, message: `${expected.length} migrations applied (${deps.store.kind})` }
          : { status: 'down', latency_ms: Date.now() - now, message: `migrations not applied: ${missing.join(', ')}` };
    } catch (e) {
      check = { status: 'down', message: `store unreachable: ${e instanceof Error ? e.message : String(e)}` };
    }
    schemaCheck = { at: now, check };
    return check;
  }

  function data(): Check {
    const last = deps.board.lastChangeAt;
    if (last === null) return { status: 'degraded', message: 'no odds received yet' };
    const ageMs = Math.max(0, deps.clock.now() - last);
    const message = `${deps.board.rowCount} odds rows, ${deps.board.activeEvents().length} events, last change ${Math.round(ageMs / 1000)} s ago`;
    return { status: ageMs > DATA_STALE_MS ? 'degraded' : 'ok', message };
  }

  async function redis(): Promise<Check> {
    if (deps.redisUrl === null || !deps.rateLimits.check)
      return { status: 'ok', message: 'not configured: REDIS_URL not set, rate-limit counters are kept in process' };
    const c = await deps.rateLimits.check();
    return c.ok
      ? { status: 'ok', ...(c.latencyMs === undefined ? {} : { latency_ms: c.latencyMs }), message: c.message }
      : { status: 'degraded', message: c.message };
  }

  app.get<RouteTypesWithStatus<'/api/v1/health', 503>>(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Service health (no authentication)',
        description:
          'ok, degraded (no recent odds, Redis unreachable, or data lost from the store) or down (schema missing, store unreachable, or a pipeline stage stopped: 503). Checks: redis, data, schema, runtime.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const checks = {
        redis: await redis(),
        data: data(),
        schema: await schema(),
        runtime: deps.runtime?.() ?? { status: 'ok' as const, message: 'no runtime checks' },
      };
      const values = Object.values(checks).map((c) => c.status);
      const status = values.includes('down') ? 'down' : values.includes('degraded') ? 'degraded' : 'ok';
      return reply.code(status === 'down' ? 503 : 200).send({
        status,
        version: deps.version,
        timestamp: new Date(deps.clock.now()).toISOString(),
        checks,
      });
    },
  );
};
