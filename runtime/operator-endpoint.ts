import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATOR_UNAUTHORIZED, bearerMatches } from '../pipeline/operator-access.js';
import type { OperatorAnswer } from '../pipeline/operator-access.js';
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

/** Operator paths and what they answer (a Map: the path is user input). */
export type OperatorRoutes = ReadonlyMap<string, () => Promise<OperatorAnswer>>;

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
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
export async function startOperatorEndpoint(options: {
  host: string;
  port: number;
  token: string | null;
  routes: OperatorRoutes;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (!serveOperator(req, res, options.routes, options.token))
      operatorNotFound(res, `This port serves GET ${[...options.routes.keys()].join(', ')}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new StartupError(`METRICS_PORT ${options.port} on HOST ${options.host} cannot be opened (${e.code ?? e.message})`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${address.address}:${address.port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
