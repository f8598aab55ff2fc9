import type { Logger } from 'pino';

/**
 * Stops the process's parts on a signal and says so twice: when it starts (a drain can take
 * seconds) and when everything has stopped, so that whoever watches the log knows the process
 * exited on purpose and nothing is left to flush. Answers the exit status.
 */
export async function shutDown(signal: string, stop: () => Promise<void>, logger: Logger, now: () => number = Date.now): Promise<0 | 1> {
  const started = now();
  logger.info({ signal }, 'shutting down');
  try {
    await stop();
  } catch (e) {
    logger.error({ err: e }, 'shutdown failed');
    return 1;
  }
  logger.info({ signal, ms: now() - started }, 'stopped: every part is closed');
  return 0;
}
