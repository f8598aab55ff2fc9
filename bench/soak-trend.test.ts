import { describe, expect, it } from 'vitest';
import { growthPerHour, judgeSoak, leastSquares } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';

const MB = 1e6;

/** Readings every 10 s for `minutes`, memory from `memory(t)` and descriptors from `fds(t)`. */
function run(minutes: number, memory: (t: number) => number, fds: (t: number) => number = () => 300): SoakSample[] {
  return Array.from({ length: minutes * 6 }, (_, i) => {
    const t = (i + 1) * 10;
    return {
      t,
      rssBytes: memory(t),
      heapUsedBytes: memory(t) / 2,
      heapAfterGcBytes: memory(t) / 2,
      externalBytes: 10 * MB,
      fds: fds(t),
      eventLoopP99Ms: 20,
      streamLagP99Ms: 150,
      storeParts: 40,
      pipelineLag: 0,
    };
  });
}

const limits = { warmupSeconds: 60, maxGrowthPerHour: 0.05, fdTolerance: 20 };

describe('the soak verdict', () => {
  it('fits a least-squares line with its slope error', () => {
    const line = leastSquares([
      [0, 1],
      [1, 3],
      [2, 5],
    ]);
    expect(line.slope).toBeCloseTo(2, 12);
    expect(line.intercept).toBeCloseTo(1, 12);
    expect(line.slopeError).toBeCloseTo(0, 12);
  });

  it('reports growth per hour relative to the line at the end of the warm-up', () => {
    // 400 MB at t = 60 s, +1 MB a minute: 60 MB an hour, 15 %.
    const samples = run(10, (t) => 400 * MB + ((t - 60) / 60) * MB);
    expect(growthPerHour(samples, (s) => s.rssBytes, 60).perHour).toBeCloseTo(0.15, 6);
  });

  it('passes flat memory and steady descriptors', () => {
    const verdict = judgeSoak(
      run(10, () => 400 * MB),
      limits,
    );
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines[0]).toBe('RSS: 0.00 % per hour (noise band ± 0.00 %; limit 5.00 %)');
  });

  it('fails a steady leak of more than 5 % an hour, naming the series and the slope', () => {
    const verdict = judgeSoak(
      run(10, (t) => 400 * MB + ((t - 60) / 60) * MB),
      limits,
    );
    expect(verdict.failures).toEqual([
      'RSS grows 15.00 % per hour after the warm-up (± 0.00 %), over the 5.00 % limit',
      'heap used after major GC grows 15.00 % per hour after the warm-up (± 0.00 %), over the 5.00 % limit',
    ]);
  });

  it('does not fail a short noisy run whose slope is inside its noise band', () => {
    // A GC sawtooth of ±40 MB around 400 MB over five minutes: no trend to speak of.
    const verdict = judgeSoak(
      run(5, (t) => 400 * MB + (t % 30 === 0 ? 40 : t % 20 === 0 ? -40 : 0) * MB),
      limits,
    );
    expect(verdict.failures).toEqual([]);
  });

  it('ignores what happens during the warm-up', () => {
    const verdict = judgeSoak(
      run(10, (t) => (t < 60 ? 100 * MB + t * 5 * MB : 400 * MB)),
      limits,
    );
    expect(verdict.failures).toEqual([]);
  });

  it('fails descriptors that grow beyond the tolerance, not those that wobble within it', () => {
    expect(
      judgeSoak(
        run(
          10,
          () => 400 * MB,
          (t) => 300 + Math.floor(t / 10),
        ),
        limits,
      ).failures,
    ).toEqual(['open descriptors grew from 307 to 359 after the warm-up (tolerance 20)']);
    expect(
      judgeSoak(
        run(
          10,
          () => 400 * MB,
          (t) => 300 + ((t / 10) % 3) * 5,
        ),
        limits,
      ).failures,
    ).toEqual([]);
  });

  it('refuses to judge a run with too few readings after the warm-up', () => {
    expect(
      judgeSoak(
        run(1, () => 400 * MB),
        limits,
      ).failures,
    ).toEqual(['only 1 readings after the 60 s warm-up: too few to fit a line (run longer)']);
  });
});
