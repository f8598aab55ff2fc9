import { describe, expect, it } from 'vitest';
import { growthPerHour, judgeSoak, leastSquares } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';
import { steadySample } from './soak-sample-fixture.js';

const MB = 1e6;

/**
 * Readings every 10 s for `minutes`, memory from `memory(t)`, descriptors from `fds(t)` (with
 * `threadFds(t)` of them on per-thread /proc files) and threads from `threads(t)`.
 */
function run(
  minutes: number,
  memory: (t: number) => number,
  fds: (t: number) => number = () => 300,
  threadFds: (t: number) => number = () => 0,
  threads: (t: number) => number = () => 160,
): SoakSample[] {
  return Array.from({ length: minutes * 6 }, (_, i) => {
    const t = (i + 1) * 10;
    return steadySample(t, {
      rssBytes: memory(t),
      heapUsedBytes: memory(t) / 2,
      heapAfterGcBytes: memory(t) / 2,
      fds: fds(t) + threadFds(t),
      threadFds: threadFds(t),
      threads: threads(t),
    });
  });
}

const limits = { warmupSeconds: 60, memoryWarmupSeconds: 60, memoryVerdictRequired: true, maxGrowthPerHour: 0.05, maxFdGrowthPerHour: 25 };

/**
 * Descriptors as 500 subscribers swing them: a floor of 800 and, at a reading, up to 290 more
 * sockets of reconnects and REST or MCP clients in flight. The swings are fixed (a small linear
 * congruential sequence) so the test reads the same figures every run.
 */
function swinging(): (t: number) => number {
  const swings = new Map<number, number>();
  let x = 7;
  return (t) => {
    let swing = swings.get(t);
    if (swing === undefined) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      // Most readings near the floor, one in five up to 290 above it.
      swing = x % 5 === 0 ? x % 291 : x % 41;
      swings.set(t, swing);
    }
    return 800 + swing;
  };
}

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

  it('fails descriptors whose fitted line rises beyond its noise band, naming the slope', () => {
    // One descriptor a reading (every 10 s): 360 an hour.
    expect(
      judgeSoak(
        run(
          10,
          () => 400 * MB,
          (t) => 300 + Math.floor(t / 10),
        ),
        limits,
      ).failures,
    ).toEqual(['open descriptors (without per-thread /proc files) grow +360 per hour after the warm-up (± 0), over the limit of +25']);
  });

  it('passes descriptors that swing by hundreds between readings around a flat floor', () => {
    // Compared as single readings (the first after the warm-up against the last) this series
    // moves by up to 290; its fitted line does not rise beyond the noise.
    const verdict = judgeSoak(
      run(10, () => 400 * MB, swinging()),
      limits,
    );
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines[3]).toBe(
      'open descriptors (without per-thread /proc files): +157 per hour (noise band ± 429; limit +25; readings 800 to 1090)',
    );
  });

  it('fails the same swings on a leak of one descriptor kept per reconnect', () => {
    // 50 of 500 subscribers reconnect, each every 51 s on average: about one a second, 3,500 an hour.
    const swings = swinging();
    const verdict = judgeSoak(
      run(
        10,
        () => 400 * MB,
        (t) => swings(t) + Math.floor((t * 50) / 51),
      ),
      limits,
    );
    expect(verdict.failures).toEqual([
      'open descriptors (without per-thread /proc files) grow +3687 per hour after the warm-up (± 429), over the limit of +25',
    ]);
  });

  it('passes per-thread /proc files that fill up to three per thread while the threads stay flat', () => {
    // As in a 34-minute run: 160 threads, their files from 309 to 387 as more pool threads ran a query.
    const verdict = judgeSoak(
      run(
        10,
        () => 400 * MB,
        () => 180,
        (t) => Math.min(387, 300 + 3 * Math.floor(t / 20)),
      ),
      limits,
    );
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines.slice(3)).toEqual([
      'open descriptors (without per-thread /proc files): +0 per hour (noise band ± 0; limit +25; readings 180 to 180)',
      'threads: +0 per hour (noise band ± 0; limit +25; readings 160 to 160)',
      'per-thread /proc files (bounded by 3 per thread, not judged): 309 to 387; all descriptors 489 to 567',
    ]);
  });

  it('fails threads that keep being added, with the files they open', () => {
    // A thread (and its three files) kept per reconnect, about one a second.
    const verdict = judgeSoak(
      run(
        10,
        () => 400 * MB,
        () => 180,
        (t) => 3 * (160 + Math.floor(t / 10)),
        (t) => 160 + Math.floor(t / 10),
      ),
      limits,
    );
    expect(verdict.failures).toEqual(['threads grow +360 per hour after the warm-up (± 0), over the limit of +25']);
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
