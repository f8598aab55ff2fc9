import { worstStatus } from '../../schemas/index.js';
import { StoreHealth, appliedVersions, loadMigrations } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import type { Clock } from '../../pipeline/clock.js';
import type { ReplyOf } from '../contract/index.js';
import type { LiveBoard } from '../views/index.js';

/** The `/health` report and one of its checks. */
export type HealthReport = ReplyOf<'/api/v1/health'>;
type Check = HealthReport['checks']['redis'];

/** Odds older than this mean the feed or the pipeline stopped. */
const DATA_STALE_MS = 60_000;
/** The migrations table is read at most this often: a load balancer may probe every second. */
const SCHEMA_CHECK_EVERY_MS = 30_000;

export interface HealthSource {
  store: OlapStore;
  board: Pick<LiveBoard, 'lastChangeAt' | 'rowCount' | 'activeEvents'>;
  clock: Clock;
  redisUrl: string | null;
  /** The rate-limit store's own probe (Redis); absent when counters are kept in process. */
  rateLimits: { check?(): Promise<{ ok: boolean; latencyMs?: number; message: string }> };
  version: string;
  runtime?: () => Check;
  /** Whether this process applied every migration before it served (`StoreHealthOptions.schemaApplied`). */
  schemaApplied?: boolean;
}

/**
 * The service's health, judged from the store's migrations, the board's last change, Redis and
 * the runtime's own checks: `down` when any check is down (the route answers 503), `degraded`
 * when any is degraded. The schema check is cached, so probing often costs the store nothing;
 * whether the store answers is not: it is the store's latest answer to this process
 * (`StoreHealth`, the pipeline process's `/health` reads the store the same way). A store lost
 * after the schema was once verified is `degraded`, not `down`: odds, deltas and streams are
 * still served from memory, and `down` would make a balancer drop every replica at once.
 */
export function healthCheck(src: HealthSource): () => Promise<HealthReport> {
  const expected = loadMigrations().map((m) => m.version);
  let schemaCheck: { at: number; check: Check } | null = null;
  const store = new StoreHealth(src.store, {
    schemaApplied: src.schemaApplied === true,
    meanwhile: 'odds are served from memory; history and analyst queries fail',
  });

  async function schema(): Promise<Check> {
    const answer = await store.latest();
    if (!answer.ok) return store.unreachable(answer.message);
    const now = Date.now();
    if (schemaCheck && now - schemaCheck.at < SCHEMA_CHECK_EVERY_MS) return schemaCheck.check;
    let check: Check;
    try {
      const applied = new Set(await appliedVersions(src.store));
      const missing = expected.filter((v) => !applied.has(v));
      check =
        missing.length === 0
          ? { status: 'ok', latency_ms: Date.now() - now, message: `${expected.length} migrations applied (${src.store.kind})` }
          : { status: 'down', latency_ms: Date.now() - now, message: `migrations not applied: ${missing.join(', ')}` };
    } catch (e) {
      store.reach.failed(e);
      return store.unreachable(e instanceof Error ? e.message : String(e));
    }
    if (check.status === 'ok') store.schemaVerified();
    schemaCheck = { at: now, check };
    return check;
  }

  function data(): Check {
    const last = src.board.lastChangeAt;
    if (last === null) return { status: 'degraded', message: 'no odds received yet' };
    const ageMs = Math.max(0, src.clock.now() - last);
    const message = `${src.board.rowCount} odds rows, ${src.board.activeEvents().length} events, last change ${Math.round(ageMs / 1000)} s ago`;
    return { status: ageMs > DATA_STALE_MS ? 'degraded' : 'ok', message };
  }

  async function redis(): Promise<Check> {
    if (src.redisUrl === null || !src.rateLimits.check)
      return { status: 'ok', message: 'not configured: REDIS_URL not set, rate-limit counters are kept in process' };
    const c = await src.rateLimits.check();
    return c.ok
      ? { status: 'ok', ...(c.latencyMs === undefined ? {} : { latency_ms: c.latencyMs }), message: c.message }
      : { status: 'degraded', message: c.message };
  }

  return async () => {
    const checks = {
      redis: await redis(),
      data: data(),
      schema: await schema(),
      runtime: src.runtime?.() ?? { status: 'ok' as const, message: 'no runtime checks' },
    };
    const status = worstStatus(Object.values(checks));
    return { status, version: src.version, timestamp: new Date(src.clock.now()).toISOString(), checks };
  };
}
