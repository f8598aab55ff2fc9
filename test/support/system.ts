import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { loadConfig } from '../../runtime/config.js';
import { startSystem } from '../../runtime/system.js';
import type { RunningSystem, SystemOverrides } from '../../runtime/system.js';

export interface TestResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface SendOptions {
  key?: string;
  /** A JSON body (a string is sent as is, for malformed bodies); the key present, even undefined, sends the JSON content type. */
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface TestSystem extends RunningSystem {
  /** Any method; the answer's body parsed as JSON ({} when empty). */
  send(method: string, path: string, options?: SendOptions): Promise<TestResponse>;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** POST with a JSON body (a string is sent as is, for malformed bodies). */
  post(path: string, body: unknown, key?: string, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

async function read(res: Response): Promise<TestResponse> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The real system on 127.0.0.1, a free port and a throwaway data directory. */
export async function startTestSystem(
  env: Record<string, string>,
  overrides: SystemOverrides = {},
  options: { logger?: Logger } = {},
): Promise<TestSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-e2e-'));
  // Load shedding off unless a test asks for it: a loaded CI machine's pauses must not become 503s.
  // PIPELINE_THREAD from the environment runs every whole-system suite with the pipeline in a worker.
  const thread = process.env['PIPELINE_THREAD'];
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SHED_EVENT_LOOP_DELAY_MS: '0',
    ...(thread ? { PIPELINE_THREAD: thread } : {}),
    ...env,
  });
  const system = await startSystem(config, options.logger ?? pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }), overrides);
  const send = async (method: string, path: string, o: SendOptions = {}): Promise<TestResponse> => {
    // POST always said JSON, a body or not; other methods only with one.
    const json = 'body' in o;
    return read(
      await fetch(`${system.url}${path}`, {
        method,
        headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...(o.key ? { 'x-api-key': o.key } : {}), ...o.headers },
        ...(o.body === undefined ? {} : { body: typeof o.body === 'string' ? o.body : JSON.stringify(o.body) }),
        ...(o.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(o.timeoutMs) }),
      }),
    );
  };
  return {
    ...system,
    send,
    async get(path, key, headers = {}) {
      return send('GET', path, { ...(key ? { key } : {}), headers });
    },
    async post(path, body, key, headers = {}) {
      return send('POST', path, { body, ...(key ? { key } : {}), headers });
    },
    async close() {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
