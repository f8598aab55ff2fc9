import { describe, expect, it } from 'vitest';
import type { SplitsBook, SplitsSnapshot } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { SplitsBoard } from './splits-board.js';

const T0 = Date.UTC(2026, 10, 22, 18, 0);
const MIN = 60_000;

function snap(book: SplitsBook, ts: number, eventId = 'nba-1'): SplitsSnapshot {
  return {
    key: `${eventId}|${book}`,
    eventId,
    sport: 'basketball',
    league: 'nba',
    homeTeamId: 'lakers',
    awayTeamId: 'celtics',
    startTime: T0 + 600 * MIN,
    isLive: false,
    book,
    ts,
    sides: [{ market: 'moneyline', side: 'home', betPct: 0.6, handlePct: 0.6, line: null, priceAmerican: -120 }],
    signals: {},
  };
}

describe('SplitsBoard', () => {
  it('serves the newest snapshot per event and book, and a delayed reader the newest one old enough', () => {
    const clock = new ManualClock(T0);
    const board = new SplitsBoard(clock, { syncEveryMs: 0 });
    board.apply('nba-1|draftkings', snap('draftkings', T0 - 5 * MIN));
    board.apply('nba-1|draftkings', snap('draftkings', T0));
    board.apply('nba-1|circa', snap('circa', T0 - 30_000));
    const times = (delay: number): [string, number][] => board.latest(delay).map((s) => [s.book, s.ts]);
    expect(times(0)).toEqual([
      ['draftkings', T0],
      ['circa', T0 - 30_000],
    ]);
    expect(times(60_000)).toEqual([['draftkings', T0 - 5 * MIN]]);
    clock.advance(30_000);
    expect(times(60_000)).toEqual([
      ['draftkings', T0 - 5 * MIN],
      ['circa', T0 - 30_000],
    ]);
    clock.advance(30_000);
    expect(times(60_000)).toEqual([
      ['draftkings', T0],
      ['circa', T0 - 30_000],
    ]);
    expect(board.latestOf('nba-1', ['circa', 'draftkings'], 0).map((s) => s.book)).toEqual(['circa', 'draftkings']);
  });

  it('ignores a redelivered older snapshot, drops a key on a tombstone, and forgets games past 48 hours', () => {
    const clock = new ManualClock(T0);
    const board = new SplitsBoard(clock, { syncEveryMs: 0 });
    board.apply('nba-1|draftkings', snap('draftkings', T0));
    board.apply('nba-1|draftkings', snap('draftkings', T0 - MIN));
    expect(board.latest().map((s) => s.ts)).toEqual([T0]);
    board.apply('nba-1|draftkings', null);
    expect(board.latest()).toEqual([]);
    board.apply('nba-2|draftkings', snap('draftkings', T0, 'nba-2'));
    clock.advance(48 * 60 * MIN + 1);
    expect(board.latest()).toEqual([]);
    board.sync();
    expect(board.size).toBe(0);
  });

  it('notifies listeners of each snapshot, delayed ones once the snapshot is old enough, until they unsubscribe', () => {
    const clock = new ManualClock(T0);
    const board = new SplitsBoard(clock, { syncEveryMs: 0 });
    const live: number[] = [];
    const delayed: number[] = [];
    const stopLive = board.subscribe((s) => live.push(s.ts));
    board.subscribe((s) => delayed.push(s.ts), 60_000);
    board.apply('nba-1|draftkings', snap('draftkings', T0));
    board.apply('nba-1|circa', snap('circa', T0 + 1));
    expect([live, delayed]).toEqual([[T0, T0 + 1], []]);
    clock.advance(60_000);
    board.sync();
    expect(delayed).toEqual([T0]);
    clock.advance(1);
    board.sync();
    expect(delayed).toEqual([T0, T0 + 1]);
    stopLive();
    board.apply('nba-1|draftkings', snap('draftkings', T0 + 5 * MIN));
    expect(live).toEqual([T0, T0 + 1]);
  });
});
