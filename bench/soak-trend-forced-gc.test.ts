import { describe, expect, it } from 'vitest';
import { judgeSoak } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';
import { steadySample } from './soak-sample-fixture.js';

const MB = 1e6;
const limits = { warmupSeconds: 60, memoryWarmupSeconds: 60, memoryVerdictRequired: true, maxGrowthPerHour: 0.05, maxFdGrowthPerHour: 25 };

/**
 * Twenty minutes of readings: the judged heap after V8's own major GCs climbs 30 MB/h on 300 MB
 * while the heap after a full collection, read once a minute, holds at 250 MB.
 */
function run(forced: (t: number) => number | undefined): SoakSample[] {
  return Array.from({ length: 120 }, (_, i) => {
    const t = (i + 1) * 10;
    const heapForcedGcBytes = forced(t);
    return steadySample(t, {
      rssBytes: 1_000 * MB,
      heapAfterGcBytes: 300 * MB + (30 * MB * t) / 3600,
      ...(heapForcedGcBytes === undefined ? {} : { heapForcedGcBytes }),
      fds: 300,
    });
  });
}

describe('the heap after a forced full GC in the soak verdict', () => {
  it('is reported beside the judged heap, from the readings that have it, and does not decide the verdict', () => {
    const verdict = judgeSoak(
      run((t) => (t % 60 === 0 ? 250 * MB : undefined)),
      limits,
    );
    expect(verdict.lines).toContain(
      'heap used after a forced full GC (a check on the judged reading, not judged): 0.00 % per hour (noise band ± 0.00 %; 20 readings, 250 to 250 MB)',
    );
    expect(verdict.failures).toEqual([
      'heap used after major GC grows 9.98 % per hour after the warm-up (± 0.00 %), over the 5.00 % limit',
    ]);
  });

  it('is left out of the report when the driver never asked for it', () => {
    const verdict = judgeSoak(
      run(() => undefined),
      limits,
    );
    expect(verdict.lines.some((l) => l.includes('forced'))).toBe(false);
  });
});
