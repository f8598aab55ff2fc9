import { describe, expect, it } from 'vitest';
import { LEAGUES, type RawSplits } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { MarketSimulator, type QuoteView, syntheticTeams } from './index.js';
import { americanToProbability } from '../../odds-math/index.js';
import { popularity } from './splits.js';

const NOVEMBER = Date.UTC(2026, 10, 21, 4, 35);
const LEAGUE_IDS = new Set(['nba', 'nfl', 'nhl', 'ncaab']);
const CATALOG = { teams: syntheticTeams(LEAGUES), leagues: LEAGUES.filter((l) => LEAGUE_IDS.has(l.id)) };
const FIVE_MIN = 5 * 60_000;

function simulator(): MarketSimulator {
  return new MarketSimulator({ clock: new ManualClock(NOVEMBER), catalog: CATALOG, eventsPerLeague: 15 });
}

/** Steps the simulator to `until` in steps of `stepMs`, with budget for every requote that falls due. */
function stepTo(sim: MarketSimulator, until: number, stepMs: number): void {
  for (let now = Math.min(sim.now + stepMs, until); now <= until; now += stepMs) sim.step(now, 3_000);
}

/** Home (or over) is the first side of a market, away (or under) the second. */
function side(s: RawSplits, market: string, i: 0 | 1): { betPct: number; handlePct: number } {
  const found = s.sides.filter((x) => x.market === market)[i];
  if (!found) throw new Error(`no ${market} side ${i} in ${s.book} ${s.bookEventId}`);
  return found;
}
const share = <T>(items: readonly T[], f: (x: T) => boolean): number => items.filter(f).length / items.length;

describe('simulated betting splits', () => {
  it('are deterministic and come from draftkings and circa for the events they list, with shares summing to 1', () => {
    const a = simulator().splits(NOVEMBER);
    expect(simulator().splits(NOVEMBER)).toEqual(a);
    expect(new Set(a.map((s) => s.book))).toEqual(new Set(['draftkings', 'circa']));
    for (const s of a) {
      expect(s.ts).toBe(NOVEMBER);
      for (const market of ['spread', 'total', 'moneyline']) {
        expect(s.sides.filter((x) => x.market === market)).toHaveLength(2);
        expect(side(s, market, 0).betPct + side(s, market, 1).betPct).toBeCloseTo(1, 9);
        expect(side(s, market, 0).handlePct + side(s, market, 1).handlePct).toBeCloseTo(1, 9);
      }
    }
  });

  it('lean to favourites and overs', () => {
    const sim = simulator();
    const quotes = new Map(
      sim
        .inspect()
        .filter((q) => q.book === 'draftkings' && q.market === 'moneyline')
        .map((q) => [q.bookEventId, q]),
    );
    const dk = sim.splits(NOVEMBER).filter((s) => s.book === 'draftkings');
    const favouriteShare = dk.map((s) => {
      const q = quotes.get(s.bookEventId) as QuoteView;
      const homeFavoured = americanToProbability(q.prices[0] ?? 100) > americanToProbability(q.prices[1] ?? 100);
      return homeFavoured ? side(s, 'moneyline', 0).betPct : side(s, 'moneyline', 1).betPct;
    });
    expect(share(favouriteShare, (x) => x > 0.5)).toBeGreaterThan(0.8);
    expect(share(dk, (s) => side(s, 'total', 0).betPct > 0.5)).toBeGreaterThan(0.7);
  });

  it('lean to popular teams, beyond what the prices say', () => {
    const sim = simulator();
    const truth = new Map(sim.trueEvents().map((e) => [e.books['draftkings']?.bookEventId, e]));
    const quotes = new Map(
      sim
        .inspect()
        .filter((q) => q.book === 'draftkings' && q.market === 'moneyline')
        .map((q) => [q.bookEventId, q]),
    );
    // Spread tickets on home beyond the favourite's pull, split by which team draws the crowd.
    const excess = (s: RawSplits): number => {
      const q = quotes.get(s.bookEventId) as QuoteView;
      const pHome =
        americanToProbability(q.prices[0] ?? 100) / (americanToProbability(q.prices[0] ?? 100) + americanToProbability(q.prices[1] ?? 100));
      return side(s, 'spread', 0).betPct - (0.5 + 0.5 * (pHome - 0.5));
    };
    const dk = sim.splits(NOVEMBER).filter((s) => s.book === 'draftkings' && truth.has(s.bookEventId));
    const lean = (pick: (home: number, away: number) => boolean): number => {
      const xs = dk
        .filter((s) => {
          const e = truth.get(s.bookEventId);
          return e !== undefined && pick(popularity(e.homeTeamId), popularity(e.awayTeamId));
        })
        .map(excess);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(lean((h, a) => h > a)).toBeGreaterThan(lean((h, a) => h < a) + 0.05);
  });

  it("when circa's handle runs ahead of its tickets on a side, the line then moves toward that side", () => {
    const sim = simulator();
    let previous = new Map<string, number>();
    let toward = 0;
    let against = 0;
    for (let round = 0; round < 8; round++) {
      const at = NOVEMBER + round * FIVE_MIN;
      stepTo(sim, at, FIVE_MIN);
      const before = new Map(
        sim
          .inspect()
          .filter((q) => q.book === 'circa' && q.market === 'point_spread')
          .map((q) => [q.bookEventId, q.lines[0] as number]),
      );
      const circa = sim.splits(at).filter((s) => s.book === 'circa' && s.sides.some((x) => x.market === 'spread'));
      const gaps = new Map(circa.map((s) => [s.bookEventId, side(s, 'spread', 0).handlePct - side(s, 'spread', 0).betPct]));
      stepTo(sim, at + 60_000, 5_000);
      const after = new Map(
        sim
          .inspect()
          .filter((q) => q.book === 'circa' && q.market === 'point_spread')
          .map((q) => [q.bookEventId, q.lines[0] as number]),
      );
      for (const [id, gap] of gaps) {
        // A new sharp episode: a big gap now that was not there the round before.
        if (Math.abs(gap) < 0.15 || Math.abs(previous.get(id) ?? 0) >= 0.15) continue;
        const b = before.get(id);
        const a = after.get(id);
        if (b === undefined || a === undefined || a === b) continue;
        // Money on home (gap > 0) makes home dearer: its handicap goes down (-3 to -4).
        if (Math.sign(a - b) === -Math.sign(gap)) toward++;
        else against++;
      }
      previous = gaps;
    }
    // Seed 42 gives 15 new episodes with the line moved toward the money and none against (the
    // truth's own random walk could outrun a sharp move); bounds leave room for simulator tuning.
    expect(toward).toBeGreaterThanOrEqual(10);
    expect(against).toBeLessThanOrEqual(toward / 10);
  });
});
