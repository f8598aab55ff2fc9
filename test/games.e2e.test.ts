import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { SimulatorFeed } from '../pipeline/feeds/simulator/index.js';
import { settle } from '../pipeline/closing/index.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

type Row = Record<string, unknown>;

/**
 * A few NFL games played start to final on the simulator, on a manual clock run 2 minutes per step
 * (a 3.3 h game takes about a hundred steps), through the whole system: statuses, game-state
 * frames, odds reacting to scores, suspension at the end, opportunities closed with the event,
 * closes captured and +EV opportunities graded against them and settled on the final score.
 */
const T0 = Date.UTC(2025, 10, 9, 16, 0, 0);
const NFL = LEAGUES.filter((l) => l.id === 'nfl');

let sys: TestSystem;
let clock: ManualClock;
let feed: SimulatorFeed;
/** Per event id, the statuses /events and /events/{id} showed, in order, without repeats. */
const statuses = new Map<string, string[]>();
const gameFrames = new Map<string, Row[]>();
let tracked: string[] = [];

function note(id: string, status: string): void {
  const seen = statuses.get(id) ?? [];
  if (seen[seen.length - 1] !== status) seen.push(status);
  statuses.set(id, seen);
}

beforeAll(async () => {
  clock = new ManualClock(T0);
  sys = await startTestSystem(
    { SINK_MAX_WAIT_MS: '0' },
    {
      clock,
      feed: (c) => {
        feed = new SimulatorFeed({
          seed: 7,
          clock: c,
          catalog: { teams: TEAMS, leagues: NFL },
          eventsPerLeague: 3,
          horizonMs: 3_600_000,
          liveShare: 0,
          postponedShare: 0,
          ticksPerSecond: 400,
          intervalMs: 5,
          // Futures off: this suite plays games; futures have their own (test/futures-simulator.e2e.test.ts).
          futuresIntervalMs: 0,
        });
        return feed;
      },
    },
  );
  expect(await sys.drained(30_000)).toBe(true);
  const first = (await sys.get('/api/v1/events?limit=50', sys.demoKeys.enterprise)).body['data'] as Row[];
  tracked = first.map((e) => e['id'] as string);
  for (const e of first) note(e['id'] as string, e['status'] as string);
  // The opening board is listed a day ahead: go to 20 minutes before the first kickoff at once.
  const kickoff = Math.min(...first.map((e) => Date.parse(e['start_time'] as string)));
  clock.set(kickoff - 20 * 60_000);
  await sys.drained(30_000);

  // Play until every game listed at the start has ended (bounded: 9 hours of game time).
  for (let step = 0; step < 270; step++) {
    clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 8));
    if (step % 5 !== 4) continue;
    await sys.drained(20_000);
    for (const id of tracked) {
      const r = await sys.get(`/api/v1/events/${id}`, sys.demoKeys.enterprise);
      if (r.status === 200) note(id, (r.body['data'] as Row)['status'] as string);
    }
    const gs = await sys.get('/api/v1/gamestate/football', sys.demoKeys.enterprise);
    const games = (gs.body['data'] as Record<string, Record<string, Row>>)['football'] ?? {};
    for (const [id, g] of Object.entries(games)) gameFrames.set(id, [...(gameFrames.get(id) ?? []), g]);
    if (tracked.every((id) => statuses.get(id)?.at(-1) === 'final')) break;
  }
  await feed.stop();
  await sys.drained(30_000);
}, 240_000);

afterAll(async () => {
  await sys.close();
});

describe('games played start to final on the simulator', () => {
  it('moves every game upcoming -> live -> final', () => {
    expect(tracked.length).toBeGreaterThanOrEqual(3);
    for (const id of tracked) expect([id, statuses.get(id)]).toEqual([id, ['upcoming', 'live', 'final']]);
  });

  it('serves game-state frames (Enterprise) with scores, quarters and a clock while live, and keeps the history in ClickHouse', async () => {
    for (const id of tracked) {
      const frames = gameFrames.get(id) ?? [];
      expect(frames.length, id).toBeGreaterThan(3);
      for (const f of frames) {
        expect(f['is_live']).toBe(true);
        expect(f['game_period']).toMatch(/^Q[1-4]$/);
        expect(f['game_clock']).toMatch(/^\d\d:\d\d$/);
        expect(['home', 'away']).toContain(f['possession']);
      }
    }
    const history = await sys.store.query<{ event_id: string; status: string; home_score: number; away_score: number; period: string }>(
      'SELECT event_id, status, home_score, away_score, period FROM game_state ORDER BY event_id, updated_at',
    );
    for (const id of tracked) {
      const rows = history.filter((r) => r.event_id === id);
      expect(rows[0]?.status).toBe('live');
      const last = rows[rows.length - 1];
      expect(last?.status).toBe('final');
      expect(last?.period).toBe('FT');
      // Scores only go up, and an NFL game is not a draw here (overtime settles it).
      for (let i = 1; i < rows.length; i++) expect(Number(rows[i]?.home_score)).toBeGreaterThanOrEqual(Number(rows[i - 1]?.home_score));
      expect(Number(last?.home_score)).not.toBe(Number(last?.away_score));
    }
    // Finished games leave the live list.
    const gs = await sys.get('/api/v1/gamestate', sys.demoKeys.enterprise);
    for (const id of tracked) expect(JSON.stringify(gs.body['data'])).not.toContain(id);
  });

  it('refuses game state below Enterprise with 403 feature_required naming the tier', async () => {
    for (const tier of ['free', 'hobby', 'pro', 'sharp'] as const) {
      const r = await sys.get('/api/v1/gamestate', sys.demoKeys[tier]);
      expect(r.status).toBe(403);
      expect((r.body['error'] as Row)['code']).toBe('feature_required');
      expect((r.body['error'] as Row)['message']).toContain('enterprise');
    }
  });

  it('moves the sharp moneyline after a score', async () => {
    // For each score, the reference book's home price before and after: it moves toward the scorer.
    const scores = await sys.store.query<{ event_id: string; t: string; diff: number }>(
      `SELECT event_id, toString(updated_at) AS t, (home_score - away_score) - lagInFrame(home_score - away_score, 1, 0) OVER (PARTITION BY event_id ORDER BY updated_at ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS diff
       FROM game_state WHERE status = 'live' ORDER BY event_id, updated_at`,
    );
    const moves: number[] = [];
    for (const s of scores.filter((x) => Number(x.diff) !== 0).slice(0, 40)) {
      const prices = await sys.store.query<{ before: number | null; after: number | null }>(
        `SELECT argMaxIf(odds_decimal, tick_time, tick_time < toDateTime64({t:String}, 3, 'UTC')) AS before,
                argMinIf(odds_decimal, tick_time, tick_time >= toDateTime64({t:String}, 3, 'UTC') AND tick_time < toDateTime64({t:String}, 3, 'UTC') + INTERVAL 5 MINUTE) AS after
         FROM odds_ticks WHERE event_id = {e:String} AND sportsbook = 'pinnacle' AND market = 'moneyline' AND selection = 'home' AND status = 'open'`,
        { t: s.t, e: s.event_id },
      );
      const p = prices[0];
      if (!p || !p.before || !p.after) continue;
      // Home scored: the home price shortens (decimal falls); away scored: it drifts.
      moves.push(Math.sign(Number(s.diff)) * (Number(p.before) - Number(p.after)));
    }
    expect(moves.length).toBeGreaterThan(3);
    expect(moves.filter((m) => m > 0).length / moves.length).toBeGreaterThan(0.7);
  });

  it("suspends every price at the end and closes the event's opportunities", async () => {
    for (const id of tracked) {
      const odds = await sys.get(`/api/v1/odds?event=${id}`, sys.demoKeys.enterprise);
      expect(odds.body['data']).toEqual([]);
      const open = await sys.store.query<{ n: number }>('SELECT count() AS n FROM odds_latest FINAL WHERE event_id = {e:String}', {
        e: id,
      });
      expect(Number(open[0]?.n)).toBe(0);
    }
    const opp = await sys.store.query<{ event_id: string; active: number; closed: number }>(
      `SELECT event_id, countIf(expired_at IS NULL) AS active, countIf(expire_reason = 'event_closed') AS closed
       FROM opportunities FINAL WHERE event_id IN {ids:Array(String)} GROUP BY event_id`,
      { ids: tracked },
    );
    expect(opp.length).toBeGreaterThan(0);
    for (const r of opp) expect([r.event_id, Number(r.active)]).toEqual([r.event_id, 0]);
    expect(opp.reduce((s, r) => s + Number(r.closed), 0)).toBeGreaterThan(0);
  });

  it('captures closes at kickoff and grades pre-match +EV against them, settled on the final score', async () => {
    const closes = await sys.store.query<{ event_id: string; books: number; lines: number; with_ref: number }>(
      `SELECT event_id, uniqExact(sportsbook) AS books, count() AS lines, countIf(no_vig_power IS NOT NULL) AS with_ref
       FROM closing_odds FINAL WHERE event_id IN {ids:Array(String)} GROUP BY event_id ORDER BY event_id`,
      { ids: tracked },
    );
    expect(closes.map((c) => c.event_id).sort()).toEqual([...tracked].sort());
    for (const c of closes) {
      expect(Number(c.books)).toBeGreaterThan(5);
      expect(Number(c.with_ref)).toBeGreaterThan(0);
    }
    const grades = await sys.store.query<{
      market: string;
      selection: string;
      line: number | null;
      odds_decimal: number;
      closing_no_vig_probability: number | null;
      clv_percent: number | null;
      result: string | null;
      event_id: string;
    }>(
      'SELECT event_id, market, selection, line, odds_decimal, closing_no_vig_probability, clv_percent, result FROM clv_grades FINAL WHERE event_id IN {ids:Array(String)}',
      { ids: tracked },
    );
    expect(grades.length).toBeGreaterThan(0);
    const finals = await sys.store.query<{ event_id: string; home_score: number; away_score: number }>(
      "SELECT event_id, home_score, away_score FROM game_state WHERE status = 'final'",
    );
    const finalOf = new Map(finals.map((f) => [f.event_id, { home: Number(f.home_score), away: Number(f.away_score) }]));
    let settled = 0;
    for (const g of grades) {
      if (g.closing_no_vig_probability !== null) {
        expect(Number(g.clv_percent)).toBeCloseTo((Number(g.closing_no_vig_probability) * Number(g.odds_decimal) - 1) * 100, 1);
      }
      const final = finalOf.get(g.event_id);
      const expected = final
        ? settle({ market: g.market, selection: g.selection as never, line: g.line === null ? null : Number(g.line) }, final)
        : null;
      expect(g.result).toBe(expected);
      if (expected !== null) settled++;
    }
    expect(settled).toBeGreaterThan(0);
    const clv = await sys.get('/api/v1/historical/clv?group_by=sportsbook&from=2025-11-01&to=2025-11-30', sys.demoKeys.enterprise);
    expect(clv.status, JSON.stringify(clv.body)).toBe(200);
    const groups = (clv.body['data'] as Row)['groups'] as Row[];
    expect(groups.reduce((s, g) => s + (g['total_predictions'] as number), 0)).toBe(grades.length);
    expect(groups.reduce((s, g) => s + (g['total_graded'] as number), 0)).toBe(settled);
    const closing = await sys.get(`/api/v1/odds/closing?event_id=${tracked[0] ?? ''}`, sys.demoKeys.pro);
    expect(closing.status).toBe(200);
    expect(Object.keys((closing.body['data'] as Row)['books'] as Row).length).toBeGreaterThan(0);
  });
});
