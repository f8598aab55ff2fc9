import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { PipelineStats } from '../pipeline/pipeline.js';
import { StartupError } from './startup-error.js';

/**
 * What only the operator may read: Prometheus metrics (per-route traffic, board size, active
 * opportunities, process memory and CPU) and the pipeline's counters. They were served to anyone
 * who reached the API port. Now they are on METRICS_PORT (a listener of their own, for the
 * private network), and on the public port only when METRICS_TOKEN is set and sent as a bearer
 * token; with neither set, nothing serves them.
 */
export interface OperatorSettings {
  /** The operator listener's port; null: none. */
  port: number | null;
  /** Required as `Authorization: Bearer` wherever the operator's answers are served; null: none. */
  token: string | null;
}

export interface OperatorAnswer {
  contentType: string;
  body: string;
}

/** Operator paths and what they answer (a Map: the path is user input). */
export type OperatorRoutes = ReadonlyMap<string, () => Promise<OperatorAnswer>>;

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Whether `authorization` carries `token` as a bearer token (constant time in the token). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : null;
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

export const OPERATOR_UNAUTHORIZED = 'The operator endpoints need METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)';

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
  res.end(JSON.stringify({ error: { code, message } }));
}

/**
 * Answers `req` when it is a GET or HEAD of one of `routes` (401 without the bearer token when
 * `token` is set); false, with nothing written, for anything else.
 */
export function serveOperator(req: IncomingMessage, res: ServerResponse, routes: OperatorRoutes, token: string | null): boolean {
  const route = routes.get(new URL(req.url ?? '/', 'http://operator').pathname);
  if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  if (token !== null && !bearerMatches(req.headers.authorization, token)) fail(res, 401, 'unauthorized', OPERATOR_UNAUTHORIZED);
  else {
    route().then(
      (answer) => {
        res.writeHead(200, { 'content-type': answer.contentType, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : answer.body);
      },
      (e: unknown) => fail(res, 500, 'internal_error', e instanceof Error ? e.message : String(e)),
    );
  }
  return true;
}

/** 404 in the envelope's shape, naming what the port does serve. */
export function operatorNotFound(res: ServerResponse, message: string): void {
  fail(res, 404, 'not_found', message);
}

/**
 * The operator listener (METRICS_PORT). Without a token it trusts whoever reaches the port, so
 * it belongs on a private network only.
 */
export async function startOperatorEndpoint(options: { host: string; port: number; token: string | null; routes: OperatorRoutes }): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (!serveOperator(req, res, options.routes, options.token)) operatorNotFound(res, `This port serves GET ${[...options.routes.keys()].join(', ')}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new StartupError(`METRICS_PORT ${options.port} on HOST ${options.host} cannot be opened (${e.code ?? e.message})`)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${address.address}:${address.port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The pipeline's counters as gauges on `registry`, read from `stats()` at scrape time, so
 * nothing is counted twice and the hot paths pay nothing. Both roles that run a pipeline use it.
 */
export function registerPipelineMetrics(registry: Registry, stats: () => PipelineStats): void {
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
