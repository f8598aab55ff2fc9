import { describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { rawTick } from '../test/support/raw-tick.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { BookMargins, addRecorded, addSimulated } from './book-margins.js';
import { MINUTE, T0, book, snapshot } from './moneyline-snapshot-fixture.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';

const medians = (m: BookMargins): [string, number | null, number | null][] =>
  m
    .medians()
    .map((x) => [
      x.book,
      x.prematch === null ? null : Math.round(x.prematch * 100) / 100,
      x.live === null ? null : Math.round(x.live * 100) / 100,
    ]);

describe("a book's margin before the game and in play", () => {
  it('reads a recorded market as its implied probabilities summed, less one, by the catalog id, in play only once the book priced the game well after the start', () => {
    const m = new BookMargins();
    // -110 / -110 before the game: 4.76 %. William Hill is the catalog's Caesars.
    addRecorded(m, snapshot(0, [book('williamhill_us', -110, -110)], '2025-11-09T18:00:00Z'));
    // After the start: a price last updated before it (the fixture's 11:59) is a pre-game one left standing, not counted.
    addRecorded(m, snapshot(60, [book('williamhill_us', -120, -120)], '2025-11-09T12:30:00Z'));
    expect(medians(m)).toEqual([['caesars', 4.76, null]]);
  });

  it("reads a simulated board's quote as its ticks of one book's market of one game at one line", () => {
    const tick = (outcome: string, line: number, priceAmerican: number): RawTick =>
      rawTick(T0 + 60 * MINUTE, { book: 'fanduel', bookEventId: 'fd-1', market: 'point_spread', outcome, line, priceAmerican });
    const m = new BookMargins();
    // Home -1.5 and away +1.5 are one market: -105 / -115, 4.71 %.
    addSimulated(m, [tick('Home', -1.5, -105), tick('Away', 1.5, -115)]);
    expect(medians(m)).toEqual([['fanduel', 4.71, null]]);
  });
});

const paths = ODDS_API_RECORDINGS.map((r) => locateRecording(r.file));
const present = paths.every((p) => p !== null);
if (!present) for (const r of ODDS_API_RECORDINGS) console.warn(`skipping the recorded margins: ${missingRecordingNote(r.file)}`);

describe("the recorded books' margins", () => {
  it.runIf(present)(
    'read narrower before the game than in play, 1.365 times at the median over the eight books that price both',
    async () => {
      const m = new BookMargins();
      for (const path of paths) for await (const snap of recordedSnapshots(path ?? '')) addRecorded(m, snap);
      expect(medians(m)).toEqual([
        ['betmgm', 5.56, 5.87],
        ['betonlineag', 3.73, null],
        ['betrivers', 6.03, 7.99],
        ['betus', 4.62, null],
        ['bovada', 4.75, 6.49],
        ['caesars', 4.94, 6.78],
        ['draftkings', 4.53, 6.23],
        ['fanatics', 4.76, 6.78],
        ['fanduel', 4.76, 6.88],
        ['lowvig', 3.43, null],
        ['mybookieag', 5.94, 7.09],
      ]);
      const ratios = m
        .medians()
        .flatMap((x) => (x.prematch !== null && x.live !== null ? [x.live / x.prematch] : []))
        .sort((a, b) => a - b);
      expect(ratios).toHaveLength(8);
      expect((ratios[3] ?? NaN).toFixed(3)).toBe('1.365');
    },
    60_000,
  );
});
