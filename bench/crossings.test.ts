import { describe, expect, it } from 'vitest';
import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { Crossings, meanLifetimeMs } from './crossings.js';
import type { CrossingRun } from './crossings.js';
import { MINUTE, book, snapshot } from './moneyline-snapshot-fixture.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';

/** A kickoff the next day: every snapshot below is before the game. */
const KICKOFF = '2025-11-10T18:00:00Z';

describe("two books' pre-match markets crossing in a recording", () => {
  /** DraftKings and FanDuel against LowVig over five snapshots; BetOnline, LowVig's twin, beside them. */
  function read(): Crossings {
    const c = new Crossings();
    const at = (minutes: number, dk: [number, number], fd: [number, number]): void =>
      c.add(
        snapshot(
          minutes,
          [book('lowvig', -120, -105), book('betonlineag', 110, -130), book('draftkings', ...dk), book('fanduel', ...fd)],
          KICKOFF,
        ),
      );
    // DraftKings' home +110 crosses LowVig's away -105 at minutes 0 and 15 and moves back at 45;
    // FanDuel crosses at 45 and is still crossed at the last snapshot.
    at(0, [110, -130], [-110, -110]);
    at(15, [110, -130], [-110, -110]);
    at(45, [-110, -110], [110, -130]);
    at(60, [-110, -110], [110, -130]);
    return c;
  }

  it("times each pair's run from its first crossed sighting to the first that is not, says who moved, and leaves BetOnline's pairs out", () => {
    const c = read();
    // Three pairs a snapshot (BetOnline's left out), each seen four times.
    expect([c.sightings, c.crossed]).toEqual([12, 4]);
    const runs = c
      .allRuns()
      .map((r) => [
        r.books.join('+'),
        r.sightings,
        (r.lastAt - r.firstAt) / MINUTE,
        r.endedMs === null ? null : r.endedMs / MINUTE,
        r.endedBy,
      ]);
    expect(runs).toEqual([
      ['draftkings+lowvig', 2, 15, 45, 'first'],
      ['fanduel+lowvig', 2, 15, null, 'open'],
    ]);
    // DraftKings' home +110 with LowVig's away -105: 1 / (0.476 + 0.512) - 1.
    expect(c.allRuns()[0]?.bestProfit).toBeCloseTo(100 * (1 / (100 / 210 + 105 / 205) - 1), 9);
  });

  it('ends a run the game no longer shows before its start', () => {
    const c = new Crossings();
    c.add(snapshot(0, [book('lowvig', -120, -105), book('draftkings', 110, -130)], KICKOFF));
    c.add(snapshot(30, [book('lowvig', -120, -105)], KICKOFF));
    expect(c.allRuns().map((r) => r.endedBy)).toEqual(['unseen']);
  });

  it('finds the mean of the exponential lifetime that best explains the runs, an open run counted to its last sighting', () => {
    const run = (lastMin: number, endedMin: number | null): CrossingRun => ({
      books: ['a', 'b'],
      market: 'h2h',
      firstAt: 0,
      lastAt: lastMin * MINUTE,
      sightings: 1,
      endedMs: endedMin === null ? null : endedMin * MINUTE,
      endedBy: endedMin === null ? 'open' : 'first',
      bestProfit: 0.1,
    });
    expect(meanLifetimeMs([run(0, null)])).toBe(null);
    // One run ended between 0 and 30 minutes: the likelihood 1 - exp(-30 / mean) only grows as the mean shrinks, to the search's floor.
    expect((meanLifetimeMs([run(0, 30)]) ?? NaN) / MINUTE).toBeCloseTo(1, 3);
    // Two runs ended within 30 and 90 minutes of their first sighting, one still standing at 60: a mean of 74 minutes.
    expect((meanLifetimeMs([run(0, 30), run(60, 90), run(60, null)]) ?? NaN) / MINUTE).toBeCloseTo(74, 0);
  });
});

const paths = ODDS_API_RECORDINGS.map((r) => locateRecording(r.file));
const present = paths.every((p) => p !== null);
if (!present) for (const r of ODDS_API_RECORDINGS) console.warn(`skipping the recorded crossings: ${missingRecordingNote(r.file)}`);

describe("the recorded books' crossings before the game", () => {
  it.runIf(present)(
    'reads crossings as rare and short: most gone by the next snapshot, an exponential lifetime of 41 minutes on both recordings',
    async () => {
      const read = async (path: string): Promise<Crossings> => {
        const c = new Crossings();
        for await (const snap of recordedSnapshots(path)) c.add(snap);
        return c;
      };
      const [nfl, wc] = await Promise.all(paths.map((p) => read(p ?? '')));
      if (nfl === undefined || wc === undefined) throw new Error('both recordings are read');
      expect([nfl.sightings, nfl.crossed, nfl.allRuns().length]).toEqual([172_412, 8, 6]);
      expect([wc.sightings, wc.crossed, wc.allRuns().length]).toEqual([205_494, 23, 14]);
      const runs = [...nfl.allRuns(), ...wc.allRuns()];
      // 14 of the 20 runs are soft book against soft book; 17 were seen at one snapshot only.
      expect(runs.filter((r) => !r.books.includes('lowvig')).length).toBe(14);
      expect(runs.filter((r) => r.sightings === 1).length).toBe(17);
      expect(Math.round(Math.max(...runs.map((r) => r.lastAt - r.firstAt)) / MINUTE)).toBe(229);
      expect(((meanLifetimeMs(runs) ?? NaN) / MINUTE).toFixed(1)).toBe('41.0');
    },
    60_000,
  );
});
