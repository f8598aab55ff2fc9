import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ChdbStore } from '../pipeline/store/index.js';
import { StartupError } from './startup-error.js';

/**
 * A read-only slice of the ClickHouse HTTP interface over the embedded store, so analysts can
 * query chDB while the service runs (chDB allows one process per data directory): `GET /ping`,
 * and one statement per request in the `query` parameter and/or the body, answered in the
 * statement's `FORMAT` (else `default_format`, else TabSeparated). Enough for
 * `@clickhouse/client` and curl. Its own credentials (Basic auth or the X-ClickHouse-User/-Key
 * headers); anything but a read is refused with ClickHouse's READONLY error (code 164).
 */
export interface AnalystEndpointOptions {
  store: ChdbStore;
  host: string;
  port: number;
  user: string;
  password: string;
  logger: Logger;
}

const READ_STATEMENT = /^(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i;
/** Table functions reach outside the store (files, network, processes): not for this endpoint. */
const OUTSIDE = /\b(file|url|s3|s3Cluster|gcs|azureBlobStorage|hdfs|remote|remoteSecure|cluster|clusterAllReplicas|mysql|postgresql|jdbc|odbc|sqlite|mongodb|redis|executable|input|deltaLake|iceberg|hudi|fuzzJSON|python)\s*\(/i;
const MAX_QUERY_BYTES = 256 * 1024;

/** Comments and surrounding whitespace out, so the first keyword is the statement's. */
function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').trim();
}

/** Why the statement is not a plain read of the store, or null when it is. */
export function refusal(sql: string): string | null {
  const s = stripComments(sql).replace(/;\s*$/, '');
  if (s.length === 0) return 'Empty query';
  if (!READ_STATEMENT.test(s)) return 'Cannot execute query in readonly mode: only SELECT, WITH, SHOW, DESCRIBE, EXISTS and EXPLAIN are allowed';
  if (/;/.test(s.replace(/'(?:[^'\\]|\\.)*'/g, "''"))) return 'Multi-statements are not allowed';
  if (/\bINTO\s+OUTFILE\b/i.test(s)) return 'Cannot execute query in readonly mode: INTO OUTFILE writes files';
  if (OUTSIDE.test(s.replace(/'(?:[^'\\]|\\.)*'/g, "''"))) return 'Cannot execute query in readonly mode: table functions that reach outside the store are not allowed';
  return null;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function credentials(req: IncomingMessage, url: URL): { user: string; password: string } | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    return i < 0 ? null : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  const user = req.headers['x-clickhouse-user'] ?? url.searchParams.get('user');
  const password = req.headers['x-clickhouse-key'] ?? url.searchParams.get('password');
  return typeof user === 'string' && typeof password === 'string' ? { user, password } : null;
}

function fail(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=UTF-8', 'x-clickhouse-exception-code': String(code) });
  res.end(`Code: ${code}. DB::Exception: ${message}. (odds-platform analyst endpoint)\n`);
}

export async function startAnalystEndpoint(options: AnalystEndpointOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { store, logger } = options;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://analyst');
    if (url.pathname === '/ping' || (url.pathname === '/' && req.method === 'GET' && !url.searchParams.has('query'))) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
      res.end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') return fail(res, 404, 0, `Unknown path ${url.pathname}`);
    const who = credentials(req, url);
    if (!who || !same(who.user, options.user) || !same(who.password, options.password)) {
      return fail(res, 401, 516, `${who?.user ?? 'anonymous'}: Authentication failed: password is incorrect, or there is no user with such name`);
    }
    let body = '';
    let tooBig = false;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_QUERY_BYTES) tooBig = true;
    });
    req.on('end', () => {
      if (tooBig) return fail(res, 413, 0, `Query over ${MAX_QUERY_BYTES} bytes`);
      // Like ClickHouse: the `query` parameter, then the body, joined by a newline.
      const sql = [url.searchParams.get('query'), body].filter((p) => p !== null && p.length > 0).join('\n');
      const refused = refusal(sql);
      if (refused) return fail(res, 400, refused === 'Empty query' ? 62 : 164, refused);
      const started = Date.now();
      store.queryText(sql, url.searchParams.get('default_format') ?? 'TabSeparated').then(
        (text) => {
          res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8', 'x-clickhouse-query-id': url.searchParams.get('query_id') ?? '', 'x-clickhouse-summary': JSON.stringify({ elapsed_ns: String((Date.now() - started) * 1e6) }) });
          res.end(text);
        },
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          const code = Number(/Code: (\d+)/.exec(message)?.[1] ?? 0);
          fail(res, 400, code, message.replace(/^.*?DB::Exception: /s, '').split('\n')[0] ?? message);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new StartupError(`ANALYST_PORT ${options.port} cannot be opened (${e.code ?? e.message})`)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  logger.info({ url, user: options.user }, 'analyst endpoint (read-only ClickHouse HTTP) listening');
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}
