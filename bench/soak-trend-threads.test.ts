import { describe, expect, it } from 'vitest';
import { afterLastStep, judgeSoak } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';
import { steadySample } from './soak-sample-fixture.js';

/** Readings every 10 s for ten minutes with flat memory and descriptors, the threads from `threads(t)`. */
function run(threads: (t: number) => number): SoakSample[] {
  return Array.from({ length: 60 }, (_, i) => {
    const t = (i + 1) * 10;
    return steadySample(t, { threads: threads(t) });
  });
}

const limits = {
  warmupSeconds: 150,
  memoryWarmupSeconds: 150,
  memoryVerdictRequired: true,
  maxGrowthPerHour: 0.05,
  maxFdGrowthPerHour: 25,
};
/** Where the threads are judged from, in seconds. */
const judgedFrom = (samples: SoakSample[]): number =>
  afterLastStep(
    samples.filter((s) => s.t >= limits.warmupSeconds),
    (s) => s.threads,
    limits.warmupSeconds,
  );
const threadsLine = (samples: SoakSample[]): string | undefined => judgeSoak(samples, limits).lines.find((l) => l.startsWith('threads'));

describe('the soak verdict on threads that step', () => {
  it('passes a pool that grew once and then held, judging it from the step', () => {
    // Round five's loaded run: 34 threads, then 130 from about 330 s to the end.
    const samples = run((t) => (t < 330 ? 34 : 130));
    expect(judgeSoak(samples, limits).failures).toEqual([]);
    expect(threadsLine(samples)).toBe(
      'threads: +0 per hour (noise band ± 0; limit +25; readings 34 to 130; judged from its last step at 330 s)',
    );
  });

  it('passes a step then the wobble of a quiet run', () => {
    const samples = run((t) => (t < 300 ? 34 : 160 + ((t / 10) % 3)));
    expect(judgedFrom(samples)).toBe(300);
    expect(judgeSoak(samples, limits).failures).toEqual([]);
  });

  it('fails a steady climb of one thread every 20 s, which has no step', () => {
    const samples = run((t) => 160 + Math.floor(t / 20));
    expect(judgedFrom(samples)).toBe(150);
    expect(judgeSoak(samples, limits).failures).toEqual(['threads grow +180 per hour after the warm-up (± 2), over the limit of +25']);
  });

  it('fails a climb in steps that goes on to the end, judging it whole', () => {
    // Five threads more every minute: the last step is at 600 s, too late to judge from.
    const samples = run((t) => 160 + 5 * Math.floor(t / 60));
    expect(judgedFrom(samples)).toBe(150);
    expect(judgeSoak(samples, limits).failures).toEqual(['threads grow +301 per hour after the warm-up (± 12), over the limit of +25']);
  });

  it('judges a step in the second half of the run with the readings before it', () => {
    // 46 readings after the warm-up, 16 after the step at 450 s: fewer than half.
    const samples = run((t) => (t < 450 ? 160 : 200));
    expect(judgedFrom(samples)).toBe(150);
    expect(judgeSoak(samples, limits).failures).toEqual(['threads grow +426 per hour after the warm-up (± 88), over the limit of +25']);
  });
});
