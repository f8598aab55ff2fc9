import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../api/config.js';
import { startSystem } from '../../api/system.js';
import type { RunningSystem, SystemOverrides } from '../../api/system.js';

export interface TestSystem extends RunningSystem {
  get(path: string, key?: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** The real system on 127.0.0.1, a free port and a throwaway data directory. */
export async function startTestSystem(env: Record<string, string>, overrides: SystemOverrides = {}): Promise<TestSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-e2e-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
  const system = await startSystem(config, pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }), overrides);
  return {
    ...system,
    async get(path, key, headers = {}) {
      const res = await fetch(`${system.url}${path}`, { headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    async close() {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
