import { describe, expect, it } from 'vitest';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { confidenceThirds } from './beat-the-close.js';
import type { ConfidenceGrade } from './beat-the-close.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { gradeRecordedEv } from './recorded-clv.js';

/**
 * The confidence calibration of docs/opportunities.md on the real recordings: each pre-kickoff
 * +EV price at its first sighting, graded by no-vig CLV against the recorded sharp close, by
 * thirds of the confidence score it showed. The score's definition was fixed before these grades
 * were looked at; the figures below are what the data says, not a target it was tuned to.
 */
const paths = ODDS_API_RECORDINGS.map((r) => locateRecording(r.file));
const present = paths.every((p) => p !== null);
if (!present) for (const r of ODDS_API_RECORDINGS) console.warn(`skipping the confidence calibration: ${missingRecordingNote(r.file)}`);

const summary = (rows: ReturnType<typeof confidenceThirds>): [number, number][] => rows.map((r) => [r.count, r.beat]);

describe('confidence_score against the recorded closes', () => {
  it.runIf(present)(
    'the served score does not separate prices that beat the close from those that do not, over both recordings',
    async () => {
      const [nfl, wc] = await Promise.all(paths.map((p) => gradeRecordedEv(p ?? '')));
      if (nfl === undefined || wc === undefined) throw new Error('both recordings are graded');
      expect([nfl.graded.length, nfl.notClosed, nfl.noReferenceClose]).toEqual([38, 39, 17]);
      expect([wc.graded.length, wc.notClosed, wc.noReferenceClose]).toEqual([80, 108, 0]);

      const pooled: ConfidenceGrade[] = [...nfl.graded, ...wc.graded];
      const [bottom, middle, top] = confidenceThirds(pooled);
      // [count, beat the close] of the bottom (scores 47-81), middle (82-83) and top (84-90) thirds.
      // Before the freshness ledger counted running waits (2026-11-29) the thirds read 25 of 42,
      // 15 of 26 and 30 of 50: the order between top and bottom was noise then and is noise now.
      expect(summary([bottom, middle, top])).toEqual([
        [47, 32],
        [17, 6],
        [54, 32],
      ]);
      // 59.3 % against 68.1 %: each share lies inside the other's 95 % interval.
      expect(top.low ?? 1).toBeLessThan(bottom.share ?? 0);
      expect(bottom.high ?? 0).toBeGreaterThan(top.share ?? 1);
      expect(bottom.low ?? 1).toBeLessThan(top.share ?? 0);

      expect(summary(confidenceThirds(nfl.graded))).toEqual([
        [14, 8],
        [10, 9],
        [14, 6],
      ]);
      expect(summary(confidenceThirds(wc.graded))).toEqual([
        [33, 19],
        [0, 0],
        [47, 28],
      ]);
    },
    120_000,
  );

  it.runIf(present)(
    'the second definition, graded once: its top third beats the close more often than its bottom third, the intervals still overlapping',
    async () => {
      const graded = (await Promise.all(paths.map((p) => gradeRecordedEv(p ?? '')))).flatMap((g) => g.graded);
      const [bottom, middle, top] = confidenceThirds(graded.map((g) => ({ confidence: g.candidate, clvPercent: g.clvPercent })));
      // [count, beat the close] of the bottom (scores 36-53), middle (54-83) and top (84-98) thirds.
      expect(summary([bottom, middle, top])).toEqual([
        [41, 20],
        [36, 24],
        [41, 26],
      ]);
      expect(top.share ?? 0).toBeGreaterThan(bottom.share ?? 1);
      // 63.4 % against 48.8 %: the top's interval (48.1-76.4 %) still reaches below the bottom's share.
      expect(top.low ?? 1).toBeLessThan(bottom.share ?? 0);
    },
    120_000,
  );
});
