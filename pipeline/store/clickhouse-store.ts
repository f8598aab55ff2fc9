import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
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
 * How a failed call to the server is classified (StoreError): by Node's error code for the
 * connection, by the server's exception code for an answer. No answer at all (a connection
 * refused, reset or cut, or the client's timeout) is `unreachable`; an exception whose code says
 * "not now" is retryable; any other exception is the statement's or the data's fault.
 */
export function serverFailure(e: unknown): { retryable: boolean; unreachable: boolean } {
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
  return { retryable: TRANSIENT_CODES.has(code), unreachable: false };
}

/** ClickHouse server over HTTP, for deployments that outgrow one machine. */
export class ClickHouseStore implements OlapStore {
  readonly kind = 'clickhouse' as const;
  /** Every call's outcome: whether the server answered (read by `/health`). */
  readonly reach = new StoreReach();
  private readonly client: ClickHouseClient;

  constructor(options: ClickHouseStoreOptions) {
    this.client = createClient({
      url: options.url,
      username: options.username ?? 'default',
      password: options.password ?? '',
      database: options.database ?? 'default',
      // Failures reach the caller as StoreError and are logged there, once, in our format.
      log: { level: ClickHouseLogLevel.OFF },
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
    await this.wrap(() => this.client.command({ query: sql }));
  }

  async insert(table: string, rows: readonly StoreRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.wrap(() => this.client.insert({ table, values: rows as StoreRow[], format: 'JSONEachRow' }));
  }

  async query<T extends StoreRow>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
    return this.wrap(async () => {
      const rs = await this.client.query({ query: sql, query_params: params ?? {}, format: 'JSONEachRow' });
      return rs.json<T>();
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async wrap<R>(op: () => Promise<R>): Promise<R> {
    try {
      const result = await op();
      this.reach.answered();
      return result;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const { retryable, unreachable } = serverFailure(e);
      const error = new StoreError(message, retryable, { cause: e, unreachable });
      this.reach.failed(error);
      throw error;
    }
  }
}
