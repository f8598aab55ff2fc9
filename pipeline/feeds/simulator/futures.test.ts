import { describe, expect, it } from 'vitest';
import { LEAGUES, SPORTSBOOKS, TEAMS } from '../../../schemas/index.js';
import type { RawFutures } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { FuturesNormalizer } from '../../futures/index.js';
import { americanToProbability } from '../../odds-math/index.js';
import { MarketSimulator } from './simulator.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const SHARP = new Set(SPORTSBOOKS.filter((b) => b.isSharp).map((b) => b.id));
const overround = (b: RawFutures): number => b.selections.reduce((s, x) => s + americanToProbability(x.priceAmerican), 0) - 1;

function firstRound(seed = 7): { sim: MarketSimulator; boards: RawFutures[] } {
  const sim = new MarketSimulator({ seed, clock: new ManualClock(T0), eventsPerLeague: 2 });
  return { sim, boards: sim.futures(T0) };
}

describe('simulated futures', () => {
  it('prices every market at every book on the first round, each outcome once', () => {
    const { sim, boards } = firstRound();
    expect(sim.futuresMarkets).toBeGreaterThan(50);
    expect(boards).toHaveLength(sim.futuresMarkets * SPORTSBOOKS.length);
    const kinds = new Set(boards.map((b) => b.market));
    expect([...kinds].sort()).toEqual(['championship', 'make_playoffs', 'mvp', 'season_wins']);
    for (const b of boards) {
      expect(new Set(b.selections.map((s) => s.name)).size, b.bookMarketId).toBe(b.selections.length);
      for (const s of b.selections) expect(Number.isInteger(s.priceAmerican) && Math.abs(s.priceAmerican) >= 100).toBe(true);
    }
    const nba = boards.find((b) => b.league === 'nba' && b.market === 'championship' && b.book === 'pinnacle');
    expect(nba?.selections).toHaveLength(30);
    expect(nba?.season).toBe('2026-27');
    expect(nba?.settlesAt).toBe(Date.UTC(2027, 6, 1) - 1);
  });

  it('holds outright fields at 20-40 % overround at soft books and tighter at every sharp book', () => {
    const { boards } = firstRound();
    const fields = boards.filter((b) => b.selections.length > 2);
    for (const b of fields) {
      const o = overround(b);
      if (SHARP.has(b.book)) expect(o, `${b.book} ${b.bookMarketId}`).toBeGreaterThan(0.05);
      else {
        expect(o, `${b.book} ${b.bookMarketId}`).toBeGreaterThanOrEqual(0.2);
        expect(o, `${b.book} ${b.bookMarketId}`).toBeLessThanOrEqual(0.4);
      }
    }
    // On each market, the loosest sharp book is tighter than the tightest soft book.
    const byMarket = new Map<string, RawFutures[]>();
    for (const b of fields) byMarket.set(`${b.league}/${b.market}`, [...(byMarket.get(`${b.league}/${b.market}`) ?? []), b]);
    for (const [market, list] of byMarket) {
      const sharp = Math.max(...list.filter((b) => SHARP.has(b.book)).map(overround));
      const soft = Math.min(...list.filter((b) => !SHARP.has(b.book)).map(overround));
      expect(sharp, market).toBeLessThan(soft);
    }
    // Two-way season markets carry a game-like margin, not an outright's.
    for (const b of boards.filter((x) => x.selections.length === 2)) expect(overround(b)).toBeLessThan(0.15);
  });

  it('moves prices over time: later rounds send only changed boards, sharps more often than soft books', () => {
    const { sim } = firstRound();
    const later = sim.futures(T0 + 6 * 3_600_000);
    expect(later.length).toBeGreaterThan(0);
    const sharp = later.filter((b) => SHARP.has(b.book)).length / SHARP.size;
    const soft = later.filter((b) => !SHARP.has(b.book)).length / (SPORTSBOOKS.length - SHARP.size);
    expect(sharp).toBeGreaterThan(soft);
  });

  it('shortens the title odds of teams that win and lengthens those of teams that lose', () => {
    const sim = new MarketSimulator({ seed: 11, clock: new ManualClock(T0), eventsPerLeague: 4 });
    // Pinnacle's board with the teams resolved to catalog names (books spell them their own way).
    const normalizer = new FuturesNormalizer({ teams: TEAMS, leagues: LEAGUES });
    const title = (boards: RawFutures[]): Map<string, number> => {
      const pin = boards.find((b) => b.league === 'nfl' && b.market === 'championship' && b.book === 'pinnacle');
      const quote = pin ? normalizer.handle(pin).quote : null;
      return new Map((quote?.selections ?? []).map((s) => [s.selection, s.probability]));
    };
    const before = title(sim.futures(T0));
    // Play two days of games; every game final since then moved the ratings.
    for (let t = T0 + 600_000; t <= T0 + 2 * 86_400_000; t += 600_000) sim.step(t, 500);
    const finals = sim.futuresResults().filter((r) => r.league === 'nfl');
    expect(finals.length).toBeGreaterThan(0);
    // Pinnacle requotes about every other round: a few rounds and every market is fresh.
    let after = title(sim.futures(T0 + 2 * 86_400_000));
    for (let i = 1; i <= 8; i++) {
      const more = title(sim.futures(T0 + 2 * 86_400_000 + i * 60_000));
      after = new Map([...after, ...more]);
    }
    let winnersUp = 0;
    let losersDown = 0;
    for (const { winner, loser } of finals) {
      if ((after.get(winner) ?? 0) > (before.get(winner) ?? 0)) winnersUp++;
      if ((after.get(loser) ?? 1) < (before.get(loser) ?? 1)) losersDown++;
    }
    // Drift can outweigh one result, rarely: most winners shorten and most losers drift.
    expect(winnersUp / finals.length).toBeGreaterThan(0.7);
    expect(losersDown / finals.length).toBeGreaterThan(0.7);
  });

  it('is deterministic for a seed, and leaves the game ticks as they were without futures', () => {
    const a = firstRound(5).boards;
    const b = firstRound(5).boards;
    expect(a).toEqual(b);
    const plain = new MarketSimulator({ seed: 5, clock: new ManualClock(T0), eventsPerLeague: 2 });
    const withFutures = new MarketSimulator({ seed: 5, clock: new ManualClock(T0), eventsPerLeague: 2 });
    withFutures.futures(T0);
    expect(withFutures.step(T0 + 60_000, 2000)).toEqual(plain.step(T0 + 60_000, 2000));
  });
});
