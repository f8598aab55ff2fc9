import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

const T0 = Date.now() + 24 * 60 * 60 * 1000;

function raw(over: Partial<RawTick>): RawTick {
  return {
    book: 'pinnacle',
    bookEventId: 'p-100',
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: T0,
    isLive: false,
    market: 'moneyline',
    outcome: 'Los Angeles Lakers',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: -120,
    status: 'open',
    ts: Date.now(),
    selectionId: null,
    ...over,
  };
}

const board: RawTick[] = [
  raw({}),
  raw({ outcome: 'Boston Celtics', priceAmerican: 110 }),
  raw({
    book: 'draftkings',
    bookEventId: '9001',
    homeTeam: 'LA Lakers',
    awayTeam: 'Celtics',
    outcome: 'LA Lakers',
    priceAmerican: -125,
    selectionId: 'dk-sel-1',
  }),
  raw({ book: 'draftkings', bookEventId: '9001', homeTeam: 'LA Lakers', awayTeam: 'Celtics', outcome: 'Celtics', priceAmerican: 105 }),
  raw({
    book: 'draftkings',
    bookEventId: '9001',
    homeTeam: 'LA Lakers',
    awayTeam: 'Celtics',
    market: 'point_spread',
    outcome: 'LA Lakers',
    line: -2.5,
    priceAmerican: -110,
  }),
  raw({
    book: 'draftkings',
    bookEventId: '9001',
    homeTeam: 'LA Lakers',
    awayTeam: 'Celtics',
    market: 'point_spread',
    outcome: 'Celtics',
    line: 2.5,
    priceAmerican: -110,
  }),
  raw({
    book: 'fanduel',
    bookEventId: '34.77',
    sport: 'football',
    league: 'nfl',
    homeTeam: 'Kansas City Chiefs',
    awayTeam: 'Buffalo Bills',
    outcome: 'Kansas City Chiefs',
    priceAmerican: -150,
    startTime: T0 + 3600_000,
  }),
  raw({
    book: 'fanduel',
    bookEventId: '34.77',
    sport: 'football',
    league: 'nfl',
    homeTeam: 'Kansas City Chiefs',
    awayTeam: 'Buffalo Bills',
    outcome: 'Buffalo Bills',
    priceAmerican: 130,
    startTime: T0 + 3600_000,
  }),
];

let sys: TestSystem;
let feed: ScriptedFeed;
let pro: string;

beforeAll(async () => {
  feed = new ScriptedFeed(board);
  sys = await startTestSystem({ METRICS_PORT: '0' }, { feed: () => feed });
  pro = sys.demoKeys.pro;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
});

describe('authentication', () => {
  it('answers 401 unauthorized in the error envelope without a key', async () => {
    const r = await sys.get('/api/v1/sports');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      error: { code: 'unauthorized', message: expect.stringContaining('API key is required'), docs: '/api/v1/docs/errors#unauthorized' },
    });
  });

  it('answers 401 for a wrong key', async () => {
    const r = await sys.get('/api/v1/sports', 'not-a-key');
    expect(r.status).toBe(401);
    expect((r.body['error'] as Record<string, unknown>)['message']).toBe('The API key is not valid');
  });

  it('accepts the key as X-API-Key, as a bearer token and as the api_key query parameter', async () => {
    expect((await sys.get('/api/v1/sports', pro)).status).toBe(200);
    expect((await sys.get('/api/v1/sports', undefined, { authorization: `Bearer ${pro}` })).status).toBe(200);
    expect((await sys.get(`/api/v1/sports?api_key=${encodeURIComponent(pro)}`)).status).toBe(200);
  });

  it('sends the rate-limit, data-delay and request-id headers on authenticated responses', async () => {
    const r = await sys.get('/api/v1/leagues', sys.demoKeys.free);
    expect(r.headers.get('x-ratelimit-limit')).toBe('12');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(12);
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(r.headers.get('x-data-delay')).toBe('60');
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('needs no key for health, and reports the four checks', async () => {
    const r = await sys.get('/api/v1/health');
    expect(r.status).toBe(200);
    expect(r.body['status']).toBe('ok');
    const checks = r.body['checks'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(checks).sort()).toEqual(['data', 'redis', 'runtime', 'schema']);
    expect(checks['runtime']).toEqual({ status: 'ok', message: 'every stage running' });
    expect(checks['redis']).toEqual({
      status: 'ok',
      message: 'not configured: REDIS_URL not set, rate-limit counters are kept in process',
    });
    expect(checks['schema']?.['status']).toBe('ok');
    expect(checks['data']?.['message']).toMatch(/^8 odds rows, 2 events/);
  });
});

describe('reference data', () => {
  it('lists only sports with events by default, with counts', async () => {
    const r = await sys.get('/api/v1/sports', pro);
    const data = r.body['data'] as Record<string, unknown>[];
    expect(data.map((s) => [s['id'], s['event_count'], s['live_count']])).toEqual([
      ['basketball', 1, 0],
      ['football', 1, 0],
    ]);
    expect(data[0]?.['numerical_id']).toBe(1);
    const meta = r.body['meta'] as Record<string, unknown>;
    expect(meta['count']).toBe(2);
    expect(meta['total']).toBe(19);
  });

  it('includes empty sports on include_empty=true', async () => {
    const r = await sys.get('/api/v1/sports?include_empty=true', pro);
    expect((r.body['data'] as unknown[]).length).toBe(19);
  });

  it('answers 404 in the error envelope for an unknown sport, and 400 naming a bad boolean', async () => {
    const missing = await sys.get('/api/v1/sports/quidditch', pro);
    expect(missing.status).toBe(404);
    expect((missing.body['error'] as Record<string, unknown>)['code']).toBe('not_found');
    const bad = await sys.get('/api/v1/sports?include_empty=maybe', pro);
    expect(bad.status).toBe(400);
    expect(bad.body['error']).toMatchObject({
      code: 'invalid_request',
      message: "Invalid query parameter 'include_empty': must be boolean",
    });
  });

  it('lists active sportsbooks with live counts, and the catalog on catalog=true', async () => {
    const active = (await sys.get('/api/v1/sportsbooks', pro)).body['data'] as Record<string, unknown>[];
    expect(active.map((b) => [b['id'], b['event_count'], b['status']])).toEqual([
      ['pinnacle', 1, 'active'],
      ['draftkings', 1, 'active'],
      ['fanduel', 1, 'active'],
    ]);
    const catalog = (await sys.get('/api/v1/sportsbooks?catalog=true', pro)).body['data'] as unknown[];
    expect(catalog.length).toBe(21);
    const one = await sys.get('/api/v1/sportsbooks/draftkings', pro);
    expect(one.body['data']).toMatchObject({
      id: 'draftkings',
      display_name: 'DraftKings',
      requires_tier: 'free',
      is_sharp: false,
      regions: ['US'],
    });
    expect((await sys.get('/api/v1/sportsbooks/nope', pro)).status).toBe(404);
  });

  it('counts markets by events and selections, with the rate limit in meta', async () => {
    const r = await sys.get('/api/v1/markets', pro);
    const data = r.body['data'] as Record<string, unknown>[];
    const ml = data.find((m) => m['id'] === 'moneyline');
    expect(ml).toMatchObject({ hasLine: false, event_count: 2, selection_count: 6, sports: ['basketball', 'football'] });
    expect(data.find((m) => m['id'] === 'point_spread')).toMatchObject({ hasLine: true, event_count: 1, selection_count: 2 });
    expect(r.body['meta']).toMatchObject({ count: 9, total_events: 3, total_selections: 8, rate_limit: { limit: 300 } });
  });

  it('searches teams by alias words, case-insensitively, with the echo meta', async () => {
    const r = await sys.get('/api/v1/teams?league=nba&q=lakers', pro);
    const data = r.body['data'] as Record<string, unknown>[];
    expect(data.map((t) => t['id'])).toEqual(['los-angeles-lakers']);
    expect(data[0]).toMatchObject({ abbreviation: 'LAL', event_count: 1, live_count: 0 });
    expect(r.body['meta']).toMatchObject({
      count: 1,
      sport_filter: null,
      league_filter: 'nba',
      query: 'lakers',
      total_events: 1,
      total_live: 0,
    });
  });
});

describe('events', () => {
  it('aggregates books into one event with external ids, markets and books', async () => {
    const r = await sys.get('/api/v1/events?sport=basketball', pro);
    const data = r.body['data'] as Record<string, unknown>[];
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      sport: 'basketball',
      league: 'nba',
      home_team: 'Los Angeles Lakers',
      away_team: 'Boston Celtics',
      status: 'upcoming',
      is_live: false,
      book_count: 2,
      markets: ['moneyline', 'point_spread'],
      books: ['draftkings', 'pinnacle'],
      external_ids: { pinnacle: 'p-100', draftkings: '9001' },
    });
    expect(r.body['pagination']).toMatchObject({ limit: 50, offset: 0, has_more: false, next_offset: null });
  });

  it('serves one event, its markets and its odds, and 404s unknown ids', async () => {
    const id = ((await sys.get('/api/v1/events?league=nfl', pro)).body['data'] as Record<string, unknown>[])[0]?.['id'] as string;
    expect((await sys.get(`/api/v1/events/${id}`, pro)).body['data']).toMatchObject({ id, home_team: 'Kansas City Chiefs' });
    expect((await sys.get(`/api/v1/events/${id}/markets`, pro)).body['data']).toEqual(['moneyline']);
    const odds = (await sys.get(`/api/v1/events/${id}/odds`, pro)).body['data'] as Record<string, unknown>[];
    expect(odds.map((o) => [o['selection_type'], o['odds_american']])).toEqual([
      ['home', -150],
      ['away', 130],
    ]);
    for (const path of ['/api/v1/events/nope', '/api/v1/events/nope/markets', '/api/v1/events/nope/odds']) {
      const r = await sys.get(path, pro);
      expect(r.status).toBe(404);
      expect(r.body['error']).toMatchObject({ code: 'not_found', message: "Unknown event 'nope'" });
    }
  });
});

describe('odds', () => {
  it('serves every row with the contract fields and the nested reference blocks', async () => {
    const r = await sys.get('/api/v1/odds?sportsbook=draftkings&market=point_spread', pro);
    const rows = r.body['data'] as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      sportsbook: 'draftkings',
      sport: 'basketball',
      league: 'nba',
      market: 'point_spread',
      selection_type: 'home',
      line: -2.5,
      odds_american: -110,
      odds_decimal: 1.9091,
      probability: 0.52381,
      home_team: 'Los Angeles Lakers',
      away_team: 'Boston Celtics',
      external_event_id: '9001',
      event_start_time: new Date(T0).toISOString(),
      home: { id: 'los-angeles-lakers', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
      sport_ref: { id: 'basketball', numerical_id: 1, name: 'Basketball' },
      league_ref: { id: 'nba', label: 'NBA' },
      market_ref: { id: 'point_spread', numerical_id: 2, label: 'Point Spread' },
      sportsbook_ref: { id: 'draftkings', label: 'DraftKings' },
    });
    expect(rows[1]).toMatchObject({ selection_type: 'away', line: 2.5 });
  });

  it('pages with limit and offset, and reports has_more and next_offset', async () => {
    const first = await sys.get('/api/v1/odds?limit=3', pro);
    expect(first.body['pagination']).toMatchObject({
      limit: 3,
      offset: 0,
      has_more: true,
      next_offset: 3,
      next_cursor: expect.any(String),
    });
    const last = await sys.get('/api/v1/odds?limit=3&offset=6', pro);
    expect(last.body['pagination']).toMatchObject({ limit: 3, offset: 6, has_more: false, next_offset: null, next_cursor: null });
    expect((last.body['data'] as unknown[]).length).toBe(2);
    expect(last.body['meta']).toMatchObject({ count: 2, total: 8 });
  });

  it('filters by team words, price bounds and live state', async () => {
    const chiefs = (await sys.get('/api/v1/odds?team=chiefs', pro)).body['data'] as Record<string, unknown>[];
    expect(chiefs.map((o) => o['league'])).toEqual(['nfl', 'nfl']);
    const plus = (await sys.get('/api/v1/odds?min_odds=100', pro)).body['data'] as Record<string, unknown>[];
    expect(plus.map((o) => o['odds_american']).sort()).toEqual([105, 110, 130]);
    expect(((await sys.get('/api/v1/odds?live=true', pro)).body['data'] as unknown[]).length).toBe(0);
  });

  it('answers 400 invalid_request naming the parameter for bad input', async () => {
    const cases: [string, string][] = [
      ['/api/v1/odds?limit=0', "Invalid query parameter 'limit': must be >= 1"],
      ['/api/v1/odds?limit=5000', "Invalid query parameter 'limit': must be <= 1000"],
      ['/api/v1/odds?offset=-1', "Invalid query parameter 'offset': must be >= 0"],
      ['/api/v1/odds?live=perhaps', "Invalid query parameter 'live': must be boolean"],
      ['/api/v1/odds?sport=quidditch', "Invalid query parameter 'sport': unknown sport 'quidditch'; GET /api/v1/sports lists them"],
      [
        '/api/v1/odds?market=moneyline,corners',
        "Invalid query parameter 'market': unknown market 'corners'; allowed: moneyline, point_spread, total_points, team_total, player_prop, game_prop, future, 1st_half, 1st_quarter, main, spread, total, props, player_<stat>",
      ],
      ['/api/v1/odds?date=tomorrow', 'Invalid query parameter \'date\': must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
      ['/api/v1/odds?min_odds=200&max_odds=100', "Invalid query parameter 'min_odds': must not exceed max_odds"],
    ];
    for (const [path, message] of cases) {
      const r = await sys.get(path, pro);
      expect([path, r.status, r.body]).toEqual([
        path,
        400,
        { error: { code: 'invalid_request', message, docs: '/api/v1/docs/errors#invalid_request' } },
      ]);
    }
  });

  it('reflects a price move and a suspension on the next read', async () => {
    await feed.push([
      raw({
        book: 'draftkings',
        bookEventId: '9001',
        homeTeam: 'LA Lakers',
        awayTeam: 'Celtics',
        outcome: 'LA Lakers',
        priceAmerican: -140,
        ts: Date.now() + 1,
      }),
      raw({
        book: 'draftkings',
        bookEventId: '9001',
        homeTeam: 'LA Lakers',
        awayTeam: 'Celtics',
        market: 'point_spread',
        outcome: 'Celtics',
        line: 2.5,
        priceAmerican: null,
        status: 'suspended',
      }),
    ]);
    await sys.drained();
    const rows = (await sys.get('/api/v1/odds?sportsbook=draftkings', pro)).body['data'] as Record<string, unknown>[];
    expect(rows.map((o) => [o['market'], o['selection_type'], o['odds_american']])).toEqual([
      ['moneyline', 'home', -140],
      ['moneyline', 'away', 105],
      ['point_spread', 'home', -110],
    ]);
  });

  it('writes every tick, the latest board and the events into ClickHouse tables', async () => {
    await sys.drained();
    const [ticks] = await sys.store.query<{ n: string }>('SELECT count() AS n FROM odds_ticks');
    const latest = await sys.store.query<{ n: string }>('SELECT count() AS n FROM odds_latest FINAL');
    const events = await sys.store.query<{ n: string }>('SELECT count() AS n FROM events FINAL');
    expect(Number(ticks?.n)).toBe(10);
    expect(Number(latest[0]?.n)).toBe(7);
    expect(Number(events[0]?.n)).toBe(2);
  });
});

describe('unknown routes', () => {
  it('answer 404 in the error envelope', async () => {
    const r = await sys.get('/api/v1/nothing-here', pro);
    expect(r.status).toBe(404);
    expect((r.body['error'] as Record<string, unknown>)['code']).toBe('not_found');
  });
});

describe('metrics', () => {
  it('exposes the pipeline counters, board size and HTTP traffic in Prometheus text on the operator port', async () => {
    await sys.drained();
    const res = await fetch(`${sys.metricsUrl ?? ''}/metrics`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = text.split('\n');
    expect(lines).toContain('odds_normalizer_matched_ticks 10');
    expect(lines).toContain('odds_board_rows 7');
    expect(lines).toContain('odds_board_events 2');
    // Eight keys came onto the board; the suspended spread above left it.
    expect(lines).toContain('odds_board_rows_taken_in 8');
    expect(lines).toContain('odds_sink_rows{table="odds_ticks",outcome="written"} 10');
    expect(lines).toContain('odds_sink_rows{table="odds_ticks",outcome="dropped"} 0');
    expect(lines.some((l) => /^odds_http_requests_total\{method="GET",route="\/api\/v1\/sports",status="200"\} \d+$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('process_resident_memory_bytes '))).toBe(true);
  });
});
