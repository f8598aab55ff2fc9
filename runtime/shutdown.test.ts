import { pino } from 'pino';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { shutDown } from './shutdown.js';

/** A logger whose lines land in an array, as the objects pino writes. */
function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { base: null, timestamp: false },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('shutting down on a signal', () => {
  it('logs when it starts and, once every part has stopped, that it has finished, then exits 0', async () => {
    const { logger, lines } = recordingLogger();
    const clock = [1000, 1420];
    const events: string[] = [];
    const status = await shutDown(
      'SIGINT',
      async () => {
        events.push(`stop while ${lines.length} line logged`);
      },
      logger,
      () => clock.shift() ?? 0,
    );
    expect(status).toBe(0);
    expect(events).toEqual(['stop while 1 line logged']);
    expect(lines).toEqual([
      { level: 30, signal: 'SIGINT', msg: 'shutting down' },
      { level: 30, signal: 'SIGINT', ms: 420, msg: 'stopped: every part is closed' },
    ]);
  });

  it('logs the failure instead of the finished line when a part fails to stop, and exits 1', async () => {
    const { logger, lines } = recordingLogger();
    const status = await shutDown('SIGTERM', () => Promise.reject(new Error('store would not close')), logger);
    expect(status).toBe(1);
    expect(lines.map((l) => l['msg'])).toEqual(['shutting down', 'shutdown failed']);
    expect((lines[1]?.['err'] as { message: string }).message).toBe('store would not close');
  });
});
