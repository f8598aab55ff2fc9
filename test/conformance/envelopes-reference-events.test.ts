/**
 * SPEC "Resources > Envelopes", "Endpoints > Reference data" and "Endpoints > Events": the data
 * and paginated envelopes, the same pagination on every list (limit, offset, has_more,
 * next_offset, with its edges), reference resources and events with their 404s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
let key: string;
let nba = '';

beforeAll(async () => {
  c = await startConformance();
  key = c.keys.sharp;
  nba = ((await c.sys.get('/api/v1/events?league=nba', key)).body['data'] as Row[])[0]?.['id'] as string;
});
afterAll(async () => {
  await c.sys.close();
});

const LISTS = (): string[] => [
  '/api/v1/sports?include_empty=true',
  '/api/v1/leagues?include_empty=true',
  '/api/v1/sportsbooks?catalog=true',
  '/api/v1/markets',
  '/api/v1/teams',
  '/api/v1/events',
  `/api/v1/events/${nba}/odds`,
  '/api/v1/odds',
  '/api/v1/odds/best',
];

describe('envelopes and pagination', () => {
  it('answers every list in the paginated envelope, with the same pagination', async () => {
    for (const path of LISTS()) {
      const r = await c.sys.get(path, key);
      expect([path, r.status, r.body['success'], Array.isArray(r.body['data'])]).toEqual([path, 200, true, true]);
      const p = r.body['pagination'] as Row;
      // SPEC's four keys, plus the page `count` and the match `total` (additive, docs/api.md).
      expect([
        path,
        Object.keys(p)
          .filter((k) => k !== 'next_cursor')
          .sort(),
      ]).toEqual([path, ['count', 'has_more', 'limit', 'next_offset', 'offset', 'total']]);
    }
  });

  it('pages every list consistently: limit=1 walks every item once, offsets past the end are empty', async () => {
    for (const path of LISTS()) {
      const sep = path.includes('?') ? '&' : '?';
      const first = await c.sys.get(`${path}${sep}limit=1000`, key);
      expect([path, first.status]).toEqual([path, 200]);
      const all = first.body['data'] as Row[];
      const ids: unknown[] = [];
      let offset: number | null = 0;
      let guard = 0;
      while (offset !== null && guard++ < 2000) {
        const r = await c.sys.get(`${path}${sep}limit=${Math.max(1, Math.ceil(all.length / 3))}&offset=${offset}`, key);
        const p = r.body['pagination'] as Row;
        ids.push(...(r.body['data'] as Row[]).map((x) => x['id']));
        expect(p['has_more']).toBe(p['next_offset'] !== null);
        offset = p['next_offset'] as number | null;
      }
      expect([path, ids]).toEqual([path, all.map((x) => x['id'])]);
      const past = await c.sys.get(`${path}${sep}offset=100000`, key);
      expect([path, past.body['data'], past.body['pagination']]).toEqual([
        path,
        [],
        expect.objectContaining({ offset: 100000, has_more: false, next_offset: null }),
      ]);
    }
  });

  it('answers 400 naming limit or offset out of bounds on every list', async () => {
    for (const path of LISTS()) {
      const sep = path.includes('?') ? '&' : '?';
      for (const [q, field] of [
        ['limit=0', 'limit'],
        ['limit=-5', 'limit'],
        ['limit=abc', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=1.5', 'offset'],
        ['limit=100000', 'limit'],
      ]) {
        const r = await c.sys.get(`${path}${sep}${q}`, key);
        expect([path, q, r.status, (r.body['error'] as Row)['message']]).toEqual([path, q, 400, expect.stringContaining(`'${field}'`)]);
      }
    }
  });

  it('answers single resources in the data envelope', async () => {
    for (const path of [
      '/api/v1/sports/basketball',
      '/api/v1/sportsbooks/pinnacle',
      `/api/v1/events/${nba}`,
      `/api/v1/events/${nba}/markets`,
    ]) {
      const r = await c.sys.get(path, key);
      expect([path, r.status, r.body['success'], r.body['data'] !== undefined]).toEqual([path, 200, true, true]);
    }
  });
});

describe('reference data', () => {
  it('serves sports with numerical ids, leagues, counts and the listed meta', async () => {
    const r = await c.sys.get('/api/v1/sports', key);
    const data = r.body['data'] as Row[];
    expect(data.map((s) => [s['id'], s['event_count'], s['live_count']])).toEqual([
      ['basketball', 1, 0],
      ['football', 1, 0],
      ['soccer', 1, 1],
    ]);
    expect(data[0]).toMatchObject({ numerical_id: 1, name: 'Basketball', leagues: expect.arrayContaining(['nba', 'wnba']) });
    expect(r.body['meta']).toMatchObject({
      count: 3,
      total: 19,
      pagination: expect.any(Object),
      updated_at: expect.any(String),
      filters: { include_empty: false },
    });
    expect((await c.sys.get('/api/v1/sports/quidditch', key)).status).toBe(404);
  });

  it('serves leagues by sport and 404s an unknown sport filter', async () => {
    const data = (await c.sys.get('/api/v1/leagues?sport=soccer', key)).body['data'] as Row[];
    expect(data.map((l) => [l['id'], l['sport'], l['event_count'], l['live_count']])).toEqual([['epl', 'soccer', 1, 1]]);
    expect((await c.sys.get('/api/v1/leagues?sport=quidditch', key)).status).toBe(404);
  });

  it('filters sportsbooks by region and sharpness, and includes unlisted and inactive books on request', async () => {
    const sharp = (await c.sys.get('/api/v1/sportsbooks?sharp=true&include_inactive=true', key)).body['data'] as Row[];
    expect(sharp.map((b) => b['id'])).toEqual(['pinnacle', 'circa', 'bookmaker', 'lowvig']);
    const uk = (await c.sys.get('/api/v1/sportsbooks?region=UK&include_inactive=true&include_unlisted=true', key)).body['data'] as Row[];
    expect(uk.map((b) => b['id'])).toEqual(['betfair_ex_eu', 'bet365', 'williamhill', 'unibet']);
    const one = (await c.sys.get('/api/v1/sportsbooks/pinnacle', key)).body['data'] as Row;
    expect(one).toMatchObject({
      id: 'pinnacle',
      is_sharp: true,
      requires_tier: 'pro',
      status: 'active',
      event_count: 3,
      unlisted: false,
      last_update: expect.any(String),
    });
    expect((await c.sys.get('/api/v1/sportsbooks?region=MARS', key)).status).toBe(400);
  });

  it('serves markets with hasLine and the rate limit in meta', async () => {
    const r = await c.sys.get('/api/v1/markets?sport=basketball', key);
    const byId = new Map((r.body['data'] as Row[]).map((m) => [m['id'], m]));
    expect(byId.get('moneyline')).toMatchObject({ hasLine: false, event_count: 1, selection_count: 12 });
    expect(byId.get('player_prop')).toMatchObject({ hasLine: true, event_count: 1, selection_count: 2 });
    expect(r.body['meta']).toMatchObject({
      count: 9,
      rate_limit: { limit: 100000, remaining: expect.any(Number), reset: expect.any(Number) },
    });
  });

  it('searches teams by partial alias, case-insensitively', async () => {
    const r = await c.sys.get('/api/v1/teams?q=MAN%20UTD', key);
    expect((r.body['data'] as Row[]).map((t) => t['id'])).toEqual(['manchester-united']);
    expect(r.body['meta']).toMatchObject({ query: 'MAN UTD', sport_filter: null, league_filter: null });
  });
});

describe('events', () => {
  it('lists events with the shared filters and meta count and total', async () => {
    const r = await c.sys.get('/api/v1/events?live=true', key);
    expect((r.body['data'] as Row[]).map((e) => [e['league'], e['is_live'], e['home_team'], e['away_team']])).toEqual([
      ['epl', true, 'Arsenal', 'Chelsea'],
    ]);
    expect(r.body['meta']).toMatchObject({ count: 1, total: 1 });
    expect(((await c.sys.get('/api/v1/events?sportsbook=bovada', key)).body['data'] as Row[]).map((e) => e['league'])).toEqual(['nba']);
    expect(((await c.sys.get('/api/v1/events?team=celtics', key)).body['data'] as Row[]).length).toBe(1);
    expect(((await c.sys.get('/api/v1/events?has_score=true', key)).body['data'] as Row[]).length).toBe(0);
  });

  it('serves an event, its markets and its odds, and 404s unknown ids', async () => {
    expect((await c.sys.get(`/api/v1/events/${nba}`, key)).body['data']).toMatchObject({
      id: nba,
      book_count: 6,
      status: 'upcoming',
      external_ids: { pinnacle: 'p-100', draftkings: 'dk-100' },
    });
    expect((await c.sys.get(`/api/v1/events/${nba}/markets`, key)).body['data']).toEqual([
      'moneyline',
      'point_spread',
      'total_points',
      'player_prop',
    ]);
    const odds = await c.sys.get(`/api/v1/events/${nba}/odds?market=point_spread&sportsbook=draftkings`, key);
    expect((odds.body['data'] as Row[]).map((o) => [o['selection_type'], o['line']])).toEqual([
      ['home', -2.5],
      ['away', 2.5],
    ]);
    for (const path of ['/api/v1/events/nope', '/api/v1/events/nope/markets', '/api/v1/events/nope/odds']) {
      expect((await c.sys.get(path, key)).status).toBe(404);
    }
  });
});
