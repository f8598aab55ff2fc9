import { describe, expect, it } from 'vitest';
import { recordedSnapshots } from '../pipeline/feeds/theoddsapi/index.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { locateRecording, missingRecordingNote } from '../scripts/recordings/index.js';
import { ODDS_API_RECORDINGS } from './processor-chain.js';
import { StaleOutcomes, bookLimits, countWeightedQuantile, phaseThreshold, summarize, summaryOf } from './stale-outcomes.js';
import type { SpellObservation } from './stale-outcomes.js';

const S = 1000;
const MIN = 60 * S;
const T0 = Date.parse('2025-11-09T12:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** One book's moneyline of an event, home then away, last updated at `ts`. */
const h2h = (key: string, ts: number, home: number, away: number): Record<string, unknown> => ({
  key,
  last_update: iso(ts),
  markets: [
    {
      key: 'h2h',
      last_update: iso(ts),
      outcomes: [
        { name: 'Home Side', price: home },
        { name: 'Away Side', price: away },
      ],
    },
  ],
});

const event = (id: string, start: number, books: Record<string, unknown>[]): Record<string, unknown> => ({
  id,
  commence_time: iso(start),
  home_team: 'Home Side',
  away_team: 'Away Side',
  bookmakers: books,
});

const snap = (at: number, events: Record<string, unknown>[]): RecordedSnapshot => ({ timestamp: at, data: events });

/**
 * Three snapshots ten minutes apart. Before the game: A, B and C confirm -110 / -110 half a
 * minute before each snapshot; D shows +120 / -140 two and a half minutes old at the first (2.5
 * thresholds of 60 s) and has moved to -110 / -110 by the second; at the third A moves, B is gone
 * and C still shows the price of the second, ten and a half minutes old. A game started at minute
 * 5: A prices it in play, E's closing listing stands.
 */
function fixture(): StaleOutcomes {
  const outcomes = new StaleOutcomes();
  const kickoff = T0 + 5 * MIN;
  const later = T0 + 3 * 60 * MIN;
  outcomes.add(
    snap(T0, [
      event('pre', later, [
        h2h('a', T0 - 30 * S, -110, -110),
        h2h('b', T0 - 30 * S, -110, -110),
        h2h('c', T0 - 30 * S, -110, -110),
        h2h('d', T0 - 150 * S, 120, -140),
      ]),
    ]),
  );
  const t2 = T0 + 10 * MIN;
  outcomes.add(
    snap(t2, [
      event('pre', later, [
        h2h('a', t2 - 30 * S, -110, -110),
        h2h('b', t2 - 30 * S, -110, -110),
        h2h('c', t2 - 30 * S, -110, -110),
        h2h('d', t2 - 30 * S, -110, -110),
      ]),
      event('live', kickoff, [h2h('a', t2 - 30 * S, 150, -180), h2h('e', kickoff - MIN, 130, -150)]),
    ]),
  );
  const t3 = T0 + 20 * MIN;
  outcomes.add(
    snap(t3, [
      event('pre', later, [h2h('a', t3 - 30 * S, -120, 100), h2h('c', t2 - 30 * S, -110, -110), h2h('d', t3 - 30 * S, -110, -110)]),
      event('live', kickoff, [h2h('a', t3 - 30 * S, 150, -180)]),
    ]),
  );
  return outcomes;
}

const LIMITS = { prematch: 60, live: 100 };

describe('what a recorded book did next with a price it had left unconfirmed', () => {
  it('counts each spell of a price once per k bucket, by what its next `last_update` showed', () => {
    const { spells, standing } = fixture().observations(LIMITS);
    const row = (phase: 'prematch' | 'live', bucket: string): [number, number, number, number] => {
      const s = summaryOf(
        phase,
        bucket,
        spells.filter((o) => o.phase === phase && o.bucket === bucket),
      );
      return [s.spells, s.changed, s.unchanged, s.gone];
    };
    // A, B, C and D's spells seen under their threshold: A's second moved at the third snapshot,
    // four came back unchanged, and the last price of each is never updated in the recording.
    expect(row('prematch', 'under 1')).toEqual([9, 1, 4, 4]);
    expect(row('prematch', '2-3')).toEqual([1, 1, 0, 0]);
    // C's second price, seen again at 630 s (10.5 thresholds), in both of its buckets, never updated.
    expect(row('prematch', '5+')).toEqual([1, 0, 0, 1]);
    expect(row('live', 'under 1')).toEqual([2, 0, 1, 1]);
    expect(standing.map((o) => [o.book, o.next])).toEqual([['e', 'gone']]);
  });

  it('prices each outcome against the median no-vig of the other books fresh at that snapshot, at least two of them', () => {
    const { spells } = fixture().observations(LIMITS);
    const d1 = spells.find((o) => o.book === 'd' && o.bucket === '2-3') as SpellObservation;
    // D's +120 against A, B and C's 50 %: EV 10 %; its -140 (decimal 1.714): -14.3 %.
    expect(d1.evPercent.map((e) => (e === null ? null : Math.round(e * 100) / 100))).toEqual([10, -14.29]);
    // Its next price shortened the +EV side, and moved its home share toward the consensus.
    expect(d1.edgeCut).toEqual([true, null]);
    expect(d1.towardConsensus).toBe(true);
    expect(d1.nextAfterMs).toBe(9.5 * MIN);
    // At the third snapshot A and D are the only fresh books: each has one other, no consensus.
    const third = spells.filter((o) => o.at === T0 + 20 * MIN && o.phase === 'prematch' && o.bucket === 'under 1');
    expect(third.map((o) => [o.book, o.evPercent])).toEqual([
      ['a', [null, null]],
      ['d', [null, null]],
    ]);
    // C, stale, is priced against those two.
    const c = spells.find((o) => o.book === 'c' && o.bucket === '5+') as SpellObservation;
    expect(c.evPercent.every((e) => e !== null && e < 0)).toBe(true);
    const rows = summarize(spells);
    const stale = rows.find((r) => r.phase === 'prematch' && r.bucket === '2-3');
    expect([stale?.priced, stale?.ev, stale?.ev2, stale?.edgesSeen, stale?.edgesCut, stale?.moves, stale?.toward]).toEqual([
      2, 1, 1, 1, 1, 1, 1,
    ]);
  });

  it('reads the share of confirmations longer than an age off the ages at random moments: their density over its value at 0', () => {
    // 90 % of intervals 60 s, 10 % 600 s: ages uniform at density 1 per second up to 60 s, then 0.1.
    const ages = [...Array.from({ length: 60 }, (_, i) => (i + 0.5) * S), ...Array.from({ length: 54 }, (_, i) => 65 * S + i * 10 * S)];
    expect(countWeightedQuantile(ages, 0.5)).toBe(60 * S);
    expect(countWeightedQuantile(ages, 0.9)).toBe(60 * S);
    expect(countWeightedQuantile(ages, 0.95)).toBe(600 * S);
    // Counted per moment the same ages read p95 545 s: each long wait seen for as long as it lasts.
    const t = phaseThreshold('live', ages);
    expect([t.timeWeightedP50, t.timeWeightedP95, t.countWeightedP50, t.countWeightedP95, t.staleAfterSeconds]).toEqual([
      56.5, 545, 60, 600, 1200,
    ]);
    expect(countWeightedQuantile([], 0.95)).toBeNull();
  });
});

const paths = ODDS_API_RECORDINGS.map((r) => locateRecording(r.file));
const present = paths.every((p) => p !== null);
if (!present) for (const r of ODDS_API_RECORDINGS) console.warn(`skipping the recorded stale outcomes: ${missingRecordingNote(r.file)}`);

async function recording(path: string): Promise<StaleOutcomes> {
  const outcomes = new StaleOutcomes();
  for await (const s of recordedSnapshots(path)) outcomes.add(s);
  return outcomes;
}

describe('the recorded books at k times their stale threshold', () => {
  it.runIf(present)(
    'reads the thresholds and, per k bucket, what the book did next and how often the price was +EV, as docs/opportunities.md reports them',
    async () => {
      const [nfl, wc] = await Promise.all(paths.map((p) => recording(p ?? '')));
      if (nfl === undefined || wc === undefined) throw new Error('both recordings are read');
      const { limits, phases } = bookLimits([nfl, wc]);
      // Read once per confirmation, every book: p95 150 s before the game and 130 s in play.
      expect([
        phases.prematch.countWeightedP95,
        phases.prematch.staleAfterSeconds,
        phases.live.countWeightedP95,
        phases.live.staleAfterSeconds,
      ]).toEqual([150, 300, 130, 260]);
      expect(['fanduel', 'williamhill_us', 'betus'].map((b) => [limits(b, 'prematch'), limits(b, 'live')])).toEqual([
        [120, 120],
        [1080, 620],
        // BetUS prices 12 games' minutes in play: too few ages for its own, so every book's.
        [160, 260],
      ]);
      const spells = [...nfl.observations(limits).spells, ...wc.observations(limits).spells];
      // phase, k, spells, changed, re-confirmed unchanged, never updated again; +EV outcomes of those priced, EV >= 2.
      expect(summarize(spells).map((r) => [r.phase, r.bucket, r.spells, r.changed, r.unchanged, r.gone, r.ev, r.priced, r.ev2])).toEqual([
        ['prematch', 'under 1', 141893, 12976, 127947, 970, 4147, 299944, 430],
        ['prematch', '1-2', 499, 78, 418, 3, 12, 985, 1],
        ['prematch', '2-3', 124, 88, 36, 0, 1, 157, 0],
        ['prematch', '3-5', 80, 34, 46, 0, 0, 163, 0],
        ['prematch', '5+', 0, 0, 0, 0, 0, 0, 0],
        ['live', 'under 1', 1935, 1421, 36, 478, 300, 3664, 157],
        ['live', '1-2', 61, 13, 0, 48, 22, 95, 15],
        ['live', '2-3', 34, 1, 0, 33, 12, 44, 12],
        ['live', '3-5', 60, 0, 0, 60, 28, 65, 25],
        ['live', '5+', 7, 0, 0, 7, 0, 0, 0],
      ]);
    },
    60_000,
  );
});
