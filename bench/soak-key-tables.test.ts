import { describe, expect, it } from 'vitest';
import { judgeSoak, keyTablesSettledAt, memoryWarmupOf } from './soak-trend.js';
import type { SoakSample } from './soak-trend.js';
import { steadySample } from './soak-sample-fixture.js';

const MB = 1e6;
const ROWS = 45_708;

/**
 * Half an hour of readings of the soak's board: its 45,708 rows taken in by the first reading,
 * then 900 new keys a minute (the simulator at 2,000 ticks/s). The heap after major GC holds at
 * 330 MB and steps up 9 MB at 1,400 s, as the maps over the board's keys double (8.9 MB together
 * in round eleven's profiles: the change logs' latest entries, the snapshot processor's rows, the
 * row index and the sharp-move watch); `leak` adds growth on top.
 */
function run(leak: (t: number) => number = () => 0): SoakSample[] {
  return Array.from({ length: 180 }, (_, i) => {
    const t = (i + 1) * 10;
    const heap = 330 * MB + (t >= 1_400 ? 9 * MB : 0) + leak(t);
    return steadySample(t, {
      rssBytes: 3 * heap,
      heapUsedBytes: heap,
      heapAfterGcBytes: heap,
      boardRows: ROWS,
      boardRowsTakenIn: ROWS + Math.round((900 * (t - 10)) / 60),
    });
  });
}

const limits = { warmupSeconds: 150, maxGrowthPerHour: 0.05, maxFdGrowthPerHour: 25 };

describe("the soak's memory warm-up: until the maps over the board's keys have settled", () => {
  it('ends at the first reading where the board has taken in the power of two above its rows', () => {
    // 65,536 = 2^16 taken in: 19,828 new keys after the first fill, at 900 a minute 1,322 s after
    // the first reading; the next reading is at 1,340 s.
    expect(keyTablesSettledAt(run())).toBe(1_340);
    // Memory is judged from a minute later, when a major GC has seen the doubled tables.
    expect(memoryWarmupOf(run(), 150)).toBe(1_400);
  });

  it('uses the most rows the board has held, since the tables were sized for them', () => {
    const samples = run().map((s) => (s.t === 500 ? { ...s, boardRows: 70_000 } : s));
    // 2^17 = 131,072 taken in is beyond this half hour.
    expect(keyTablesSettledAt(samples)).toBeNull();
  });

  it('judges memory after the tables settled, so their one doubling is not called growth', () => {
    const verdict = judgeSoak(run(), { ...limits, memoryWarmupSeconds: 1_450, memoryVerdictRequired: true });
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines[1]).toBe('heap used after major GC: 0.00 % per hour (noise band ± 0.00 %; limit 5.00 %; judged from 1450 s)');
  });

  it('judged from the end of the windows instead, the same doubling would fail the run', () => {
    const verdict = judgeSoak(run(), { ...limits, memoryWarmupSeconds: 150, memoryVerdictRequired: true });
    expect(verdict.failures).toEqual([
      'RSS grows 6.66 % per hour after the warm-up (± 0.93 %), over the 5.00 % limit',
      'heap used after major GC grows 6.66 % per hour after the warm-up (± 0.93 %), over the 5.00 % limit',
    ]);
  });

  it('still fails a leak after the tables settled', () => {
    // 33 MB an hour on the 352 MB the line reads at 1,450 s: 9.37 % an hour.
    const verdict = judgeSoak(
      run((t) => (33 * MB * t) / 3600),
      { ...limits, memoryWarmupSeconds: 1_450, memoryVerdictRequired: true },
    );
    expect(verdict.failures).toEqual([
      'RSS grows 9.37 % per hour after the warm-up (± 0.00 %), over the 5.00 % limit',
      'heap used after major GC grows 9.37 % per hour after the warm-up (± 0.00 %), over the 5.00 % limit',
    ]);
  });

  it('reports memory without judging it when a short run ended before the tables settled', () => {
    const short = run().filter((s) => s.t <= 300);
    const verdict = judgeSoak(short, { ...limits, memoryWarmupSeconds: null, memoryVerdictRequired: false });
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines[0]).toBe(
      "memory not judged (the board's key tables had not settled when the run ended; until then they fill by design): RSS 990 to 990 MB, heap used after major GC 330 to 330 MB after the 150 s warm-up",
    );
  });

  it('fails a run long enough to judge memory whose tables never settled', () => {
    const verdict = judgeSoak(run(), { ...limits, memoryWarmupSeconds: null, memoryVerdictRequired: true });
    expect(verdict.failures).toEqual([
      "memory could not be judged: the board's key tables had not settled when the run ended (run longer, or at a higher rate)",
    ]);
  });
});
