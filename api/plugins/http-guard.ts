import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, errorBody } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { HARDENING_HEADERS } from './hardening.js';
import { settingDefault } from '../../schemas/index.js';
import type { HttpLimits } from '../../schemas/index.js';

/**
 * Limits on what one client can hold open (`HttpLimits`, the configuration's `http`) when none
 * are given. Every refusal leaves in the error envelope with an X-Request-Id, including those
 * Node answers before Fastify sees a request.
 */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: settingDefault('REQUEST_TIMEOUT_MS'),
  headersTimeoutMs: settingDefault('HEADERS_TIMEOUT_MS'),
  keepAliveTimeoutMs: settingDefault('KEEP_ALIVE_TIMEOUT_MS'),
  maxConnectionsPerAddress: settingDefault('MAX_CONNECTIONS_PER_ADDRESS'),
  shedEventLoopDelayMs: settingDefault('SHED_EVENT_LOOP_DELAY_MS'),
  shedTurnBudgetMs: settingDefault('SHED_TURN_BUDGET_MS'),
};

/** Node checks request and header deadlines on an interval; a tenth of the timeout keeps them close. */
export function connectionsCheckingInterval(limits: HttpLimits): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 10)));
}

/** A complete HTTP/1.1 response in the error envelope, for answers written straight to a socket. */
export function rawErrorResponse(code: ErrorCode, message: string, extraHeaders: Record<string, string> = {}): string {
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify(errorBody(code, message));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': randomUUID(),
    ...HARDENING_HEADERS,
    connection: 'close',
    ...extraHeaders,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n\r\n${body}`;
}

/** Sends a raw response and closes the socket once it is flushed (never leaves it half open). */
function answerAndClose(socket: Socket, response: string): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), 2000);
  timer.unref();
  socket.end(response, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/** Node's parser error codes, in the API's words. */
function describeClientError(code: string | undefined): { code: ErrorCode; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request did not arrive within the request timeout; the connection is closed' };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'Request headers are larger than 16 KiB' };
    case 'HPE_INVALID_METHOD':
      return { code: 'invalid_request', message: 'Malformed HTTP: unknown method' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { code: 'invalid_request', message: 'Malformed HTTP: invalid chunked encoding' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return { code: 'invalid_request', message: 'Malformed HTTP: invalid Content-Length, or both Content-Length and Transfer-Encoding' };
    case 'HPE_INVALID_URL':
      return {
        code: 'invalid_request',
        message: 'Malformed HTTP: invalid characters in the request target (spaces and non-ASCII must be percent-encoded)',
      };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { code: 'invalid_request', message: 'Malformed HTTP: the request line or a header is not valid' };
    default:
      return { code: 'invalid_request', message: `Malformed HTTP request${code ? ` (${code})` : ''}` };
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser refuses (bad chunking, conflicting
 * Content-Length and Transfer-Encoding, unknown methods, oversized headers, request timeouts)
 * is answered in the error envelope, then the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, message } = describeClientError(err.code);
  this.log.debug({ err: err.message, code: err.code }, 'client error');
  answerAndClose(socket, rawErrorResponse(code, message));
}

const OVER_CAP = Symbol('overConnectionCap');
type MarkedSocket = Socket & { [OVER_CAP]?: boolean };

/**
 * The per-address connection cap and the checks Node leaves to the application (a request
 * without Host). Connections beyond the cap are answered 429 concurrent_request_cap at once and
 * closed; a request that still arrives on one is not served.
 */
export const httpGuardPlugin = fp<{ limits: HttpLimits }>(async (app, { limits }) => {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: MarkedSocket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    if (count > limits.maxConnectionsPerAddress) {
      socket[OVER_CAP] = true;
      answerAndClose(
        socket,
        rawErrorResponse(
          'concurrent_request_cap',
          `At most ${limits.maxConnectionsPerAddress} open connections per client address; close some and retry`,
          { 'retry-after': '1' },
        ),
      );
    }
  });

  // No I/O: the hook calls `done` rather than return a promise; an answer sent here ends the chain
  // without it (Fastify runs no further hook once a reply is sent or hijacked).
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.raw.socket as MarkedSocket | undefined)?.[OVER_CAP]) {
      // Already answered on the socket at connect time.
      reply.hijack();
      return;
    }
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      void reply.header('connection', 'close');
      void reply.code(400).send(errorBody('invalid_request', 'Malformed HTTP: the Host header is required'));
      return;
    }
    done();
  });
});
