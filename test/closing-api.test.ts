import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

/** Tiers, validation and empty answers of the closing-line, CLV and game-state routes (no games played here). */
type Row = Record<string, unknown>;
let c: Conformance;
beforeAll(async () => {
  c = await startConformance();
});
afterAll(async () => {
  await c.sys.close();
});

const code = (body: Row): unknown => (body['error'] as Row)['code'];

describe('closing lines, CLV and game state over HTTP', () => {
  it('lists every new route in the OpenAPI document', async () => {
    const paths = Object.keys(((await c.sys.get('/api/v1/openapi.json')).body['paths'] ?? {}) as Row);
    for (const p of [
      '/api/v1/gamestate',
      '/api/v1/gamestate/{sport}',
      '/api/v1/odds/closing',
      '/api/v1/historical/odds/closing',
      '/api/v1/historical/clv',
      '/api/v1/opportunities/ev/history',
    ])
      expect(paths).toContain(p);
  });

  it('gates each route by tier with 403 feature_required naming the tier', async () => {
    const cases: [string, 'free' | 'hobby' | 'pro', string][] = [
      ['/api/v1/odds/closing?event_id=x', 'hobby', 'pro tier'],
      ['/api/v1/historical/odds/closing?date=2026-11-20&sport=football&league=nfl', 'pro', 'sharp tier'],
      ['/api/v1/historical/clv', 'pro', 'sharp tier'],
      ['/api/v1/opportunities/ev/history', 'hobby', 'pro tier'],
      ['/api/v1/gamestate/hockey', 'pro', 'enterprise tier'],
    ];
    for (const [path, tier, needs] of cases) {
      const r = await c.sys.get(path, c.keys[tier]);
      expect([path, r.status, code(r.body)]).toEqual([path, 403, 'feature_required']);
      expect((r.body['error'] as Row)['message']).toContain(needs);
    }
  });

  it('names the bad parameter in a 400', async () => {
    const cases: [string, string][] = [
      ['/api/v1/odds/closing', 'event_id'],
      ['/api/v1/odds/closing?event_id=a%20b', 'event_id'],
      ['/api/v1/odds/closing?event_id=x&sportsbook=nope', 'sportsbook'],
      ['/api/v1/historical/odds/closing?sport=football&league=nfl', 'date'],
      ['/api/v1/historical/odds/closing?date=2026-02-30&sport=football&league=nfl', 'date'],
      ['/api/v1/historical/clv?group_by=team', 'group_by'],
      ['/api/v1/historical/clv?from=yesterday', 'from'],
      ['/api/v1/historical/clv?from=2026-11-20&to=2026-11-10', 'from'],
      ['/api/v1/opportunities/ev/history?limit=0', 'limit'],
    ];
    for (const [path, field] of cases) {
      const r = await c.sys.get(path, c.keys.enterprise);
      expect([path, r.status, code(r.body)]).toEqual([path, 400, 'invalid_request']);
      expect((r.body['error'] as Row)['message']).toContain(field);
    }
  });

  it('refuses closing history beyond 30 days back, and answers empty within it', async () => {
    const old = await c.sys.get('/api/v1/historical/odds/closing?date=2020-01-01&sport=football&league=nfl', c.keys.enterprise);
    expect([old.status, code(old.body)]).toEqual([403, 'feature_required']);
    const today = new Date(c.sys.clock.now()).toISOString().slice(0, 10);
    const r = await c.sys.get(`/api/v1/historical/odds/closing?date=${today}&sport=football&league=nfl`, c.keys.sharp);
    expect(r.status).toBe(200);
    expect(r.body['data']).toEqual({ date: today, sport: 'football', league: 'nfl', events: [], total_events: 0, total_lines: 0 });
    expect((r.body['meta'] as Row)['tier_window_days']).toBe(30);
  });

  it('answers an event not started yet with empty books, and CLV and history with empty lists', async () => {
    const eventId = ((await c.sys.get('/api/v1/events', c.keys.pro)).body['data'] as Row[])[0]?.['id'] as string;
    const closing = await c.sys.get(`/api/v1/odds/closing?event=${eventId}`, c.keys.pro);
    expect(closing.status).toBe(200);
    expect(closing.headers.get('cache-control')).toBe('public, s-maxage=30, max-age=10');
    expect(closing.body['data']).toMatchObject({ event_id: eventId, books: {}, captured_at: null });
    const clv = await c.sys.get('/api/v1/historical/clv?group_by=devig_book', c.keys.enterprise);
    expect((clv.body['data'] as Row)['groups']).toEqual([]);
    expect((clv.body['meta'] as Row)['tier_window_days']).toBe('unlimited');
    expect((await c.sys.get('/api/v1/historical/clv', c.keys.sharp)).body['meta']).toMatchObject({ tier_window_days: 365 });
    // The fixture's +EV opportunities are history too, none graded: no event has started.
    const history = await c.sys.get('/api/v1/opportunities/ev/history?limit=500', c.keys.pro);
    const rows = history.body['data'] as Row[];
    const live = ((await c.sys.get('/api/v1/opportunities/ev?limit=200', c.keys.enterprise)).body['data'] as Row[]).map((o) => o['id']);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r['clv'] === null && r['expire_reason'] === null)).toBe(true);
    expect(rows.map((r) => r['id']).sort()).toEqual([...live].sort());
    expect((await c.sys.get('/api/v1/opportunities/ev/history?graded=true', c.keys.pro)).body['data']).toEqual([]);
    expect((await c.sys.get('/api/v1/gamestate/Curling', c.keys.enterprise)).body['data']).toEqual({});
  });
});
