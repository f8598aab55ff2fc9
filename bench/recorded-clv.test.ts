import { describe, expect, it } from 'vitest';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { confidenceThirds } from './beat-the-close.js';
import type { ConfidenceGrade } from './beat-the-close.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { gradeRecordedEv } from './recorded-clv.js';

/**
 * The confidence calibration of docs/opportunities.md on the real recordings: each pre-kickoff
 * +EV price at its first sighting, graded by no-vig CLV against the recorded sharp close, by
 * thirds of the `confidence_score` the pipeline served with it. The score's definition (the
 * second one, pipeline/opportunities/confidence.ts) was fixed before these grades were looked
 * at; the figures below are what the data says, not a target it was tuned to.
 */
const paths = ODDS_API_RECORDINGS.map((r) => locateRecording(r.file));
const present = paths.every((p) => p !== null);
if (!present) for (const r of ODDS_API_RECORDINGS) console.warn(`skipping the confidence calibration: ${missingRecordingNote(r.file)}`);

const summary = (rows: ReturnType<typeof confidenceThirds>): [number, number][] => rows.map((r) => [r.count, r.beat]);

describe('confidence_score against the recorded closes', () => {
  it.runIf(present)(
    'the top third of the served score beats the close more often than the bottom third, over both recordings and in each',
    async () => {
      const [nfl, wc] = await Promise.all(paths.map((p) => gradeRecordedEv(p ?? '')));
      if (nfl === undefined || wc === undefined) throw new Error('both recordings are graded');
      expect([nfl.graded.length, nfl.notClosed, nfl.noReferenceClose]).toEqual([38, 38, 17]);
      expect([wc.graded.length, wc.notClosed, wc.noReferenceClose]).toEqual([80, 108, 0]);

      const pooled: ConfidenceGrade[] = [...nfl.graded, ...wc.graded];
      const [bottom, middle, top] = confidenceThirds(pooled);
      // [count, beat the close] of the bottom (scores 36-53), middle (54-83) and top (84-98) thirds.
      expect(summary([bottom, middle, top])).toEqual([
        [41, 20],
        [36, 24],
        [41, 26],
      ]);
      expect([bottom.min, bottom.max, middle.min, middle.max, top.min, top.max]).toEqual([36, 53, 54, 83, 84, 98]);
      expect(top.share ?? 0).toBeGreaterThan(bottom.share ?? 1);
      // 63.4 % against 48.8 %: the top's interval (48.1-76.4 %) still reaches below the bottom's share.
      expect(top.low ?? 1).toBeLessThan(bottom.share ?? 0);

      // Recording by recording the order holds: NFL 10 of 13 against 7 of 14, the World Cup 16 of
      // 27 against 14 of 28.
      expect(summary(confidenceThirds(nfl.graded))).toEqual([
        [14, 7],
        [11, 6],
        [13, 10],
      ]);
      expect(summary(confidenceThirds(wc.graded))).toEqual([
        [28, 14],
        [25, 17],
        [27, 16],
      ]);
    },
    120_000,
  );
});
