import { describe, expect, it } from 'vitest';
import { LEAGUES, SPORTSBOOKS } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { PREGAME_FOLLOWED_WITHIN, followDelay } from './following.js';
import { MarketSimulator } from './index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("a soft book's delay in following a pre-game step", () => {
  const table = [
    { withinMs: 15 * MINUTE, share: 0.2 },
    { withinMs: HOUR, share: 0.5 },
    { withinMs: 6 * HOUR, share: 0.6 },
  ];

  it('takes the bracket the first draw falls in by the cumulative shares, and a time in it by the second', () => {
    expect(followDelay(0.1, 0.5, table)).toBe(7.5 * MINUTE);
    expect(followDelay(0.2, 0, table)).toBe(15 * MINUTE);
    expect(followDelay(0.55, 0.25, table)).toBe(HOUR + 1.25 * HOUR);
  });

  it('does not follow before the game when the first draw is past the last share', () => {
    expect(followDelay(0.6, 0.5, table)).toBe(Infinity);
    expect(followDelay(0.99, 0, table)).toBe(Infinity);
  });

  it('reads the recorded shares as cumulative: none falls, none above one', () => {
    const shares = PREGAME_FOLLOWED_WITHIN.map((b) => b.share);
    expect(shares.every((s, i) => s >= (shares[i - 1] ?? 0) && s <= 1)).toBe(true);
    expect(PREGAME_FOLLOWED_WITHIN.map((b) => b.withinMs / HOUR)).toEqual([0.25, 1, 6, 24, 72]);
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

  it('stand behind their moneylines about once a minute but move them only at news, and a soft book at steps of its own', () => {
    expect(moneylines()).toEqual({
      pinnacle: { ticks: 5_858, changes: 8 },
      fanduel: { ticks: 9_084, changes: 9 },
    });
  });
});
