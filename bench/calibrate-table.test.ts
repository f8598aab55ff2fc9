import { describe, expect, it } from 'vitest';
import type { Phase, PhaseStats } from './market-stats.js';
import { table } from './calibrate-table.js';

/** A run's figures with only the arbitrage rate measured, the same in both phases. */
function run(arbitrageRate: number): Record<Phase, PhaseStats> {
  const none = { moneyline: null, point_spread: null, total_points: null };
  const phase: PhaseStats = {
    markets: 100,
    arbitrageRate,
    arbitrageProfitP50: null,
    arbitrageProfitP90: null,
    arbitrageRunP50Minutes: null,
    arbitrageRunMaxMinutes: null,
    arbitrageRuns: 0,
    holdP50: none,
    evPer100Markets: null,
    referencedMarkets: 0,
    pregameReferenceEvPer100: null,
    staleShare: null,
    staleShareWithFloor: null,
    followP50: null,
    followP95: null,
    follows: 0,
    followChances: 0,
    consensusMoveP50: null,
    consensusMoveP90: null,
    consensusPairs: 0,
    offConsensusP50: none,
    offConsensusP90: none,
    confirmationAgeP50: null,
    confirmationAgeP95: null,
    confirmationAgeOver5Min: null,
  };
  return { prematch: phase, live: phase };
}

const recorded = [
  { name: 'NFL wk10', stats: run(0.06) },
  { name: 'WC 2026', stats: run(0.29) },
];

/** Every row of the table (one a phase) that holds the statistic. */
function rows(text: string, statistic: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(statistic));
}

describe('the calibration table', () => {
  // 0.2 % is within the recordings' 0.06-0.29 %, 0.5 % is not.
  const text = table(
    [
      { name: 'snaps 11 bk', stats: run(0.2), judged: true },
      { name: 'snaps 21 bk', stats: run(0.5), judged: false },
    ],
    recorded,
  );

  it('says which column "met" is judged on, and marks it in the header', () => {
    expect(text.split('\n')[0]).toBe('met: judged on snaps 11 bk (marked *); snaps 21 bk shown beside it, not judged');
    expect(text).toContain('snaps 11 bk *');
    expect(text).not.toContain('snaps 21 bk *');
  });

  it('gives the verdict of the judged column only, not of a column shown beside it', () => {
    expect(rows(text, 'arbitrage rate').map((l) => l.trim().split(/\s+/).slice(-2))).toEqual([
      ['0.06-0.29', 'yes'],
      ['0.06-0.29', 'yes'],
    ]);
    expect(text).toContain('snaps 11 bk: 2 of 2 statistics within the target (judged)');
    expect(text).toContain('snaps 21 bk: 0 of 2 statistics within the target');
  });

  it('gives the other verdict when the judged column misses', () => {
    const swapped = table(
      [
        { name: 'snaps 11 bk', stats: run(0.2), judged: false },
        { name: 'snaps 21 bk', stats: run(0.5), judged: true },
      ],
      recorded,
    );
    expect(rows(swapped, 'arbitrage rate').map((l) => l.trim().split(/\s+/).at(-1))).toEqual(['NO', 'NO']);
  });
});
