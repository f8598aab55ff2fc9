/**
 * GET /events/{id}/history: an event's price history from ClickHouse, oldest first, with the
 * market, selection, sportsbook and time filters, the tier rules of the odds endpoints (books,
 * the free tier's 60 s delay) and a 400 naming the parameter for every bad value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
let nba: string;
/** Data-clock times of the two price moves pushed after the fixture. */
const moved: number[] = [];

const lakersMl = (c0: Conformance, book: string, price: number): RawTick => {
  const t = c0.ticks.find((x) => x.book === book && x.market === 'moneyline' && x.outcome === 'Los Angeles Lakers');
  if (!t) throw new Error(`fixture has no ${book} Lakers moneyline`);
  return { ...t, priceAmerican: price };
};

async function history(query: string, key = c.keys.pro, id = nba): Promise<{ status: number; body: Row }> {
  const r = await c.sys.get(`/api/v1/events/${encodeURIComponent(id)}/history${query}`, key);
  return { status: r.status, body: r.body };
}

/** The ClickHouse sink writes in batches: wait (bounded) until the store holds `n` points. */
async function untilPoints(query: string, n: number): Promise<Row[]> {
  const end = Date.now() + 20_000;
  for (;;) {
    const r = await history(query);
    const data = (r.body['data'] ?? []) as Row[];
    if (data.length >= n || Date.now() > end) return data;
    await new Promise((res) => setTimeout(res, 100));
  }
}

beforeAll(async () => {
  c = await startConformance();
  const events = await c.sys.get('/api/v1/events?league=nba', c.keys.pro);
  nba = ((events.body['data'] as Row[])[0] as Row)['id'] as string;
  await c.push([lakersMl(c, 'draftkings', -135)]);
  moved.push(c.clock.now());
  c.advance(5_000);
  await c.push([lakersMl(c, 'draftkings', -145)]);
  moved.push(c.clock.now());
  c.advance(1_000);
  await untilPoints('?sportsbook=draftkings&market=moneyline&selection=home', 3);
}, 60_000);
afterAll(async () => {
  await c?.sys.close();
});

describe('GET /events/{id}/history', () => {
  it('gives every price of a selection at a book, oldest first, in American, decimal and probability', async () => {
    const r = await history('?sportsbook=draftkings&market=moneyline&selection=home');
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row[];
    expect(data.map((p) => p['odds_american'])).toEqual([-125, -135, -145]);
    expect(data.map((p) => Date.parse(p['timestamp'] as string)).slice(1)).toEqual(moved);
    expect(data[2]).toMatchObject({
      sportsbook: 'draftkings',
      market: 'moneyline',
      selection: 'home',
      line: null,
      status: 'open',
      is_live: false,
      odds_decimal: 1.6897,
      probability: 0.591837,
    });
    expect(r.body['meta']).toMatchObject({ event_id: nba, count: 3, truncated: false, sportsbooks: ['draftkings'], data_delay_seconds: 0 });
  });

  it('orders the whole event by time, then book, market, participant, line and selection', async () => {
    const data = (await history('')).body['data'] as Row[];
    // Every NBA price of the fixture at pro's default books (all but bovada): 20 first prices and the 2 moves.
    expect(data).toHaveLength(22);
    const key = (p: Row): string =>
      [p['timestamp'], p['sportsbook'], p['market'], p['participant'] ?? '', String(p['line'] ?? 0).padStart(8, '0'), p['selection']].join(
        '|',
      );
    const keys = data.map(key);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(data.map((p) => p['sportsbook']))).toEqual(new Set(['pinnacle', 'draftkings', 'fanduel', 'betmgm', 'espnbet']));
  });

  it('filters by market and selection lists', async () => {
    const data = (await history('?market=total_points,player_prop&selection=over')).body['data'] as Row[];
    expect(data.map((p) => [p['sportsbook'], p['market'], p['line'], p['odds_american']])).toEqual([
      ['draftkings', 'player_prop', 25.5, -115],
      ['fanduel', 'total_points', 228.5, -110],
      ['pinnacle', 'total_points', 228.5, -104],
    ]);
  });

  it('bounds the window by from and to (inclusive; RFC 3339 or Unix seconds) and says when limit cut it', async () => {
    const q = '?sportsbook=draftkings&market=moneyline&selection=home';
    const from = new Date(moved[0] as number).toISOString();
    const only = (await history(`${q}&from=${from}&to=${(moved[0] as number) / 1000}`)).body;
    expect((only['data'] as Row[]).map((p) => p['odds_american'])).toEqual([-135]);
    const cut = (await history(`${q}&limit=2`)).body;
    expect((cut['data'] as Row[]).map((p) => p['odds_american'])).toEqual([-125, -135]);
    expect(cut['meta']).toMatchObject({ count: 2, truncated: true });
  });

  it('serves the free tier its two books, 60 s late', async () => {
    const r = await history('?market=moneyline&selection=home', c.keys.free);
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row[];
    // The moves are less than 60 s old on the data clock: free sees only the first prices.
    expect(data.map((p) => [p['sportsbook'], p['odds_american']])).toEqual([
      ['draftkings', -125],
      ['fanduel', -118],
    ]);
    expect(r.body['meta']).toMatchObject({ data_delay_seconds: 60, sportsbooks: ['draftkings', 'fanduel'] });
    expect(Date.parse((r.body['meta'] as Row)['to'] as string)).toBe(c.clock.now() - 60_000);
  });

  it('refuses a book above the tier with 403 naming the tier that has it', async () => {
    const r = await history('?sportsbook=pinnacle', c.keys.free);
    expect(r.status).toBe(403);
    expect(r.body['error']).toMatchObject({ code: 'feature_required', required_tier: 'pro' });
  });

  it.each([
    ['?market=moneyline,nope', 'market', "unknown market 'nope'"],
    ['?selection=left', 'selection', "'left' is not one of"],
    ['?sportsbook=nobook', 'sportsbook', "unknown sportsbook 'nobook'"],
    ['?from=yesterday', 'from', 'RFC 3339'],
    ['?to=2026-13-01T00:00:00Z', 'to', 'RFC 3339'],
    ['?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from', "must not be after 'to'"],
    ['?from=2026-01-01T00:00:00Z&to=2026-01-09T00:00:00Z', 'from', 'at most 7 days'],
    ['?limit=0', 'limit', '>= 1'],
    ['?limit=10001', 'limit', '<= 10000'],
  ])('answers %s with 400 naming %s', async (query, field, words) => {
    const r = await history(query);
    expect(r.status).toBe(400);
    const error = r.body['error'] as Row;
    expect(error['code']).toBe('invalid_request');
    expect(error['message']).toContain(`'${field}'`);
    expect(error['message']).toContain(words);
  });

  it('answers an event nobody listed with 404, and needs a key', async () => {
    expect((await history('', c.keys.pro, 'nba-nobody-vs-nobody')).status).toBe(404);
    expect((await c.sys.get(`/api/v1/events/${nba}/history`)).status).toBe(401);
  });

  it('is in the OpenAPI document with its parameters and point schema', async () => {
    const doc = (await c.sys.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, Row>> };
    const op = doc.paths['/api/v1/events/{eventId}/history']?.['get'] as Row;
    expect((op['parameters'] as Row[]).map((p) => p['name']).sort()).toEqual([
      'eventId',
      'from',
      'limit',
      'market',
      'selection',
      'sportsbook',
      'to',
    ]);
    expect(JSON.stringify(op['responses'])).toContain('odds_american');
  });
});
