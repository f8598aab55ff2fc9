import type { Logger } from 'pino';
import { lostTheBrokers } from '../pipeline/bus/index.js';
import type { StageFailureHandler } from '../pipeline/runner.js';
import type { RuntimeHealth } from './health.js';

/** How often a stage that lost the brokers starts again before the process gives up. */
export interface StageRetries {
  /** Starts again within `windowMs` of each other; one more failure is fatal. */
  attempts: number;
  /** The first wait; each further one doubles. */
  firstDelayMs: number;
  windowMs: number;
}

/** 5 starts again over 0.5 + 1 + 2 + 4 + 8 s: a broker connection dropped while a process starts or a broker restarts, not a cluster gone for good. */
export const STAGE_RETRIES: StageRetries = { attempts: 5, firstDelayMs: 500, windowMs: 60_000 };

function firstLine(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}

/**
 * What a stage that cannot continue does to the process, in every role that runs a pipeline or
 * follows the changelogs. A lost connection to the brokers (the client's own retries spent: a
 * socket closed under a consumer that was starting, `write after end`) is passing: the stage
 * starts again after a backoff, logged, at most `retries.attempts` times within the window.
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
  /** Per stage, when it lost the brokers within the window. */
  const lost = new Map<string, number[]>();
  return (e, stage) => {
    if (health.failed) return null;
    if (lostTheBrokers(e)) {
      const at = now();
      const recent = (lost.get(stage) ?? []).filter((t) => at - t < retries.windowMs);
      recent.push(at);
      lost.set(stage, recent);
      if (recent.length <= retries.attempts) {
        const retryInMs = retries.firstDelayMs * 2 ** (recent.length - 1);
        logger.warn(
          { stage, attempt: recent.length, of: retries.attempts, retryInMs, reason: firstLine(e) },
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
