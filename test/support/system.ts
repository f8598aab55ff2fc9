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

export interface TestSystem extends RunningSystem {
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
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SHED_EVENT_LOOP_DELAY_MS: '0', ...env });
  const system = await startSystem(config, options.logger ?? pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }), overrides);
  return {
    ...system,
    async get(path, key, headers = {}) {
      return read(await fetch(`${system.url}${path}`, { headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } }));
    },
    async post(path, body, key, headers = {}) {
      return read(
        await fetch(`${system.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );
    },
    async close() {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
