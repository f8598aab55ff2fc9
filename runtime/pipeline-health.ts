import { worstStatus } from '../schemas/index.js';
import type { RuntimeCheck } from '../schemas/index.js';
import type { Clock } from '../pipeline/clock.js';
import { StoreHealth } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { RuntimeHealth } from './health.js';

/** The pipeline process's `/health` answer. */
export interface PipelineHealthReport {
  status: RuntimeCheck['status'];
  role: 'pipeline';
  checks: { runtime: RuntimeCheck; store: RuntimeCheck };
  /** Records not yet through every stage. */
  lag: number;
  timestamp: string;
}

/**
 * The pipeline process's health: its stages (`RuntimeHealth`: down once one failed for good) and
 * its store, read as the API's `/health` reads it (`StoreHealth`): `degraded` while the store does
 * not answer, not `down`, since the sinks wait for it and catch up (docs/chaos.md) and a restart
 * would help nothing. The worst of the two is the answer's status (`down` answers 503).
 */
export function pipelineHealthCheck(
  runtime: RuntimeHealth,
  store: OlapStore,
  lag: () => number,
  clock: Clock,
): () => Promise<PipelineHealthReport> {
  // openStore applied every migration before the pipeline started.
  const storeHealth = new StoreHealth(store, {
    schemaApplied: true,
    meanwhile: "the sinks' batches wait in the log and are written once it answers",
  });
  return async () => {
    const checks = { runtime: runtime.check(), store: await storeHealth.check() };
    return {
      status: worstStatus(Object.values(checks)),
      role: 'pipeline',
      checks,
      lag: lag(),
      timestamp: new Date(clock.now()).toISOString(),
    };
  };
}
