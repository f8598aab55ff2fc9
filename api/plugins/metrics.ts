import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PipelineStats } from '../../pipeline/pipeline.js';
import type { LiveBoard } from '../views/board.js';

export interface MetricsOptions {
  board: LiveBoard;
  /** Absent when this process runs no pipeline (an API-only replica). */
  pipelineStats?: () => PipelineStats;
}

/**
 * `GET /metrics` in Prometheus text: HTTP traffic per route, the pipeline's counters (matched
 * and unmatched ticks by reason, sink rows written and dropped, lag per stage), the board's
 * size and the process defaults. Pipeline figures are read from `stats()` at scrape time, so
 * nothing is counted twice and the hot paths pay nothing. No key: scrape it from the private
 * network, do not expose it.
 */
export const metricsPlugin = fp<MetricsOptions>(async (app: FastifyInstance, options) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const stats = options.pipelineStats;

  const requests = new Counter({ name: 'odds_http_requests_total', help: 'HTTP requests by route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'odds_http_request_duration_seconds',
    help: 'HTTP request duration by route.',
    labelNames: ['route'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ route }, reply.elapsedTime / 1000);
  });

  new Gauge({ name: 'odds_board_rows', help: 'Odds rows on the live board.', registers: [registry], collect() { this.set(options.board.rowCount); } });
  new Gauge({ name: 'odds_board_events', help: 'Events with odds on the live board.', registers: [registry], collect() { this.set(options.board.activeEvents().length); } });
  if (stats) {
    new Gauge({ name: 'odds_normalizer_matched_ticks', help: 'Raw ticks mapped onto canonical events since start.', registers: [registry], collect() { this.set(stats().normalizer.matched); } });
    new Gauge({
      name: 'odds_normalizer_unmatched_ticks',
      help: 'Raw ticks the normalizer could not map since start, by reason.',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [reason, n] of Object.entries(stats().normalizer.unmatched)) this.set({ reason }, n ?? 0);
      },
    });
    new Gauge({ name: 'odds_normalizer_events', help: 'Canonical events the normalizer tracks.', registers: [registry], collect() { this.set(stats().normalizer.events); } });
    new Gauge({ name: 'odds_opportunities_active', help: 'Active opportunities of all kinds.', registers: [registry], collect() { this.set(stats().opportunities.active); } });
    new Gauge({
      name: 'odds_sink_rows',
      help: 'Rows the ClickHouse sinks wrote, or dropped after retries, since start, by table.',
      labelNames: ['table', 'outcome'],
      registers: [registry],
      collect() {
        for (const [table, c] of Object.entries(stats().sinks)) {
          this.set({ table, outcome: 'written' }, c.rowsWritten);
          this.set({ table, outcome: 'dropped' }, c.rowsFailed);
        }
      },
    });
    new Gauge({
      name: 'odds_stage_lag_records',
      help: 'Records produced but not yet committed, by pipeline stage.',
      labelNames: ['stage'],
      registers: [registry],
      collect() {
        for (const [stage, lag] of Object.entries(stats().lag)) this.set({ stage }, lag);
      },
    });
  }

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(registry.contentType);
    return registry.metrics();
  });
});
