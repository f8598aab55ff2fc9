// Bug: an API replica that nobody had probed since it started answered /health `down` (503) when
// the store went away, although it had applied every migration at its start: only a probe that
// found the schema counted as verified. In the chaos run's store outage window (CHAOS_STORE=server,
// 180 s, 2026-11-29) every probe of both replicas said `down`, one of them restarted 46 s before
// the store stopped: a load balancer would have dropped both replicas while they still served odds.
import { describe, expect, it } from 'vitest';
import type { OlapStore } from '../../pipeline/store/index.js';
import { healthOf } from './health-check-fixture.js';

/** A store that went away before the first probe. */
const unreachable = {
  kind: 'clickhouse',
  query: async () => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
  },
} as unknown as OlapStore;

describe('/health of a replica whose store went away before its first probe', () => {
  it('is degraded when the process applied every migration at its start', async () => {
    const report = await healthOf(unreachable, true)();
    expect(report.status).toBe('degraded');
    expect(report.checks.schema).toEqual({
      status: 'degraded',
      message: 'store unreachable (odds are served from memory; history and analyst queries fail): connect ECONNREFUSED 127.0.0.1:8123',
    });
  });

  it('is down when nothing says the schema was ever there', async () => {
    const report = await healthOf(unreachable, false)();
    expect(report.status).toBe('down');
    expect(report.checks.schema).toEqual({ status: 'down', message: 'store unreachable: connect ECONNREFUSED 127.0.0.1:8123' });
  });
});
