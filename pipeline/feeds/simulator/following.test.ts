import { describe, expect, it } from 'vitest';
import { LEAGUES, SPORTSBOOKS, TEAMS } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import type { Listing, SimEvent } from './board.js';
import { bookProfiles } from './books.js';
import { LEAD_TAKEN_BACK_WITHIN, PREGAME_FOLLOWED_WITHIN, PregameFollowing, atStart, delayWithin } from './following.js';
import { MarketSimulator } from './index.js';
import { Prng } from './prng.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('a delay drawn from recorded shares (a soft book following a pre-game step, the lead book taking one back)', () => {
  const table = [
    { withinMs: 15 * MINUTE, share: 0.2 },
    { withinMs: HOUR, share: 0.5 },
    { withinMs: 6 * HOUR, share: 0.6 },
  ];

  it('takes the bracket the first draw falls in by the cumulative shares, and a time in it by the second', () => {
    expect(delayWithin(0.1, 0.5, table)).toBe(7.5 * MINUTE);
    expect(delayWithin(0.2, 0, table)).toBe(15 * MINUTE);
    expect(delayWithin(0.55, 0.25, table)).toBe(HOUR + 1.25 * HOUR);
  });

  it('never comes (no follow before the game, a step kept) when the first draw is past the last share', () => {
    expect(delayWithin(0.6, 0.5, table)).toBe(Infinity);
    expect(delayWithin(0.99, 0, table)).toBe(Infinity);
  });

  it('reads the recorded shares as cumulative: none falls, none above one', () => {
    for (const recorded of [PREGAME_FOLLOWED_WITHIN, LEAD_TAKEN_BACK_WITHIN]) {
      const shares = recorded.map((b) => b.share);
      expect(shares.every((s, i) => s >= (shares[i - 1] ?? 0) && s <= 1)).toBe(true);
    }
    expect(PREGAME_FOLLOWED_WITHIN.map((b) => b.withinMs / HOUR)).toEqual([0.25, 1, 6, 24, 72]);
    expect(LEAD_TAKEN_BACK_WITHIN.map((b) => b.withinMs / HOUR)).toEqual([0.25, 1, 6]);
  });
});

/** One NHL game before its start, listed by Pinnacle (sharp) and FanDuel (soft). */
function game(): SimEvent {
  const league = LEAGUES.find((l) => l.id === 'nhl');
  const [home, away] = TEAMS.filter((t) => t.leagues.includes('nhl'));
  if (league === undefined || home === undefined || away === undefined) throw new Error('the catalog has NHL teams');
  const ev: SimEvent = {
    serial: 1,
    id: 'sim-1',
    league,
    home,
    away,
    startTime: 100 * HOUR,
    endTime: 103 * HOUR,
    status: 'upcoming',
    neutralSite: false,
    traps: [],
    state: { margin: 0, total: 6, marginScale: 1, totalScale: 1, drawBase: 0 },
    props: [],
    jumpAt: -Infinity,
    jumpMargin: 0,
    jumpTotal: 0,
    leanMargin: 0,
    leanTotal: 0,
    listings: [],
  };
  for (const book of bookProfiles(SPORTSBOOKS.filter((b) => b.id === 'pinnacle' || b.id === 'fanduel'))) {
    const listing: Listing = {
      book,
      event: ev,
      bookEventId: book.id,
      homeTeam: home.name,
      awayTeam: away.name,
      homeName: home.name,
      awayName: away.name,
      startTime: ev.startTime,
      flipped: false,
      closed: false,
      behindMargin: 0,
      behindTotal: 0,
      quotes: [],
      selectionIds: null,
    };
    ev.listings.push(listing);
  }
  return ev;
}

describe('the sharp line before the game, and the soft books behind it', () => {
  /** Every step of the sharp line is its lean, taken back 15 minutes to 2 hours after it. */
  const takenBack = [
    { withinMs: 15 * MINUTE, share: 0 },
    { withinMs: 2 * HOUR, share: 1 },
  ];

  /** A step of 0.1 in the margin at time 0, the soft book following by `follow`: the requotes asked for (book, time), and [truth, lean, the soft book's arrears] at 15 minutes and at 3 hours. */
  function played(follow: { withinMs: number; share: number }[]): { requotes: [string, number][]; at: number[][] } {
    const ev = game();
    const requotes: [string, number][] = [];
    const following = new PregameFollowing(new Prng(3), (l, at) => requotes.push([l.book.id, at]), {
      followed: follow,
      takenBack,
      share: 1,
    });
    ev.state.margin += 0.1;
    ev.jumpMargin = 0.1;
    following.step(ev, 0);
    const at: number[][] = [];
    for (const t of [15 * MINUTE, 3 * HOUR]) {
      following.takeIn(t);
      const soft = ev.listings.find((l) => !l.book.isSharp);
      at.push([ev.state.margin, ev.leanMargin, soft?.behindMargin ?? NaN].map((x) => Math.round(x * 1e12) / 1e12));
    }
    return { requotes, at };
  }

  it('moves the lean, not the truth, at a step it takes back; a soft book that followed it follows it back', () => {
    const { requotes, at } = played([{ withinMs: 15 * MINUTE, share: 1 }]);
    // Followed by 15 minutes; taken back and followed back by 3 hours.
    expect(at).toEqual([
      [0, 0.1, 0],
      [0, 0, 0],
    ]);
    // Pinnacle at the step and at the reversal, within its pre-game lag (1-1.4 s); FanDuel at its follow and at its follow back.
    expect(requotes.map(([book]) => book)).toEqual(['pinnacle', 'fanduel', 'pinnacle', 'fanduel']);
    expect(requotes[0]?.[1]).toBeGreaterThanOrEqual(1_000);
    expect(requotes[0]?.[1]).toBeLessThan(1_400);
    const [, follow, reversal, back] = requotes.map(([, t]) => t);
    expect(follow).toBeLessThan(15 * MINUTE);
    expect(reversal).toBeGreaterThan(15 * MINUTE);
    // The follow back is timed from the reversal, which Pinnacle prices within its lag.
    expect(back).toBeGreaterThan((reversal ?? Infinity) - 1_400);
  });

  it('leaves a soft book that never followed a step the line takes back where it was, in line again, with nothing to follow', () => {
    const { requotes, at } = played([{ withinMs: 15 * MINUTE, share: 0 }]);
    expect(at).toEqual([
      [0, 0.1, 0.1],
      [0, 0, 0],
    ]);
    expect(requotes.map(([book]) => book)).toEqual(['pinnacle', 'pinnacle']);
  });

  it('keeps a step that no draw takes back in the truth, and forgets lean and arrears at the start', () => {
    const ev = game();
    const following = new PregameFollowing(new Prng(3), () => undefined, {
      followed: [{ withinMs: 15 * MINUTE, share: 0 }],
      takenBack: [{ withinMs: 15 * MINUTE, share: 0 }],
      share: 1,
    });
    ev.state.margin += 0.1;
    ev.jumpMargin = 0.1;
    following.step(ev, 0);
    following.takeIn(3 * HOUR);
    expect([ev.state.margin, ev.leanMargin, ev.listings.find((l) => !l.book.isSharp)?.behindMargin]).toEqual([0.1, 0, 0.1]);
    ev.leanMargin = 0.05;
    atStart(ev);
    expect([ev.state.margin, ev.leanMargin, ev.listings.map((l) => l.behindMargin)]).toEqual([0.1, 0, [0, 0]]);
  });
});

describe('books before the game', () => {
  const T0 = Date.UTC(2026, 10, 29, 8);

  /** Ten NHL games, none under way, priced by Pinnacle and FanDuel over six hours in ten-second steps: each book's moneyline ticks, confirmations and changes. */
  function moneylines(): Record<string, { ticks: number; changes: number }> {
    const clock = new ManualClock(T0);
    const sim = new MarketSimulator({
      seed: 7,
      clock,
      liveShare: 0,
      fillBudget: false,
      catalog: {
        books: SPORTSBOOKS.filter((b) => b.id === 'pinnacle' || b.id === 'fanduel'),
        leagues: LEAGUES.filter((l) => l.id === 'nhl'),
      },
    });
    const last = new Map<string, number | null>();
    const out: Record<string, { ticks: number; changes: number }> = {};
    for (let now = T0 + 10_000; now <= T0 + 6 * HOUR; now += 10_000) {
      clock.set(now);
      for (const t of sim.step(now, 100_000)) {
        if (t.market !== 'moneyline' || t.status !== 'open' || t.isLive) continue;
        const key = `${t.book}|${t.bookEventId}|${t.outcome}`;
        const seen = (out[t.book] ??= { ticks: 0, changes: 0 });
        seen.ticks++;
        if (last.has(key) && last.get(key) !== t.priceAmerican) seen.changes++;
        last.set(key, t.priceAmerican);
      }
    }
    return out;
  }

  it('stand behind their moneylines about once a minute but move them only at steps of the sharp line, and a soft book at steps of its own', () => {
    // With drift and no lean (stop 51) Pinnacle changed its moneylines 2,368 times; with the
    // recorded steps, every one news (stop 52), 8 times; with a third of them its lean, taken
    // back within six hours, 12 times, the steps taken back counted again.
    expect(moneylines()).toEqual({
      pinnacle: { ticks: 5_868, changes: 12 },
      fanduel: { ticks: 9_148, changes: 5 },
    });
  });
});
