import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChdbResult, Session } from 'chdb';
import {
  boundParams,
  chdb,
  credentials,
  engineFailure,
  isPing,
  isPlainName,
  sameSecret,
  sendException,
  statementText,
  stringLiteral,
} from '../pipeline/store/index.js';

/**
 * A development ClickHouse server: the ClickHouse engine (chDB) on one data directory behind the
 * slice of ClickHouse's HTTP interface that `@clickhouse/client` uses for `ClickHouseStore`:
 * `GET /ping`, one statement per request in the `query` parameter and/or the body (an INSERT's
 * rows follow its `FORMAT` in the body), the `database` parameter, settings as URL parameters,
 * `param_<name>` values for `{name:Type}` placeholders, the answer in the statement's `FORMAT`
 * (else `default_format`, else TabSeparated), and failures with ClickHouse's status, code and
 * message. It lets server mode (CLICKHOUSE_URL) and the chaos run's store outage window run on a
 * machine without a ClickHouse server (docs/chaos.md). A development tool, never part of the
 * runtime: one user, no TLS, no limits, no HTTP sessions, no compression.
 *
 * Each request runs in a chDB session of its own on the directory (a process may open any number
 * on its one directory; each keeps its own settings, current database and query parameters): its
 * settings and parameters are set there with one `SET` and its database with `USE`, as a
 * ClickHouse server sets them on the query's context, so nothing carries over to the next request.
 * Parameters go through `SET param_<name> = '<text>'`, which hands the engine the text the client
 * sent, to be parsed by the placeholder's type as ClickHouse's HTTP interface parses it (chDB's own
 * binding escapes a string again, so a value the client escaped, such as `O\'Brien`, would keep
 * its backslash).
 */
export interface StoreServerOptions {
  /** The engine's data directory: the tables and their rows live here across restarts. */
  dataDir: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** The one user, by default ClickHouse's own: `default` without a password. */
  user?: string;
  password?: string;
}

export interface StoreServer {
  url: string;
  /** Stops taking connections, lets the statements under way finish, then closes the engine. */
  close(): Promise<void>;
}

/** URL parameters ClickHouse's HTTP handler reads itself; every other one is a setting. */
const NOT_SETTINGS: ReadonlySet<string> = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'session_id',
  'session_timeout',
  'session_check',
  'close_session',
  'client_protocol_version',
  'stacktrace',
]);

/** ClickHouse's HTTP status for its error names (src/Server/HTTP/exceptionCodeToHTTPStatus.cpp); any other is 500. */
const STATUS_BY_NAME: ReadonlyMap<string, number> = new Map([
  ['REQUIRED_PASSWORD', 401],
  ...['UNKNOWN_USER', 'WRONG_PASSWORD', 'AUTHENTICATION_FAILED', 'SET_NON_GRANTED_ROLE', 'ACCESS_DENIED'].map((n): [string, number] => [
    n,
    403,
  ]),
  ...[
    'BAD_ARGUMENTS',
    'CANNOT_COMPILE_REGEXP',
    'CANNOT_PARSE_TEXT',
    'CANNOT_PARSE_ESCAPE_SEQUENCE',
    'CANNOT_PARSE_QUOTED_STRING',
    'CANNOT_PARSE_DATE',
    'CANNOT_PARSE_DATETIME',
    'CANNOT_PARSE_NUMBER',
    'CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING',
    'CANNOT_PARSE_IPV4',
    'CANNOT_PARSE_IPV6',
    'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    'CANNOT_PARSE_UUID',
    'DUPLICATE_COLUMN',
    'ILLEGAL_COLUMN',
    'UNKNOWN_ELEMENT_IN_AST',
    'UNKNOWN_TYPE_OF_AST_NODE',
    'THERE_IS_NO_COLUMN',
    'TOO_DEEP_AST',
    'TOO_BIG_AST',
    'UNEXPECTED_AST_STRUCTURE',
    'SYNTAX_ERROR',
    'INCORRECT_DATA',
    'TYPE_MISMATCH',
    'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
  ].map((n): [string, number] => [n, 400]),
  ...[
    'UNKNOWN_TABLE',
    'UNKNOWN_FUNCTION',
    'UNKNOWN_IDENTIFIER',
    'UNKNOWN_TYPE',
    'UNKNOWN_STORAGE',
    'UNKNOWN_DATABASE',
    'UNKNOWN_SETTING',
    'UNKNOWN_DIRECTION_OF_SORTING',
    'UNKNOWN_AGGREGATE_FUNCTION',
    'UNKNOWN_FORMAT',
    'UNKNOWN_DATABASE_ENGINE',
    'UNKNOWN_TYPE_OF_QUERY',
    'UNKNOWN_ROLE',
  ].map((n): [string, number] => [n, 404]),
  ['QUERY_IS_TOO_LARGE', 413],
  ['NOT_IMPLEMENTED', 501],
  ['SOCKET_TIMEOUT', 503],
  ['CANNOT_OPEN_FILE', 503],
  ['HTTP_LENGTH_REQUIRED', 411],
  ['TIMEOUT_EXCEEDED', 408],
  ['CANNOT_SCHEDULE_TASK', 503],
  ['UNSUPPORTED_MEDIA_TYPE', 415],
]);

/** The HTTP status of a failure, from the error name that ends the engine's reason (`... (UNKNOWN_TABLE)`). */
export function httpStatusOf(reason: string): number {
  const name = /\(([A-Z][A-Z0-9_]*)\)\.?\s*$/.exec(reason)?.[1];
  return (name === undefined ? undefined : STATUS_BY_NAME.get(name)) ?? 500;
}

const SYNTAX_ERROR = 62;
const BAD_ARGUMENTS = 36;
const NOT_IMPLEMENTED = 48;
const AUTHENTICATION_FAILED = 516;

/** A refusal of this server's own, in the engine's words, so that it is answered like the engine's failures. */
function refusal(code: number, name: string, message: string): Error {
  return new Error(`Code: ${code}. DB::Exception: ${message}. (${name})`);
}

/** A setting's or a parameter's name as the engine's SET takes it unquoted. */
function settingName(name: string): string {
  if (!isPlainName(name)) throw refusal(BAD_ARGUMENTS, 'BAD_ARGUMENTS', `'${name}' is not a setting or parameter name`);
  return name;
}

/** A quoted identifier: the engine reads back exactly `name`. */
function identifier(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

/** What one request asks the engine to run, read from its URL and body. */
interface StoreRequest {
  sql: string;
  database: string | null;
  /** Settings, then `param_<name>` assignments: one SET statement's list. */
  assignments: string[];
  defaultFormat: string;
}

function storeRequest(url: URL, body: string): StoreRequest {
  if (url.searchParams.has('session_id'))
    throw refusal(NOT_IMPLEMENTED, 'NOT_IMPLEMENTED', 'HTTP sessions are not served by the development store server');
  const settings = [...url.searchParams].filter(([name]) => !NOT_SETTINGS.has(name) && !name.startsWith('param_'));
  return {
    sql: statementText(url, body),
    database: url.searchParams.get('database'),
    assignments: [
      ...settings.map(([name, value]) => `${settingName(name)} = ${stringLiteral(value)}`),
      ...[...boundParams(url)].map(([name, value]) => `param_${settingName(name)} = ${stringLiteral(value)}`),
    ],
    defaultFormat: url.searchParams.get('default_format') ?? 'TabSeparated',
  };
}

export async function startStoreServer(options: StoreServerOptions): Promise<StoreServer> {
  const user = options.user ?? 'default';
  const password = options.password ?? '';
  const engine = chdb();
  // Open for the server's life: the engine starts once, not at every request's session.
  const anchor: Session = new engine.Session(options.dataDir);
  await anchor.queryAsync('SELECT 1');
  const running = new Set<Promise<unknown>>();
  let closing = false;

  const execute = async (request: StoreRequest): Promise<ChdbResult> => {
    const session = new engine.Session(options.dataDir);
    try {
      if (request.assignments.length > 0) await session.queryAsync(`SET ${request.assignments.join(', ')}`);
      if (request.database !== null) await session.queryAsync(`USE ${identifier(request.database)}`);
      return await session.queryAsync(request.sql, { format: request.defaultFormat });
    } finally {
      session.close();
    }
  };

  const answer = (url: URL, body: string, res: ServerResponse): void => {
    if (closing) {
      res.destroy();
      return;
    }
    const started = process.hrtime.bigint();
    const done = (async () => {
      const request = storeRequest(url, body);
      if (request.sql.trim().length === 0) throw refusal(SYNTAX_ERROR, 'SYNTAX_ERROR', 'Empty query');
      const result = await execute(request);
      const bytes = result.bytes();
      res.writeHead(200, {
        'content-type': 'text/plain; charset=UTF-8',
        'x-clickhouse-query-id': url.searchParams.get('query_id') ?? randomUUID(),
        'x-clickhouse-summary': JSON.stringify({
          read_rows: String(result.rowsRead),
          read_bytes: String(result.bytesRead),
          result_bytes: String(bytes.byteLength),
          elapsed_ns: String(process.hrtime.bigint() - started),
        }),
      });
      res.end(bytes);
    })().catch((e: unknown) => {
      const { code, reason } = engineFailure(e);
      process.stderr.write(`store server: statement failed: ${code} ${reason}\n`);
      sendException(res, httpStatusOf(reason), code, reason);
    });
    running.add(done);
    void done.finally(() => running.delete(done));
  };

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (closing) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://store');
    if (isPing(req.method, url)) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
      res.end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') return sendException(res, 404, 0, `There is no handle ${url.pathname}`);
    // Without credentials ClickHouse takes the request as its default user's.
    const who = credentials(req.headers, url) ?? { user: 'default', password: '' };
    if (!sameSecret(who.user, user) || !sameSecret(who.password, password)) {
      const message = `${who.user}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)`;
      return sendException(res, httpStatusOf(message), AUTHENTICATION_FAILED, message);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(url, Buffer.concat(chunks).toString('utf8'), res));
  };

  const server: Server = createServer(serve);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (e) {
    anchor.close();
    throw e;
  }
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: async () => {
      // No new connections, and a statement that reaches a connection still open is refused by
      // cutting it, before it runs (the client retries it); the answers under way are written, so
      // a client never takes a statement the engine carried out for one that failed.
      closing = true;
      const closed = new Promise<void>((r) => server.close(() => r()));
      while (running.size > 0) await Promise.allSettled([...running]);
      server.closeAllConnections();
      await closed;
      anchor.close();
    },
  };
}
