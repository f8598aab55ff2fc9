import { ManualClock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { healthCheck } from './health.js';

/** The health check over `store` alone, as the health tests build it: a board that changed just now, no Redis. */
export function healthOf(
  store: OlapStore,
  schemaApplied?: boolean,
  at = Date.parse('2026-11-29T12:00:00Z'),
): ReturnType<typeof healthCheck> {
  const clock = new ManualClock(at);
  return healthCheck({
    store,
    board: { lastChangeAt: clock.now(), rowCount: 3, activeEvents: () => [] },
    clock,
    redisUrl: null,
    rateLimits: {},
    version: 'test',
    ...(schemaApplied === undefined ? {} : { schemaApplied }),
  });
}
