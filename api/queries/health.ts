import { StoreReach, appliedVersions, loadMigrations } from '../../pipeline/store/index.js';
import type { StoreAnswer } from '../../pipeline/store/index.js';
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
/**
 * Whether the store answers is judged by its latest answer to this process (`StoreReach`: the
 * sinks' inserts, usage flushes, history queries); when it gave none for this long, `/health`
 * asks it `SELECT 1`, so at most once per this long however often `/health` is polled.
 */
const STORE_PROBE_EVERY_MS = 5_000;
/** A probe the store has not answered within this long counts as the store not answering. */
const STORE_PROBE_TIMEOUT_MS = 3_000;

export interface HealthSource {
  store: OlapStore;
  board: Pick<LiveBoard, 'lastChangeAt' | 'rowCount' | 'activeEvents'>;
  clock: Clock;
  redisUrl: string | null;
  /** The rate-limit store's own probe (Redis); absent when counters are kept in process. */
  rateLimits: { check?(): Promise<{ ok: boolean; latencyMs?: number; message: string }> };
  version: string;
  runtime?: () => Check;
  /**
   * Whether this process applied every migration before it served (runtime/store.ts does at
   * start): the schema counts as verified from the first probe, so a store lost before anyone
   * probed is `degraded` too.
   */
  schemaApplied?: boolean;
}

/**
 * The service's health, judged from the store's migrations, the board's last change, Redis and
 * the runtime's own checks: `down` when any check is down (the route answers 503), `degraded`
 * when any is degraded. The schema check is cached, so probing often costs the store nothing;
 * whether the store answers is not: a replica probed just before an outage said `ok` from the
 * cache for up to 30 s (issue 36's chaos run). It is the store's latest answer to this process,
 * a failed one counting at once, and a cheap probe when the store said nothing for 5 s. A store
 * lost after the schema was once verified is `degraded`, not `down` (see `schema`).
 */
export function healthCheck(src: HealthSource): () => Promise<HealthReport> {
  const expected = loadMigrations().map((m) => m.version);
  let schemaCheck: { at: number; check: Check } | null = null;
  /** Whether this process applied every migration, or a check of it found them all applied. */
  let schemaVerified = src.schemaApplied === true;
  /** The store's answers to this process (a store without its own record: this check's probes only). */
  const reach = src.store.reach ?? new StoreReach();
  let probing: Promise<void> | null = null;

  /** Asks the store `SELECT 1`, bounded by STORE_PROBE_TIMEOUT_MS, and records how it ended. */
  async function probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the store did not answer within ${STORE_PROBE_TIMEOUT_MS / 1000} s`)),
        STORE_PROBE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([src.store.query('SELECT 1 AS ok'), late]);
      reach.answered();
    } catch (e) {
      reach.failed(e);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The store's latest answer, asking it only when it gave none for STORE_PROBE_EVERY_MS (one probe for concurrent callers). */
  async function latestAnswer(): Promise<StoreAnswer> {
    const last = reach.last;
    if (last && Date.now() - last.at < STORE_PROBE_EVERY_MS) return last;
    probing ??= probe().finally(() => (probing = null));
    await probing;
    return reach.last ?? { at: Date.now(), ok: false, message: 'never answered' };
  }

  /**
   * Once this process has seen its schema in place, a store that goes away stops history,
   * analyst SQL and the sinks' writes (which wait in the bus), but odds, deltas and streams are
   * still served from memory: `down` would make a balancer drop every replica at once.
   */
  function unreachable(why: string): Check {
    return schemaVerified
      ? { status: 'degraded', message: `store unreachable (odds are served from memory; history and analyst queries fail): ${why}` }
      : { status: 'down', message: `store unreachable: ${why}` };
  }

  async function schema(): Promise<Check> {
    const answer = await latestAnswer();
    if (!answer.ok) return unreachable(answer.message);
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
      reach.failed(e);
      return unreachable(e instanceof Error ? e.message : String(e));
    }
    if (check.status === 'ok') schemaVerified = true;
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
    const values = Object.values(checks).map((c) => c.status);
    const status = values.includes('down') ? 'down' : values.includes('degraded') ? 'degraded' : 'ok';
    return { status, version: src.version, timestamp: new Date(src.clock.now()).toISOString(), checks };
  };
}
