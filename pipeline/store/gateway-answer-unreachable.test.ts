// What went wrong (issue 36 §3): a ClickHouse server behind a proxy or load balancer that cannot
// reach it answers through the proxy with 502, 503 or 504 and the proxy's own page. The client
// turns a body it cannot parse as a ClickHouse exception into a plain Error of the body's text,
// with no code and no status, so the adapter called it a statement the store rejected: the sinks
// failed their stage at once instead of waiting for the store, and `/health` said the store
// answered. The status now comes from the client's debug line for the answer, and a gateway status
// without a ClickHouse code is the store not answering.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickHouseStore, serverFailure } from './clickhouse-store.js';
import { StoreError } from './store.js';

/** An answer as a proxy gives it, or as ClickHouse gives it through one. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
const TOO_MANY_QUERIES =
  'Code: 202. DB::Exception: Too many simultaneous queries. Maximum: 100. (TOO_MANY_SIMULTANEOUS_QUERIES) (version 24.8.4.13 (official build))\n';

describe('an answer with an HTTP status and no ClickHouse code', () => {
  it('is unreachable for 502, 503 and 504, whatever the body', () => {
    expect(serverFailure(new Error(NGINX_502), 502)).toEqual({ retryable: true, unreachable: true });
    expect(serverFailure(new Error(''), 503)).toEqual({ retryable: true, unreachable: true });
    expect(serverFailure(new Error('upstream request timeout'), 504)).toEqual({ retryable: true, unreachable: true });
  });

  it('is what its ClickHouse code says when it carries one, whatever the status', () => {
    const parsed = Object.assign(new Error('Too many simultaneous queries. Maximum: 100. '), { code: '202', type: 'TOO_MANY' });
    expect(serverFailure(parsed, 503)).toEqual({ retryable: true, unreachable: false });
    expect(serverFailure(new Error('Code: 62. DB::Exception: Syntax error'), 502)).toEqual({ retryable: false, unreachable: false });
  });

  it('is a rejection for any other status, or none', () => {
    expect(serverFailure(new Error('Internal Server Error'), 500)).toEqual({ retryable: false, unreachable: false });
    expect(serverFailure(new Error('Forbidden'), 403)).toEqual({ retryable: false, unreachable: false });
    expect(serverFailure(new Error(NGINX_502))).toEqual({ retryable: false, unreachable: false });
  });
});

describe('ClickHouseStore behind a proxy', () => {
  let server: Server | null = null;
  let store: ClickHouseStore | null = null;
  afterEach(async () => {
    await store?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = store = null;
  });

  /** A store whose every request gets `answer`, once the request's body was read (an early answer would cut the upload). */
  async function behind(answer: Answer): Promise<{ store: ClickHouseStore; requests: IncomingHttpHeaders[] }> {
    const requests: IncomingHttpHeaders[] = [];
    const proxy = createServer((req, res) => {
      requests.push(req.headers);
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers });
        res.end(answer.body);
      });
    });
    server = proxy;
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const { port } = proxy.address() as AddressInfo;
    const opened = new ClickHouseStore({ url: `http://127.0.0.1:${port}`, requestTimeoutMs: 5000 });
    store = opened;
    return { store: opened, requests };
  }

  async function failure(call: Promise<unknown>): Promise<StoreError> {
    const e = await call.then(
      () => null,
      (error: unknown) => error,
    );
    if (!(e instanceof StoreError)) throw new Error(`expected a StoreError, got ${String(e)}`);
    return e;
  }

  it("calls the proxy's 502 page the store not answering, and says so with the status", async () => {
    const { store, requests } = await behind({ status: 502, body: NGINX_502 });
    const e = await failure(store.insert('odds_ticks', [{ id: 1 }]));
    expect(requests).toHaveLength(1);
    expect({ unreachable: e.unreachable, retryable: e.retryable, message: e.message }).toEqual({
      unreachable: true,
      retryable: true,
      message:
        'HTTP 502 without a ClickHouse exception (a proxy in front of the store): <html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx/1.24.0</center> </body> </html>',
    });
    expect(store.reach.last?.ok).toBe(false);
  });

  it('calls an empty 504 to a query the store not answering', async () => {
    const { store } = await behind({ status: 504, body: '' });
    const e = await failure(store.query('SELECT 1 AS ok'));
    expect({ unreachable: e.unreachable, message: e.message }).toEqual({
      unreachable: true,
      message: 'HTTP 504 without a ClickHouse exception (a proxy in front of the store), no body',
    });
  });

  it("keeps ClickHouse's own 503 (too many queries) a refusal for now from a store that answers", async () => {
    const { store } = await behind({ status: 503, headers: { 'x-clickhouse-exception-code': '202' }, body: TOO_MANY_QUERIES });
    const e = await failure(store.exec('SELECT 1'));
    expect({ unreachable: e.unreachable, retryable: e.retryable }).toEqual({ unreachable: false, retryable: true });
    expect(store.reach.last?.ok).toBe(false);
  });

  it("keeps a proxy's 500 a rejection: nothing says the store is away", async () => {
    const { store } = await behind({ status: 500, body: 'Internal Server Error' });
    const e = await failure(store.insert('odds_ticks', [{ id: 1 }]));
    expect({ unreachable: e.unreachable, retryable: e.retryable, message: e.message }).toEqual({
      unreachable: false,
      retryable: false,
      message: 'Internal Server Error',
    });
    expect(store.reach.last?.ok).toBe(true);
  });
});
