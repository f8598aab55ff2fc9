import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { TimedHeap } from '../../timed-heap.js';
import { MarketSimulator } from './index.js';

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
    // under twice the quotes, where one per reprice would be about 54,000 a minute.)
    const T0 = Date.UTC(2026, 10, 29, 8);
    const clock = new ManualClock(T0);
    const sim = new MarketSimulator({ seed: 42, clock });
    sim.snapshot();
    let ticks = 0;
    for (let now = T0 + 100; now <= T0 + 60_000; now += 100) {
      clock.set(now);
      ticks += sim.step(now, 200).length;
    }
    expect(ticks).toBe(118_695);
    expect(sim.scheduledConfirmations).toBe(43_971);
  });
});
