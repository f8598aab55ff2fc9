import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import {
  READONLY_CODE,
  ReadOnlyQueryError,
  boundParams,
  credentials,
  isPing,
  sameSecret,
  sendException,
  statementText,
} from '../pipeline/store/index.js';
import type { ReadOnlyLimits, ReadOnlyStatement } from '../pipeline/store/index.js';
import { StartupError } from './startup-error.js';

/** What runs the statements: the embedded store (`ChdbStore.readOnly`). */
export interface ReadOnlyEngine {
  readOnly(statement: ReadOnlyStatement): Promise<Uint8Array>;
}

/**
 * A slice of the ClickHouse HTTP interface over the embedded store, so analysts can query chDB
 * while the service runs (chDB allows one process per data directory): `GET /ping`, and one
 * statement per request in the `query` parameter and/or the body, answered in the statement's
 * `FORMAT` (else `default_format`, else TabSeparated), with `param_<name>` URL
 * parameters bound to its `{name:Type}` placeholders. Enough for `@clickhouse/client` and curl.
 *
 * Read-only is the engine's doing, not this file's: each statement runs in a session of its own
 * whose limits are set and then locked by `readonly = 1` (see `runReadOnly`). This file checks
 * credentials (and locks out an address that keeps failing them), caps how many statements run
 * at once, and cancels a statement whose client went away.
 */
export interface AnalystEndpointOptions {
  engine: ReadOnlyEngine;
  host: string;
  port: number;
  user: string;
  password: string;
  limits: ReadOnlyLimits;
  /** Statements running at once; the next gets 429 with Retry-After. */
  concurrency: number;
  logger: Logger;
  now?: () => number;
}

const MAX_QUERY_BYTES = 256 * 1024;
/** Failed sign-ins one address may make in `LOCKOUT_WINDOW_MS` before it is refused until the window passes. */
export const MAX_FAILED_LOGINS = 10;
const LOCKOUT_WINDOW_MS = 60_000;

const AUTHENTICATION_FAILED = 516;
const TOO_MANY_SIMULTANEOUS_QUERIES = 202;
const SYNTAX_ERROR = 62;
const ACCESS_DENIED = 497;

/** Failed sign-ins per client address over a fixed window; an address past the bound waits the window out. */
class FailedLogins {
  private readonly byAddress = new Map<string, { count: number; since: number }>();

  constructor(private readonly now: () => number) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  lockedFor(address: string): number {
    const entry = this.current(address);
    if (!entry || entry.count < MAX_FAILED_LOGINS) return 0;
    return Math.max(1, Math.ceil((entry.since + LOCKOUT_WINDOW_MS - this.now()) / 1000));
  }

  fail(address: string): void {
    const entry = this.current(address);
    if (entry) entry.count++;
    else this.byAddress.set(address, { count: 1, since: this.now() });
    // Forget finished windows now and then, so a scan of many addresses cannot grow the map for ever.
    if (this.byAddress.size > 10_000) for (const a of [...this.byAddress.keys()]) this.current(a);
  }

  private current(address: string): { count: number; since: number } | undefined {
    const entry = this.byAddress.get(address);
    if (entry && this.now() - entry.since >= LOCKOUT_WINDOW_MS) {
      this.byAddress.delete(address);
      return undefined;
    }
    return entry;
  }
}

function fail(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendException(res, status, code, `${message}. (odds-platform analyst endpoint)`, headers);
}

/** HTTP status of a refused or failed statement: never a 5xx for what the analyst sent. */
function statusOf(code: number): number {
  if (code === READONLY_CODE || code === ACCESS_DENIED) return 403;
  return code === 0 ? 500 : 400;
}

export async function startAnalystEndpoint(options: AnalystEndpointOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { engine, logger } = options;
  const now = options.now ?? Date.now;
  const failedLogins = new FailedLogins(now);
  let running = 0;

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://analyst');
    if (isPing(req.method, url)) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
      res.end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') return fail(res, 404, 0, `Unknown path ${url.pathname}`);
    const address = req.socket.remoteAddress ?? 'unknown';
    const locked = failedLogins.lockedFor(address);
    if (locked > 0) {
      return fail(res, 429, AUTHENTICATION_FAILED, `Too many failed sign-ins from this address: retry in ${locked} s`, {
        'retry-after': String(locked),
      });
    }
    const who = credentials(req.headers, url);
    if (!who || !sameSecret(who.user, options.user) || !sameSecret(who.password, options.password)) {
      failedLogins.fail(address);
      logger.warn({ address, user: who?.user ?? null }, 'analyst endpoint: sign-in refused');
      return fail(
        res,
        401,
        AUTHENTICATION_FAILED,
        `${who?.user ?? 'anonymous'}: Authentication failed: password is incorrect, or there is no user with such name`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_QUERY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_QUERY_BYTES) return fail(res, 413, 0, `Query over ${MAX_QUERY_BYTES} bytes`);
      const body = Buffer.concat(chunks).toString('utf8');
      const sql = statementText(url, body);
      if (sql.trim().length === 0) return fail(res, 400, SYNTAX_ERROR, 'Empty query');
      if (running >= options.concurrency) {
        return fail(
          res,
          429,
          TOO_MANY_SIMULTANEOUS_QUERIES,
          `Too many simultaneous queries for user ${options.user}: ${options.concurrency} at a time`,
          { 'retry-after': '1' },
        );
      }
      running++;
      const gone = new AbortController();
      // A client that hangs up before its answer is written cancels the statement in the engine.
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      const started = now();
      const params = boundParams(url);
      engine
        .readOnly({
          sql,
          defaultFormat: url.searchParams.get('default_format') ?? 'TabSeparated',
          limits: options.limits,
          params,
          signal: gone.signal,
        })
        .then(
          (bytes) => {
            if (gone.signal.aborted) return;
            res.writeHead(200, {
              'content-type': 'text/plain; charset=UTF-8',
              'x-clickhouse-query-id': url.searchParams.get('query_id') ?? '',
              'x-clickhouse-summary': JSON.stringify({
                elapsed_ns: String((now() - started) * 1e6),
                result_bytes: String(bytes.byteLength),
              }),
            });
            res.end(bytes);
          },
          (e: unknown) => {
            const error = e instanceof ReadOnlyQueryError ? e : new ReadOnlyQueryError(e instanceof Error ? e.message : String(e), 0);
            logger.info({ code: error.code, ms: now() - started, cancelled: gone.signal.aborted }, 'analyst statement refused or failed');
            if (!gone.signal.aborted) fail(res, statusOf(error.code), error.code, error.message);
          },
        )
        .finally(() => {
          running--;
        });
    });
  };

  const server: Server = createServer(serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new StartupError(`ANALYST_PORT ${options.port} cannot be opened (${e.code ?? e.message})`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  logger.info(
    { url, user: options.user, limits: options.limits, concurrency: options.concurrency },
    'analyst endpoint (read-only ClickHouse HTTP) listening',
  );
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
