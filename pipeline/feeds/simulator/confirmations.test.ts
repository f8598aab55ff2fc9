import { describe, expect, it } from 'vitest';
import { LEAGUES, type RawTick, SPORTSBOOKS } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { TimedHeap } from '../../timed-heap.js';
import { MarketSimulator, type QuoteView } from './index.js';

describe('the confirmation schedule', () => {
  it('drops the entries it is told to and pops the rest in the same order, ties in push order', () => {
    const heap = new TimedHeap<string>();
    const pushed: [number, string][] = [
      [5, 'a'],
      [1, 'b'],
      [3, 'c'],
      [1, 'd'],
      [2, 'e'],
      [3, 'f'],
      [1, 'g'],
      [4, 'h'],
    ];
    for (const [at, item] of pushed) heap.push(at, item);
    heap.retain((_, item) => item !== 'b' && item !== 'f');
    const popped: string[] = [];
    for (let item = heap.pop(); item !== undefined; item = heap.pop()) popped.push(item);
    expect(popped).toEqual(['d', 'g', 'e', 'c', 'h', 'a']);
  });

  it('holds about one entry per open quote, not one per reprice, at 2,000 ticks a second', () => {
    // Every reprice books a new confirmation and leaves the one before to be skipped when due, up
    // to 17 minutes later: after a minute 91,802 entries for 22,345 quotes (278,000 after 14) before
    // they were dropped. The ticks are the same either way. (Counted before the soft books' lean
    // drifted; with the drift the same minute gave 118,722 ticks and 22,660 entries. Since stop 49
    // the books confirm about once a minute, from two schedules, in play and before the game, each
    // dropping its skipped entries when it has doubled: 118,695 ticks and 43,971 entries, just
    // under twice the quotes, where one per reprice would be about 54,000 a minute. Since stop 51
    // the opening board is a running book's, each quote next confirmed at the end of its current
    // interval: 118,743 ticks and 28,414 entries. Since stop 52 a quote waiting for its requote
    // after news is confirmed on its turn instead of losing it: the same ticks, 28,420 entries.
    // Since stop 54 the games not started draw their moves and lags from a stream of their own:
    // other draws, so 118,861 ticks and 29,780 entries, where the same minute gave 118,745 and 28,418.
    // Since stop 56 the books price narrower before the game, BetOnline moves with LowVig and a
    // crossed soft price is corrected: 118,827 ticks and 28,943 entries.)
    const T0 = Date.UTC(2026, 10, 29, 8);
    const clock = new ManualClock(T0);
    const sim = new MarketSimulator({ seed: 42, clock });
    sim.snapshot();
    let ticks = 0;
    for (let now = T0 + 100; now <= T0 + 60_000; now += 100) {
      clock.set(now);
      ticks += sim.step(now, 200).length;
    }
    expect(ticks).toBe(118_827);
    expect(sim.scheduledConfirmations).toBe(28_943);
  });
});

describe('the opening board', () => {
  const T0 = Date.UTC(2026, 10, 29, 8);
  /** Ten NHL games priced by Pinnacle (every 67.1 s before the game, its own pace, never sitting) and FanDuel (every 36 s, sitting 2 % of the time in six-minute spells). */
  const opening = (): MarketSimulator =>
    new MarketSimulator({
      seed: 7,
      clock: new ManualClock(T0),
      catalog: {
        books: SPORTSBOOKS.filter((b) => b.id === 'pinnacle' || b.id === 'fanduel'),
        leagues: LEAGUES.filter((l) => l.id === 'nhl'),
      },
      liveShare: 0,
      suspensionsPerMinute: 0,
      fillBudget: false,
    });
  const ageSeconds = (v: QuoteView): number => (T0 - v.lastTs) / 1000;
  const quoteKey = (t: Pick<RawTick, 'book' | 'bookEventId' | 'market' | 'participant' | 'statCategory'>): string =>
    `${t.book}|${t.bookEventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}`;

  it("shows quotes last confirmed at points spread over their book's cadence, not all at the opening, and a quote the book sits on as old as its spell", () => {
    const views = opening().inspect();
    const ages = (book: string): number[] => views.filter((v) => v.book === book && !v.stale).map(ageSeconds);
    expect(ages('pinnacle').slice(0, 4)).toEqual([34.245, 6.64, 50.365, 31.241]);
    expect(ages('fanduel').slice(0, 4)).toEqual([20.746, 14.028, 8.569, 14.389]);
    // Within one interval: at most 1.25 x the cadence (67.1 s and 36 s), all different.
    expect(Math.max(...ages('pinnacle'))).toBeLessThan(83.9);
    expect(Math.max(...ages('fanduel'))).toBeLessThan(45);
    expect(new Set(ages('fanduel')).size).toBe(151);
    // FanDuel sits on 2 of its 153 quotes at the opening, each since before its spell began: older than any interval.
    const sitting = views.filter((v) => v.stale);
    expect(sitting.map((v) => [v.book, ageSeconds(v)])).toEqual([
      ['fanduel', 236.334],
      ['fanduel', 264.491],
    ]);
  });

  it('confirms each quote it is not sitting on next one whole interval after its last confirmation, as the freshness ledger sees a running book', () => {
    const sim = opening();
    const board = sim.snapshot();
    const sitting = new Set(
      sim
        .inspect()
        .filter((v) => v.stale)
        .map(quoteKey),
    );
    const opened = new Map(board.map((t) => [quoteKey(t), t.ts]));
    const gaps = new Map<string, number>();
    for (let now = T0 + 100; now <= T0 + 90_000; now += 100)
      for (const t of sim.step(now, 100_000)) {
        const k = quoteKey(t);
        if (!gaps.has(k)) gaps.set(k, t.ts - (opened.get(k) ?? NaN));
      }
    const first = [...opened.keys()].filter((k) => !sitting.has(k));
    expect(first.filter((k) => !gaps.has(k))).toEqual([]);
    const byBook = (book: string): number[] => first.filter((k) => k.startsWith(`${book}|`)).map((k) => gaps.get(k) ?? NaN);
    // The book's interval between confirmations: 0.75-1.25 x its cadence.
    expect(Math.min(...byBook('pinnacle'))).toBeGreaterThanOrEqual(50_337);
    expect(Math.max(...byBook('pinnacle'))).toBeLessThanOrEqual(83_896);
    expect(Math.min(...byBook('fanduel'))).toBeGreaterThanOrEqual(27_000);
    expect(Math.max(...byBook('fanduel'))).toBeLessThanOrEqual(45_000);
  });
});
