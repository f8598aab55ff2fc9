import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PipelineStats } from '../../pipeline/pipeline.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { registerPipelineMetrics } from '../../pipeline/metrics.js';
import { OPERATOR_UNAUTHORIZED, bearerMatches } from '../../pipeline/operator-access.js';
import type { OperatorAnswer } from '../../pipeline/operator-access.js';
import { ApiError } from '../errors.js';
import type { LiveBoard } from '../views/index.js';

export interface MetricsOptions {
  board: LiveBoard;
  /** Absent when this process runs no pipeline (an API-only replica). */
  pipelineStats?: () => PipelineStats;
  /** METRICS_TOKEN: `/metrics` on this port only with it as a bearer token; absent or null: not on this port. */
  token?: string | null;
  /** The store whose active parts are counted at scrape time; absent: no parts gauge. */
  store?: OlapStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus text now, for the operator listener (METRICS_PORT). */
    metricsText(): Promise<OperatorAnswer>;
  }
}

/**
 * Prometheus metrics: HTTP traffic per route, the pipeline's counters (matched and unmatched
 * ticks by reason, sink rows written and dropped, lag per stage), the board's size and the
 * process defaults. Operator data (runtime/operator-endpoint.ts): `app.metricsText()` feeds the
 * operator listener, and this port serves `GET /metrics` only with a token configured and sent.
 */
export const metricsPlugin = fp<MetricsOptions>(async (app: FastifyInstance, options) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'odds_http_requests_total',
    help: 'HTTP requests by route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'odds_http_request_duration_seconds',
    help: 'HTTP request duration by route.',
    labelNames: ['route'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ route }, reply.elapsedTime / 1000);
    done();
  });

  new Gauge({
    name: 'odds_board_rows',
    help: 'Odds rows on the live board.',
    registers: [registry],
    collect() {
      this.set(options.board.rowCount);
    },
  });
  new Gauge({
    name: 'odds_board_rows_taken_in',
    help: 'Rows the live board has taken in under a key it did not hold, since start: how fast its keys turn over.',
    registers: [registry],
    collect() {
      this.set(options.board.rowsTakenIn);
    },
  });
  new Gauge({
    name: 'odds_board_events',
    help: 'Events with odds on the live board.',
    registers: [registry],
    collect() {
      this.set(options.board.activeEvents().length);
    },
  });
  // The freshness ledger's samples as histograms (GET /freshness has the same figures as percentiles).
  const buckets = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
  const confirmationAge = new Histogram({
    name: 'odds_book_confirmation_age_seconds',
    help: 'How long a price had gone unconfirmed when its book next set or confirmed it, by book and phase.',
    labelNames: ['book', 'phase'],
    buckets,
    registers: [registry],
  });
  const feedLag = new Histogram({
    name: 'odds_book_feed_lag_seconds',
    help: 'How long after the book moved a price our feed saw it (observed_at - odds_changed_at), by book and phase.',
    labelNames: ['book', 'phase'],
    buckets,
    registers: [registry],
  });
  options.board.freshness.onSighting((s) => {
    const labels = { book: s.book, phase: s.phase };
    if (s.confirmationAgeMs !== null) confirmationAge.observe(labels, s.confirmationAgeMs / 1000);
    if (s.feedLagMs !== null) feedLag.observe(labels, s.feedLagMs / 1000);
  });
  if (options.pipelineStats) registerPipelineMetrics(registry, options.pipelineStats);
  registerLeakSignals(registry, app, options.store);

  app.decorate('metricsText', async () => ({ contentType: registry.contentType, body: await registry.metrics() }));

  const token = options.token ?? null;
  if (token === null) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token))
      throw new ApiError('unauthorized', OPERATOR_UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    void reply.type(registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
});

/**
 * What a long run watches for leaks beyond the defaults (docs/soak.md): the heap used right after
 * the last major GC (the default heap gauge swings with the young generation and unswept garbage,
 * too noisy to fit a trend to) and the store's active parts (when merges fall behind the
 * inserts, parts pile up: reads slow down, and ClickHouse at last refuses inserts).
 */
function registerLeakSignals(registry: Registry, app: FastifyInstance, store: OlapStore | undefined): void {
  let afterMajorGc = 0;
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) afterMajorGc = process.memoryUsage().heapUsed;
    }
  });
  gcs.observe({ entryTypes: ['gc'] });
  app.addHook('onClose', async () => gcs.disconnect());
  new Gauge({
    name: 'odds_heap_used_after_major_gc_bytes',
    help: 'V8 heap in use as read just after the last major (mark-compact) GC; 0 before the first.',
    registers: [registry],
    collect() {
      this.set(afterMajorGc);
    },
  });
  if (!store) return;
  new Gauge({
    name: 'odds_store_active_parts',
    help: "Active data parts of this database's tables in the ClickHouse store.",
    registers: [registry],
    async collect() {
      const [row] = await store.query<{ parts: string | number }>(
        'SELECT count() AS parts FROM system.parts WHERE active AND database = currentDatabase()',
      );
      this.set(Number(row?.parts ?? 0));
    },
  });
}
