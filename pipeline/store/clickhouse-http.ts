import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * What our two servers of ClickHouse's HTTP interface over chDB read from a request and write
 * for a failure, the same way: the read-only analyst endpoint (runtime/analyst-endpoint.ts) and
 * the development store server (bench/store-server.ts). How a statement runs, and with what
 * rights, is each server's own.
 */

/** `GET /ping`, or `GET /` without a statement: ClickHouse answers `Ok.` to both. */
export function isPing(method: string | undefined, url: URL): boolean {
  return url.pathname === '/ping' || (url.pathname === '/' && method === 'GET' && !url.searchParams.has('query'));
}

/** Who the request says it is: Basic auth, else the X-ClickHouse-User/-Key headers, else the `user`/`password` parameters. */
export function credentials(headers: IncomingHttpHeaders, url: URL): { user: string; password: string } | null {
  const auth = headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    return i < 0 ? null : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  const user = headers['x-clickhouse-user'] ?? url.searchParams.get('user');
  const password = headers['x-clickhouse-key'] ?? url.searchParams.get('password');
  return typeof user === 'string' && typeof password === 'string' ? { user, password } : null;
}

/** Equal secrets, compared in a time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Like ClickHouse: the `query` parameter, then the body, joined by a newline (an INSERT's data follows its FORMAT). */
export function statementText(url: URL, body: string): string {
  return [url.searchParams.get('query'), body].filter((p): p is string => p !== null && p.length > 0).join('\n');
}

/** A string literal the engine reads back as exactly `text` (its parser's escapes: backslash, quote, NUL). */
export function stringLiteral(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\0/g, '\\0')}'`;
}

/**
 * Whether `name` may stand unquoted in a `SET` as a setting's name or after `param_`: a
 * `{name:Type}` placeholder can only name such a parameter, and anything else in that position
 * would be read as more of the statement.
 */
export function isPlainName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * The `param_<name>` parameters: each placeholder's value as the text the client sent, which the
 * engine parses by the placeholder's type (`@clickhouse/client` escapes strings for that parse).
 */
export function boundParams(url: URL): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of url.searchParams) if (name.startsWith('param_')) params.set(name.slice('param_'.length), value);
  return params;
}

/**
 * ClickHouse's answer to a failed request: the status, the code in `X-ClickHouse-Exception-Code`
 * and `Code: <code>. DB::Exception: <message>` as the body. A failure after the answer began
 * can only cut the connection.
 */
export function sendException(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=UTF-8', 'x-clickhouse-exception-code': String(code), ...headers });
  res.end(`Code: ${code}. DB::Exception: ${message}\n`);
}
