import { randomUUID } from 'node:crypto';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import type { ClickHouseClient, LogParams, Logger } from '@clickhouse/client';
import type { OlapStore, StoreRow } from './store.js';
import { StoreError, StoreReach } from './store.js';

export interface ClickHouseStoreOptions {
  url: string;
  username?: string;
  password?: string;
  database?: string;
  /** Per request; the client's default (30 s) is long for a start-up check. */
  requestTimeoutMs?: number;
}

/**
 * Server error codes that say "not now" rather than "never": memory limit, too many parts or
 * queries, timeouts, network and keeper trouble, a table in read-only mode during a restart.
 */
const TRANSIENT_CODES = new Set(['159', '164', '202', '209', '210', '241', '242', '252', '319', '425', '999']);

/**
 * Node's codes for a connection to the server that could not be made or was lost before the
 * answer ended: the server did not answer (stopped, restarting, unreachable on the network).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** The client's own error when a request outlives `request_timeout`: it carries no code, only this text. */
const CLIENT_TIMEOUT = 'Timeout error.';

/**
 * What a proxy or load balancer in front of the server answers when it cannot reach it (Bad
 * Gateway, Service Unavailable, Gateway Timeout). ClickHouse answers some of these itself, but
 * always with its exception code: only an answer without one is the proxy's.
 */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * How a failed call to the server is classified (StoreError): by Node's error code for the
 * connection, by the server's exception code for an answer. No answer at all (a connection
 * refused, reset or cut, or the client's timeout) is `unreachable`, and so is a gateway's
 * 502/503/504 (`httpStatus`, when the call got an answer) that carries no ClickHouse code: the
 * server behind the proxy did not answer. An exception whose code says "not now" is retryable;
 * any other exception is the statement's or the data's fault.
 */
export function serverFailure(e: unknown, httpStatus?: number): { retryable: boolean; unreachable: boolean } {
  // The error, what it wraps, and each address's failure of a connection tried on several (AggregateError).
  const seen: unknown[] = [e];
  for (let i = 0; i < seen.length && i < 8; i++) {
    const c = seen[i];
    if (!(c instanceof Error)) continue;
    const code = (c as { code?: unknown }).code;
    if ((typeof code === 'string' && CONNECTION_CODES.has(code)) || c.message === CLIENT_TIMEOUT)
      return { retryable: true, unreachable: true };
    if (c.cause !== undefined) seen.push(c.cause);
    if (c instanceof AggregateError) seen.push(...(c.errors as unknown[]));
  }
  // The client parses the server's `Code: N. DB::Exception: ...` into `code`; an answer it could
  // not parse (no `(TYPE)` marker) keeps the text, where the code is read instead.
  const message = e instanceof Error ? e.message : String(e);
  const given = (e as { code?: unknown } | null)?.code;
  const code = typeof given === 'string' && /^\d+$/.test(given) ? given : (/Code: (\d+)/.exec(message)?.[1] ?? '');
  if (code === '' && httpStatus !== undefined && GATEWAY_STATUSES.has(httpStatus)) return { retryable: true, unreachable: true };
  return { retryable: TRANSIENT_CODES.has(code), unreachable: false };
}

/**
 * The client's logger, keeping the HTTP status of every answer that was not a success, by query
 * id. The client puts a failed answer's status on no error: a body it cannot parse as a
 * ClickHouse exception (a proxy's HTML page) becomes a plain Error of the body's text, and the
 * status is only in its debug line for the answer. Every other line is dropped: failures reach
 * callers as StoreError and are logged there, once, in our format.
 */
function failedStatusLogger(statuses: Map<string, number>): new () => Logger {
  return class implements Logger {
    debug({ args }: LogParams): void {
      const status = args?.['response_status'];
      const queryId = args?.['query_id'];
      if (typeof status === 'number' && (status < 200 || status >= 300) && typeof queryId === 'string') statuses.set(queryId, status);
    }
    trace(): void {}
    info(): void {}
    warn(): void {}
    error(): void {}
  };
}

/** ClickHouse server over HTTP, for deployments that outgrow one machine. */
export class ClickHouseStore implements OlapStore {
  readonly kind = 'clickhouse' as const;
  /** Every call's outcome: whether the server answered (read by `/health`). */
  readonly reach = new StoreReach();
  private readonly client: ClickHouseClient;
  /** The HTTP status of each call's failed answer, by the query id the call sent, until the call ends. */
  private readonly failedStatuses = new Map<string, number>();

  constructor(options: ClickHouseStoreOptions) {
    this.client = createClient({
      url: options.url,
      username: options.username ?? 'default',
      password: options.password ?? '',
      database: options.database ?? 'default',
      // Only for the status of a failed answer (failedStatusLogger); nothing is printed.
      log: { LoggerClass: failedStatusLogger(this.failedStatuses), level: ClickHouseLogLevel.DEBUG },
      ...(options.requestTimeoutMs === undefined ? {} : { request_timeout: options.requestTimeoutMs }),
      // Same JSON shapes as chDB: 64-bit integers as numbers, not quoted strings, and a JSON object
      // given for a String column stored as its text (rows carry records that way; see `StoreRow`).
      clickhouse_settings: {
        date_time_input_format: 'best_effort',
        output_format_json_quote_64bit_integers: 0,
        input_format_json_read_objects_as_strings: 1,
      },
    });
  }

  async exec(sql: string): Promise<void> {
    await this.wrap((query_id) => this.client.command({ query: sql, query_id }));
  }

  async insert(table: string, rows: readonly StoreRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.wrap((query_id) => this.client.insert({ table, values: rows as StoreRow[], format: 'JSONEachRow', query_id }));
  }

  async query<T extends StoreRow>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
    return this.wrap(async (query_id) => {
      const rs = await this.client.query({ query: sql, query_params: params ?? {}, format: 'JSONEachRow', query_id });
      return rs.json<T>();
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Runs one call under a query id of its own, so that its failed answer's status can be found. */
  private async wrap<R>(op: (queryId: string) => Promise<R>): Promise<R> {
    const queryId = randomUUID();
    try {
      const result = await op(queryId);
      this.reach.answered();
      return result;
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      const status = this.failedStatuses.get(queryId);
      const { retryable, unreachable } = serverFailure(e, status);
      // A gateway's page says little on one line (`<html>`): the status says what happened.
      const page = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      const message =
        unreachable && status !== undefined
          ? `HTTP ${status} without a ClickHouse exception (a proxy in front of the store)${page === '' ? ', no body' : `: ${page}`}`
          : text;
      const error = new StoreError(message, retryable, { cause: e, unreachable });
      this.reach.failed(error);
      throw error;
    } finally {
      this.failedStatuses.delete(queryId);
    }
  }
}
