import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { SimulatorFeed } from '../pipeline/feeds/simulator/index.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

type Row = Record<string, unknown>;

/**
 * Bets logged before kickoff on a simulated NFL game, through the whole system: pending before
 * the start, graded at kickoff against the captured close, settled at the final whistle. Every
 * value is recomputed here from what other endpoints and tables report (the close from
 * /odds/closing, the score from game_state), not from the ledger's own code.
 */
const T0 = Date.UTC(2025, 10, 9, 16, 0, 0);
const NFL = LEAGUES.filter((l) => l.id === 'nfl');
const BOOK = 'draftkings';

let sys: TestSystem;
let clock: ManualClock;
let feed: SimulatorFeed;
let eventId = '';
let key = '';
const logged: Row[] = [];
const graded: Row[] = [];
let closing: Row[] = [];

const exactDecimal = (american: number): number => (american > 0 ? 1 + american / 100 : 1 + 100 / -american);
/** The 4-place decimal price the API shows. */
const decimalOf = (american: number): number => Math.round(exactDecimal(american) * 1e4) / 1e4;

async function bets(): Promise<Row[]> {
  const r = await sys.get(`/api/v1/bets?event_id=${eventId}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body['data'] as Row[];
}

async function statusOf(id: string): Promise<string | null> {
  const r = await sys.get(`/api/v1/events/${id}`, sys.demoKeys.enterprise);
  return r.status === 200 ? ((r.body['data'] as Row)['status'] as string) : null;
}

beforeAll(async () => {
  clock = new ManualClock(T0);
  sys = await startTestSystem(
    { SINK_MAX_WAIT_MS: '0' },
    {
      clock,
      feed: (c) => {
        feed = new SimulatorFeed({
          seed: 11,
          clock: c,
          catalog: { teams: TEAMS, leagues: NFL },
          eventsPerLeague: 1,
          horizonMs: 3_600_000,
          liveShare: 0,
          postponedShare: 0,
          ticksPerSecond: 400,
          intervalMs: 5,
          futuresIntervalMs: 0,
        });
        return feed;
      },
    },
  );
  key = sys.demoKeys.pro;
  expect(await sys.drained(30_000)).toBe(true);
  const events = (await sys.get('/api/v1/events?limit=50', sys.demoKeys.enterprise)).body['data'] as Row[];
  const first = events.sort((a, b) => Date.parse(a['start_time'] as string) - Date.parse(b['start_time'] as string))[0] as Row;
  eventId = first['id'] as string;
  const kickoff = Date.parse(first['start_time'] as string);
  clock.set(kickoff - 20 * 60_000);
  await sys.drained(30_000);

  // Three bets at the book's current prices: moneyline home, spread home, total over. The
  // simulator keeps moving lines, so a row read a moment ago may be gone: read again and retry.
  const wanted: [string, string, number][] = [
    ['moneyline', 'home', 100],
    ['point_spread', 'home', 50],
    ['total_points', 'over', 20],
  ];
  for (const [market, selection, stake] of wanted) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const rows = (await sys.get(`/api/v1/odds?event=${eventId}&sportsbook=${BOOK}&market=${market}&limit=200`, key)).body[
        'data'
      ] as Row[];
      const row = rows.find((r) => r['selection_type'] === selection && r['is_main_line'] !== false);
      const r = await sys.post('/api/v1/bets', { odds_row_id: row?.['id'], stake }, key);
      if (r.status !== 201) continue;
      logged.push(r.body['data'] as Row);
      break;
    }
  }

  // Play to kickoff and a little past: the close is captured.
  for (let step = 0; step < 15 && (await statusOf(eventId)) === 'upcoming'; step++) {
    clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 8));
    await sys.drained(20_000);
  }
  await sys.drained(20_000);
  closing = Object.values(
    (((await sys.get(`/api/v1/odds/closing?event_id=${eventId}`, key)).body['data'] as Row)['books'] as Record<string, Row[]>) ?? {},
  ).flat();
  graded.push(...(await bets()));

  // Play to the final whistle (bounded: 6 hours of game time).
  for (let step = 0; step < 180; step++) {
    clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 8));
    if (step % 5 !== 4) continue;
    await sys.drained(20_000);
    const status = await statusOf(eventId);
    if (status === 'final' || status === null) break;
  }
  await feed.stop();
  await sys.drained(30_000);
}, 300_000);

afterAll(async () => {
  await sys.close();
});

describe('a bet logged before kickoff on the simulator', () => {
  it('was logged pending at the price on the board', () => {
    expect(logged.length).toBe(3);
    for (const b of logged) {
      expect(b['status']).toBe('pending');
      expect(b['odds_decimal']).toBe(decimalOf(b['odds_american'] as number));
    }
  });

  it('is graded at kickoff against the close /odds/closing reports', () => {
    expect(closing.length).toBeGreaterThan(0);
    expect(graded.length).toBe(3);
    let compared = 0;
    for (const b of graded) {
      expect([b['market'], b['status']]).toEqual([b['market'], 'graded']);
      const close = closing.find(
        (c) =>
          c['sportsbook'] === BOOK &&
          c['market_type'] === b['market'] &&
          c['selection_type'] === b['selection'] &&
          (c['line'] ?? null) === b['line'],
      );
      const clv = b['clv'] as Row;
      const d = b['odds_decimal'] as number;
      if (!close) {
        expect(clv['closing_odds_american']).toBeNull();
        continue;
      }
      const dc = exactDecimal(close['odds_american'] as number);
      const fair = (close['fair_probability'] as Row)['power'] as number | null;
      expect(clv['closing_odds_american']).toBe(close['odds_american']);
      expect(clv['price_clv_percent'] as number).toBeCloseTo((d / dc - 1) * 100, 3);
      expect(clv['price_probability_edge'] as number).toBeCloseTo(1 / dc - 1 / d, 3);
      expect(clv['closing_fair_probability']).toBe(fair);
      compared++;
      if (fair !== null) {
        expect(clv['no_vig_clv_percent'] as number).toBeCloseTo((fair * d - 1) * 100, 3);
        expect(clv['no_vig_probability_edge'] as number).toBeCloseTo(fair - 1 / d, 5);
        expect(b['expected_profit'] as number).toBeCloseTo(((b['stake'] as number) * (fair * d - 1) * 100) / 100, 3);
      }
    }
    // The moneyline always closes at the bet's (absent) line: at least that one is compared.
    expect(compared).toBeGreaterThan(0);
  });

  it('is settled at the final whistle on the final score game_state recorded', async () => {
    const [final] = await sys.store.query<{ home: number; away: number; status: string }>(
      `SELECT argMax(home_score, updated_at) AS home, argMax(away_score, updated_at) AS away, argMax(status, updated_at) AS status
       FROM game_state WHERE event_id = {id:String}`,
      { id: eventId },
    );
    expect(final?.status).toBe('final');
    const margin = Number(final?.home) - Number(final?.away);
    const total = Number(final?.home) + Number(final?.away);
    const settled = await bets();
    expect(settled.length).toBe(3);
    for (const b of settled) {
      const line = (b['line'] as number | null) ?? 0;
      const x = b['market'] === 'total_points' ? total - line : margin + line;
      const expected = x > 0 ? 'win' : x < 0 ? 'loss' : 'push';
      const stake = b['stake'] as number;
      const profit = expected === 'win' ? stake * ((b['odds_decimal'] as number) - 1) : expected === 'loss' ? -stake : 0;
      expect([b['market'], b['status'], b['result']]).toEqual([b['market'], 'settled', expected]);
      expect(b['profit'] as number).toBeCloseTo(profit, 4);
    }
    const summary = (await sys.get(`/api/v1/bets/summary?event_id=${eventId}`, key)).body['data'] as { total: Row };
    const profit = settled.reduce((s, b) => s + (b['profit'] as number), 0);
    expect(summary.total['bets']).toBe(3);
    expect(summary.total['profit'] as number).toBeCloseTo(profit, 3);
    expect(summary.total['roi_percent'] as number).toBeCloseTo((profit / 170) * 100, 3);
  });
});
