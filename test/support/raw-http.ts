import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../api/app.js';
import type { AppDeps } from '../../api/deps.js';
import { KeyStore } from '../../api/accounts/index.js';
import type { HttpLimits } from '../../schemas/index.js';
import { DEFAULT_HTTP_LIMITS } from '../../api/plugins/http-guard.js';
import { MemoryRateLimitStore } from '../../api/plugins/rate-limit.js';
import { LiveBoard } from '../../api/views/board.js';
import { Catalog } from '../../api/views/catalog.js';
import { ManualClock } from '../../pipeline/clock.js';
import { loadMigrations } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';

/** A store that answers health's schema check as fully migrated (every query gets the migrations' versions) and nothing else. */
export const nullStore = {
  kind: 'chdb',
  query: async () => loadMigrations().map((m) => ({ version: m.version })),
  exec: async () => undefined,
  close: async () => undefined,
} as unknown as OlapStore;

export interface BareApp {
  app: FastifyInstance;
  port: number;
  key: string;
  keys: KeyStore;
  close(): Promise<void>;
}

/** The API alone (empty board, no pipeline, no store) on 127.0.0.1 and a free port; silent unless given a logger. */
export async function startBareApp(http: Partial<HttpLimits> = {}, deps: Partial<AppDeps> = {}, logger?: Logger): Promise<BareApp> {
  const keys = new KeyStore();
  const key = 'sharp-raw-socket-key-1';
  keys.add(key, 'sharp');
  const app = await buildApp(
    {
      board: new LiveBoard(),
      catalog: new Catalog(),
      keys,
      rateLimits: new MemoryRateLimitStore(),
      clock: new ManualClock(Date.now()),
      store: nullStore,
      version: 'test',
      redisUrl: null,
      http: { ...DEFAULT_HTTP_LIMITS, shedEventLoopDelayMs: 0, ...http },
      ...deps,
    },
    logger,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, port, key, keys, close: () => app.close() };
}

export interface RawAnswer {
  /** Everything the server sent before closing (or before `waitMs`). */
  text: string;
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Milliseconds from sending the bytes to the first response byte (or the close). */
  elapsedMs: number;
}

export function parseRaw(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: split < 0 ? '' : text.slice(split + 4) };
}

export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/**
 * Writes `bytes` on a fresh connection and collects what comes back until the server closes it
 * or `waitMs` passes after the first byte of an answer (keep-alive answers do not close).
 */
export async function rawRequest(
  port: number,
  bytes: string | Buffer,
  options: { waitMs?: number; maxMs?: number } = {},
): Promise<RawAnswer> {
  const socket = await openSocket(port);
  return collect(socket, () => socket.write(bytes), options);
}

export function collect(
  socket: Socket,
  start: () => void,
  { waitMs = 150, maxMs = 10_000 }: { waitMs?: number; maxMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let first = 0;
    let text = '';
    let settle: NodeJS.Timeout | undefined;
    const done = (closed: boolean): void => {
      clearTimeout(settle);
      clearTimeout(limit);
      socket.removeAllListeners('data');
      socket.destroy();
      resolve({ text, ...parseRaw(text), closed, elapsedMs: (first || Date.now()) - t0 });
    };
    const limit = setTimeout(() => done(false), maxMs);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      if (first === 0) first = Date.now();
      text += d;
      clearTimeout(settle);
      settle = setTimeout(() => done(false), waitMs);
    });
    socket.once('close', () => done(true));
    socket.on('error', () => undefined);
    start();
  });
}
