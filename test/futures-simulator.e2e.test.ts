import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES, SPORTSBOOKS, TEAMS } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { SimulatorFeed } from '../pipeline/feeds/simulator/index.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

/**
 * Futures end to end on the market simulator: boards from the feed through the normalizer, the
 * futures processor and the sinks to the API and ClickHouse. NBA and NFL only, to stay small.
 */
type Row = Record<string, unknown>;
let sys: TestSystem;
const leagues = LEAGUES.filter((l) => l.id === 'nba' || l.id === 'nfl');

beforeAll(async () => {
  // A November data clock, whatever the date of the run: both leagues are in season then.
  sys = await startTestSystem(
    { SINK_MAX_WAIT_MS: '0' },
    {
      clock: new ManualClock(Date.UTC(2026, 10, 22, 12)),
      feed: (clock) =>
        new SimulatorFeed({
          seed: 9,
          clock,
          catalog: { leagues, teams: TEAMS },
          eventsPerLeague: 2,
          ticksPerSecond: 500,
          intervalMs: 50,
          splitsIntervalMs: 0,
          futuresIntervalMs: 2_000,
        }),
    },
  );
});
afterAll(async () => {
  await sys.close();
});

describe('futures from the simulator', () => {
  it('serves every market at every book, the fair line and +EV, and stores them in ClickHouse', async () => {
    // Liveness only: the first round goes out right after the board (the data clock stands still).
    // One league's boards can be in before the other's (a loaded machine showed NBA's 62 alone),
    // so wait for every market, each at every book.
    const expected = 2 + 2 * 30 + 2 + 2 * 32;
    const started = Date.now();
    let markets: Row[] = [];
    while (Date.now() - started < 60_000) {
      markets = (await sys.get('/api/v1/futures?limit=500')).body['data'] as Row[];
      if (markets.length >= expected && markets.every((m) => (m['books_available'] as string[]).length === SPORTSBOOKS.length)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Both changelogs read (boards and the markets derived from them) before comparing them.
    expect(await sys.drained(30_000)).toBe(true);
    // NBA: title, MVP, and per team season wins and playoffs (30 teams); NFL the same (32).
    expect(markets).toHaveLength(expected);
    const nba = markets.find((m) => m['market_id'] === 'nba-2026-27-championship') as Row;
    expect(nba).toMatchObject({ future_type: 'TEAM', selection_count: 30, season: '2026-27' });

    const odds = await sys.get(`/api/v1/futures/odds?future_id=${String(nba['market_id'])}&limit=500`, sys.demoKeys.sharp);
    expect((odds.body['meta'] as Row)['total']).toBe(30 * SPORTSBOOKS.length);
    const rest = await sys.get(`/api/v1/futures/odds?future_id=${String(nba['market_id'])}&limit=500&offset=500`, sys.demoKeys.sharp);
    const rows = [...(odds.body['data'] as Row[]), ...(rest.body['data'] as Row[])];
    expect(rows).toHaveLength(30 * SPORTSBOOKS.length);
    expect(rows.every((r) => typeof r['fair_probability'] === 'number')).toBe(true);
    const fairSum = new Map<string, number>();
    for (const r of rows) fairSum.set(String(r['selection_id']), r['fair_probability'] as number);
    expect([...fairSum.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);

    const ev = await sys.get('/api/v1/futures/ev?limit=200', sys.demoKeys.sharp);
    const opportunities = ev.body['data'] as Row[];
    expect(opportunities.length).toBeGreaterThan(0);
    for (const o of opportunities.slice(0, 20)) {
      expect(Object.values(o['devig_methods'] as Record<string, Row>).some((m) => (m['ev_percent'] as number) > 0)).toBe(true);
      expect(o['sharp_books']).not.toContain(o['sportsbook']);
    }

    const expectedLatest = markets.reduce((n, m) => n + (m['selection_count'] as number) * (m['books_available'] as string[]).length, 0);
    const [latest] = await sys.store.query<{ n: string }>('SELECT count() AS n FROM futures_odds_latest FINAL WHERE removed = 0');
    expect(Number(latest?.n)).toBe(expectedLatest);
    const [ticks] = await sys.store.query<{ n: string }>('SELECT count() AS n FROM futures_odds_ticks');
    expect(Number(ticks?.n)).toBeGreaterThanOrEqual(expectedLatest);
    const [evRows] = await sys.store.query<{ n: string }>('SELECT count() AS n FROM futures_ev FINAL');
    expect(Number(evRows?.n)).toBeGreaterThan(0);
  }, 120_000);
});
