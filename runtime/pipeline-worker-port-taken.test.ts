// A start in worker mode whose port is taken failed with the port's error and left the pipeline
// worker running: its feed and stages went on producing in a process (a test's, the bench's) that
// had no system to stop them. The failed start now stops the worker, which saves the log as at
// any stop: the saved log in DATA_DIR is how the test sees the worker went through its stop.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { BUS_LOG_FILE } from './saved-bus-log.js';
import { startSystem } from './system.js';

describe('a worker-mode start whose port is taken', () => {
  it('fails naming the port and stops the pipeline worker, which saves the log', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'odds-port-taken-'));
    try {
      const config = loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FEED: 'simulator',
        PIPELINE_THREAD: 'worker',
        BUS_LOG_RETENTION_MINUTES: '60',
      });
      await expect(startSystem(config, pino({ level: 'silent' }))).rejects.toThrow(
        `PORT ${port} on HOST 127.0.0.1 cannot be opened (EADDRINUSE)`,
      );
      expect(existsSync(join(dataDir, BUS_LOG_FILE))).toBe(true);
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
