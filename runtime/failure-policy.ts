import type { Logger } from 'pino';
import type { RuntimeHealth } from './health.js';

/**
 * What a stage that cannot continue does to the process, in every role that runs a pipeline:
 * /health turns `down` naming the cause before anyone is told, so a supervisor polling it sees
 * why; then `onFatal` (the entry exits after FAILURE_EXIT_DELAY_MS, tests observe). Only the
 * first failure counts: the stages that fail after it fail because of it.
 */
export function stageFailureHandler(health: RuntimeHealth, logger: Logger, onFatal?: (reason: string) => void): (error: unknown) => void {
  return (e) => {
    if (health.failed) return;
    const reason = `stage failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    health.fail(reason);
    logger.fatal({ reason }, 'pipeline stage failed: the process stops');
    onFatal?.(reason);
  };
}
