import type { Logger } from 'pino';
import { lostTheBrokers } from '../pipeline/bus/index.js';
import type { StageFailureHandler } from '../pipeline/runner.js';
import type { RuntimeHealth } from './health.js';

/** How often a stage that lost the brokers starts again before the process gives up. */
export interface StageRetries {
  /** Starts again in a row; one more loss is fatal. */
  attempts: number;
  /** The first wait; each further one doubles. */
  firstDelayMs: number;
  /**
   * A loss within this long of the stage's previous one continues the row; a later one starts
   * it again. Losses are counted in a row, not per window: with the brokers gone for good, each
   * new consumer spends its client's own retries (half a minute) before it fails, so a count per
   * window would never fill and the process would retry forever with frozen data.
   */
  windowMs: number;
}

/** 3 starts again after 0.5, 1 and 2 s: a broker connection dropped while a process starts, not a cluster gone for good. */
export const STAGE_RETRIES: StageRetries = { attempts: 3, firstDelayMs: 500, windowMs: 60_000 };

function firstLine(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}

/**
 * What a stage that cannot continue does to the process, in every role that runs a pipeline or
 * follows the changelogs. A lost connection to the brokers (the client's own retries spent: a
 * socket closed under a consumer that was starting, `write after end`) is passing: the stage
 * starts again after a backoff, logged, at most `retries.attempts` times in a row.
 * Anything else, or a connection that stays lost, is fatal: /health turns `down` naming the cause
 * before anyone is told, so a supervisor polling it sees why; then `onFatal` (the entry exits
 * after FAILURE_EXIT_DELAY_MS, tests observe). Only the first fatal failure counts: the stages
 * that fail after it fail because of it.
 */
export function stageFailureHandler(
  health: RuntimeHealth,
  logger: Logger,
  onFatal?: (reason: string) => void,
  options: { retries?: StageRetries; now?: () => number } = {},
): StageFailureHandler {
  const retries = options.retries ?? STAGE_RETRIES;
  const now = options.now ?? Date.now;
  /** Per stage, its losses in a row and when the last one was. */
  const lost = new Map<string, { inRow: number; at: number }>();
  return (e, stage) => {
    if (health.failed) return null;
    if (lostTheBrokers(e)) {
      const at = now();
      const last = lost.get(stage);
      const inRow = last && at - last.at < retries.windowMs ? last.inRow + 1 : 1;
      lost.set(stage, { inRow, at });
      if (inRow <= retries.attempts) {
        const retryInMs = retries.firstDelayMs * 2 ** (inRow - 1);
        logger.warn(
          { stage, attempt: inRow, of: retries.attempts, retryInMs, reason: firstLine(e) },
          'pipeline stage lost the brokers: it starts again',
        );
        return { afterMs: retryInMs };
      }
    }
    const reason = `stage failed: ${firstLine(e)}`;
    health.fail(reason);
    logger.fatal({ reason, stage }, 'pipeline stage failed: the process stops');
    onFatal?.(reason);
    return null;
  };
}
