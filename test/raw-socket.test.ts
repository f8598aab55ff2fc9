/**
 * What went wrong: malformed HTTP was answered in Fastify's own `{"error":"Bad Request"}` form
 * (or, without Host, with an empty body), some 400s had no X-Request-Id, a POST that sent 12 of
 * its 100 declared bytes kept its socket open for ever, and one client could hold thousands of
 * sockets. Spoken over raw sockets, since an HTTP client library would refuse to send these.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../api/errors.js';
import { collect, openSocket, rawRequest, startBareApp } from './support/raw-http.js';
import type { BareApp, RawAnswer } from './support/raw-http.js';

const REQUEST_TIMEOUT_MS = 800;
const CAP = 5;
let s: BareApp;

beforeAll(async () => {
  s = await startBareApp({ requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: REQUEST_TIMEOUT_MS, maxConnectionsPerAddress: CAP });
});
afterAll(async () => {
  await s.close();
});

/** The error envelope with a catalogue code matching the status, and a request id. */
function expectEnvelope(r: RawAnswer, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('x-request-id'), r.text).toMatch(/^[0-9a-f-]{36}$/);
  expect(r.headers.get('content-type'), r.text).toMatch(/^application\/json/);
  const body = JSON.parse(r.body) as { error: { code: keyof typeof ERROR_CODES; message: string; docs: string } };
  expect(Object.keys(body.error)).toEqual(expect.arrayContaining(['code', 'docs', 'message']));
  expect(body.error.code).toBe(code);
  expect(ERROR_CODES[body.error.code].status).toBe(status);
}

describe('malformed HTTP', () => {
  const host = 'Host: 127.0.0.1\r\n';
  const cases: [string, string, number, string][] = [
    [
      'bad chunk size',
      `POST /api/v1/odds/batch HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'Content-Length and Transfer-Encoding together',
      `POST /api/v1/odds/batch HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'two different Content-Lengths',
      `POST /api/v1/odds/batch HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      400,
      'invalid_request',
    ],
    ['a space in the path', `GET /api/v1/sports x/y HTTP/1.1\r\n${host}\r\n`, 400, 'invalid_request'],
    [
      'raw UTF-8 in the path',
      Buffer.concat([Buffer.from('GET /api/v1/sports/'), Buffer.from('fútbol', 'utf8'), Buffer.from(` HTTP/1.1\r\n${host}\r\n`)]).toString(
        'latin1',
      ),
      400,
      'invalid_request',
    ],
    ['an unknown method', `FROB /api/v1/sports HTTP/1.1\r\n${host}\r\n`, 400, 'invalid_request'],
    ['a header line without a colon', `GET /api/v1/sports HTTP/1.1\r\n${host}not a header\r\n\r\n`, 400, 'invalid_request'],
    ['headers over 16 KiB', `GET /api/v1/sports HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'headers_too_large'],
    ['no Host header', 'GET /api/v1/health HTTP/1.1\r\n\r\n', 400, 'invalid_request'],
    ['a broken percent escape', `GET /api/v1/sports/%E0%A4%A HTTP/1.1\r\n${host}\r\n`, 400, 'invalid_request'],
  ];
  for (const [name, bytes, status, code] of cases) {
    it(`answers ${name} with ${status} ${code} in the envelope`, async () => {
      const r = await rawRequest(s.port, Buffer.from(bytes, 'latin1'));
      expectEnvelope(r, status, code);
    });
  }

  it('serves a well-formed request on the same server (the cases above are not just refusing everything)', async () => {
    const r = await rawRequest(s.port, 'GET /api/v1/docs/errors HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a request the router cannot place with 404 not_found and a request id', async () => {
    const r = await rawRequest(s.port, 'PUT /api/v1/sports HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    expectEnvelope(r, 404, 'not_found');
  });
});

describe('stalled requests', () => {
  it('closes a body that stops arriving with 408 request_timeout within the timeout', async () => {
    const socket = await openSocket(s.port);
    const head = `POST /api/v1/odds/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"event_ids"`;
    const r = await collect(socket, () => socket.write(head), { maxMs: REQUEST_TIMEOUT_MS * 5 });
    expectEnvelope(r, 408, 'request_timeout');
    expect(r.closed).toBe(true);
    // Node checks deadlines on an interval of a tenth of the timeout: allow that, and scheduling.
    expect(r.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(r.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
  });

  it('closes headers that stop arriving with 408 as well', async () => {
    const socket = await openSocket(s.port);
    const r = await collect(socket, () => socket.write('GET /api/v1/sports HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api'), {
      maxMs: REQUEST_TIMEOUT_MS * 5,
    });
    expectEnvelope(r, 408, 'request_timeout');
    expect(r.closed).toBe(true);
    expect(r.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS * 3);
  });
});

describe('connections per client address', () => {
  it(`answers connection ${CAP + 1} with 429 concurrent_request_cap and closes it, and admits again once one closes`, async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < CAP; i++) held.push(await openSocket(s.port));
      const over = await rawRequest(s.port, 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expectEnvelope(over, 429, 'concurrent_request_cap');
      expect(over.closed).toBe(true);
      expect(over.headers.get('retry-after')).toBe('1');

      held.pop()?.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const again = await rawRequest(s.port, 'GET /api/v1/docs/errors HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(again.status).toBe(200);
    } finally {
      for (const h of held) h.destroy();
    }
  });

  it('lets the held connections keep working while the cap refuses new ones', async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < CAP; i++) held.push(await openSocket(s.port));
      const first = held[0] as Socket;
      const r = await collect(first, () => first.write('GET /api/v1/docs/errors HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
      expect(r.status).toBe(200);
    } finally {
      for (const h of held) h.destroy();
    }
  });
});
