/**
 * SPEC "Endpoints > Odds": GET /odds (filters, add_sportsbook, price bounds, sort, fields,
 * group_by, cursor), /odds/best, /odds/comparison and POST /odds/batch, driven over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ROWS, startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
let sharp: string;

beforeAll(async () => {
  c = await startConformance();
  sharp = c.keys.sharp;
});
afterAll(async () => {
  await c.sys.close();
});

async function rows(path: string, key = sharp): Promise<Row[]> {
  const r = await c.sys.get(path, key);
  expect([path, r.status]).toEqual([path, 200]);
  return r.body['data'] as Row[];
}

async function walk(path: string, limit: number, key = sharp): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await c.sys.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    expect(r.status).toBe(200);
    out.push(...(r.body['data'] as Row[]));
    cursor = (r.body['pagination'] as Row)['next_cursor'] as string | null;
    if (cursor === null) return out;
  }
  throw new Error('cursor walk did not end');
}

describe('GET /odds', () => {
  it('serves the whole board to a sharp key, every row with the contract fields', async () => {
    const data = await rows('/api/v1/odds?limit=1000');
    expect(data).toHaveLength(FIXTURE_ROWS);
    for (const row of data) {
      for (const f of [
        'id',
        'sportsbook',
        'sport',
        'league',
        'odds_american',
        'odds_decimal',
        'probability',
        'timestamp',
        'event_start_time',
        'line',
      ])
        expect(row).toHaveProperty(f);
      expect(row['sportsbook_ref']).toMatchObject({ id: row['sportsbook'] });
      expect(typeof (row['sport_ref'] as Row)['numerical_id']).toBe('number');
    }
    expect(new Set(data.map((r) => r['id'])).size).toBe(FIXTURE_ROWS);
  });

  it('filters by sport, league, sportsbook, market, event, live, team, date and q', async () => {
    expect((await rows('/api/v1/odds?sport=football')).every((r) => r['league'] === 'nfl')).toBe(true);
    expect((await rows('/api/v1/odds?league=nba,epl')).map((r) => r['league'])).not.toContain('nfl');
    expect(new Set((await rows('/api/v1/odds?sportsbook=pinnacle,fanduel')).map((r) => r['sportsbook']))).toEqual(
      new Set(['pinnacle', 'fanduel']),
    );
    expect((await rows('/api/v1/odds?market=player_prop')).map((r) => [r['participant'], r['selection_type'], r['line']])).toEqual([
      ['LeBron James', 'over', 25.5],
      ['LeBron James', 'under', 25.5],
    ]);
    const live = await rows('/api/v1/odds?live=true');
    expect(live).toHaveLength(6);
    expect(live.every((r) => r['league'] === 'epl' && r['is_live'] === true)).toBe(true);
    expect((await rows('/api/v1/odds?live=false')).length).toBe(FIXTURE_ROWS - 6);
    const eventId = live[0]?.['event_id'] as string;
    expect((await rows(`/api/v1/odds?event=${eventId}`)).length).toBe(6);
    expect((await rows('/api/v1/odds?team=chelsea')).length).toBe(6);
    expect((await rows('/api/v1/odds?q=bills')).length).toBe(6);
    const nflDate = (await rows('/api/v1/odds?league=nfl'))[0]?.['event_start_time'] as string;
    const eastern = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(nflDate));
    expect((await rows(`/api/v1/odds?league=nfl&date=${eastern}`)).length).toBe(6);
    expect(await rows('/api/v1/odds?date=1999-01-01')).toEqual([]);
  });

  it('bounds American prices with min_odds and max_odds', async () => {
    const data = await rows('/api/v1/odds?min_odds=100&max_odds=150');
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((r) => (r['odds_american'] as number) >= 100 && (r['odds_american'] as number) <= 150)).toBe(true);
  });

  it('sorts by each of the eight keys, ascending and with - descending', async () => {
    const keys = ['odds_american', 'odds_decimal', 'probability', 'timestamp', 'event_start_time', 'sportsbook', 'sport', 'league'];
    for (const key of keys) {
      for (const desc of [false, true]) {
        const data = await rows(`/api/v1/odds?limit=1000&sort=${desc ? '-' : ''}${key}`);
        const values = data.map((r) => r[key] as string | number);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (desc) sorted.reverse();
        expect([key, desc, values]).toEqual([key, desc, sorted]);
      }
    }
  });

  it('projects fields: the core fields clients require plus those named, -name drops one, id always stays', async () => {
    const core = [
      'away_team',
      'event_id',
      'home_team',
      'id',
      'league',
      'market_type',
      'odds_american',
      'odds_decimal',
      'probability',
      'selection',
      'sport',
      'sportsbook',
    ];
    const data = await rows('/api/v1/odds?fields=odds_american,sportsbook,line&limit=3');
    expect(data).toHaveLength(3);
    for (const r of data) expect(Object.keys(r).sort()).toEqual([...core, 'line'].sort());
    const slim = await rows('/api/v1/odds?fields=odds_american,-home_team,-away_team,-id&limit=1');
    expect(Object.keys(slim[0] as Row).sort()).toEqual(core.filter((f) => f !== 'home_team' && f !== 'away_team'));
    const allBut = await rows('/api/v1/odds?fields=-home,-away&limit=1');
    expect(Object.keys(allBut[0] as Row)).not.toContain('home');
    expect(Object.keys(allBut[0] as Row)).toContain('sportsbook_ref');
  });

  it('groups the page by event with group_by=event', async () => {
    const r = await c.sys.get('/api/v1/odds?group_by=event&limit=1000', sharp);
    const groups = r.body['data'] as Row[];
    expect(groups.map((g) => g['league'])).toEqual(['epl', 'nba', 'nfl']);
    expect(groups.map((g) => (g['odds'] as Row[]).length)).toEqual([6, 22, 6]);
    expect(groups[1]).toMatchObject({
      home_team: 'Los Angeles Lakers',
      away_team: 'Boston Celtics',
      is_live: false,
      home: { id: 'los-angeles-lakers' },
    });
    expect(r.body['meta']).toMatchObject({ count: FIXTURE_ROWS, total: FIXTURE_ROWS, groups: 3 });
    const projected = (await rows('/api/v1/odds?group_by=event&fields=odds_decimal&limit=1')) as Row[];
    expect(projected).toEqual([
      expect.objectContaining({
        event_name: expect.stringContaining(' @ '),
        odds: [expect.objectContaining({ id: expect.any(String), odds_decimal: expect.any(Number), market_type: expect.any(String) })],
      }),
    ]);
  });

  it('walks the board with cursor and next_cursor: every row once, in board order', async () => {
    const all = await rows('/api/v1/odds?limit=1000');
    const walked = await walk('/api/v1/odds', 7);
    expect(walked.map((r) => r['id'])).toEqual(all.map((r) => r['id']));
    const sorted = await rows('/api/v1/odds?limit=1000&sort=-odds_decimal');
    expect((await walk('/api/v1/odds?sort=-odds_decimal', 5)).map((r) => r['id'])).toEqual(sorted.map((r) => r['id']));
  });

  it('keeps a cursor walk consistent while rows come and go', async () => {
    const first = await c.sys.get('/api/v1/odds?league=nba&limit=5', sharp);
    const seen = (first.body['data'] as Row[]).map((r) => r['id'] as string);
    const cursor = encodeURIComponent((first.body['pagination'] as Row)['next_cursor'] as string);
    // The first NBA row in board order (moneyline, home, betmgm) is pulled behind the cursor:
    // offset paging would now skip a row; the cursor does not.
    const tick = c.ticks.find((t) => t.book === 'betmgm' && t.outcome === 'Los Angeles Lakers');
    if (!tick) throw new Error('fixture changed');
    await c.push([{ ...tick, status: 'suspended', priceAmerican: null }]);
    const second = await c.sys.get(`/api/v1/odds?league=nba&limit=100&cursor=${cursor}`, sharp);
    const after = (second.body['data'] as Row[]).map((r) => r['id'] as string);
    const now = (await rows('/api/v1/odds?league=nba&limit=1000')).map((r) => r['id'] as string);
    expect(now).toHaveLength(21);
    expect([...seen.slice(1), ...after]).toEqual(now);
    expect((second.body['pagination'] as Row)['offset']).toBe(4);
    await c.push([tick]);
    expect(await rows('/api/v1/odds?league=nba&limit=1000')).toHaveLength(22);
  });

  it('answers 400 for a cursor of another query, a forged cursor, or cursor with offset', async () => {
    const r = await c.sys.get('/api/v1/odds?limit=2', sharp);
    const cursor = encodeURIComponent((r.body['pagination'] as Row)['next_cursor'] as string);
    const cases: [string, RegExp][] = [
      [`/api/v1/odds?sport=soccer&cursor=${cursor}`, /'cursor': it belongs to a query with other filters or sort/],
      [`/api/v1/odds?sort=sport&cursor=${cursor}`, /'cursor': it belongs to a query/],
      ['/api/v1/odds?cursor=bm90LWEtY3Vyc29y', /'cursor': not a cursor this API issued/],
      [`/api/v1/odds?cursor=${cursor}&offset=2`, /'offset': not allowed together with cursor/],
    ];
    for (const [path, message] of cases) {
      const res = await c.sys.get(path, sharp);
      expect([path, res.status, res.body['error']]).toEqual([
        path,
        400,
        expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(message) }),
      ]);
    }
  });

  it('answers 400 naming the parameter for an unknown sort key, field or group_by', async () => {
    for (const [path, field] of [
      ['sort=price', 'sort'],
      ['sort=-', 'sort'],
      ['fields=odds,price', 'fields'],
      ['group_by=league', 'group_by'],
      ['add_sportsbook=nope', 'add_sportsbook'],
    ]) {
      const r = await c.sys.get(`/api/v1/odds?${path}`, sharp);
      expect([path, r.status, (r.body['error'] as Row)['message']]).toEqual([path, 400, expect.stringContaining(`'${field}'`)]);
    }
  });

  it('reports next_since to start a delta poll from this snapshot', async () => {
    const r = await c.sys.get('/api/v1/odds?limit=1', sharp);
    expect((r.body['meta'] as Row)['next_since']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
  });
});

describe('GET /odds/best', () => {
  it('gives one row per outcome: the highest price across the books, with book_count', async () => {
    const data = await rows('/api/v1/odds/best?league=nba&market=moneyline');
    expect(data.map((r) => [r['selection_type'], r['sportsbook'], r['odds_american'], r['book_count']])).toEqual([
      ['home', 'espnbet', -115, 6],
      ['away', 'betmgm', 110, 6],
    ]);
  });

  it('takes the best only among the books the key is served', async () => {
    const free = await rows('/api/v1/odds/best?league=nba&market=moneyline', c.keys.free);
    expect(free.map((r) => [r['sportsbook'], r['odds_american'], r['book_count']])).toEqual([
      ['fanduel', -118, 2],
      ['draftkings', 105, 2],
    ]);
  });

  it('paginates like every list', async () => {
    const r = await c.sys.get('/api/v1/odds/best?limit=2&offset=1', sharp);
    expect(r.body['pagination']).toMatchObject({ limit: 2, offset: 1, has_more: true, next_offset: 3 });
  });
});

describe('GET /odds/comparison', () => {
  it('maps each outcome of the event to its rows across books, best first', async () => {
    const event = (await rows('/api/v1/odds?league=nba&limit=1'))[0]?.['event_id'] as string;
    const r = await c.sys.get(`/api/v1/odds/comparison?event=${event}`, sharp);
    expect(r.status).toBe(200);
    const data = r.body['data'] as Record<string, Row[]>;
    expect(Object.keys(data)).toEqual([
      'moneyline:home',
      'moneyline:away',
      'point_spread:home:-2.5',
      'point_spread:away:2.5',
      'total_points:over:228.5',
      'total_points:under:228.5',
      'player_prop:LeBron James:points:over:25.5',
      'player_prop:LeBron James:points:under:25.5',
    ]);
    expect(data['moneyline:home']?.map((x) => x['sportsbook'])).toEqual([
      'espnbet',
      'fanduel',
      'pinnacle',
      'bovada',
      'draftkings',
      'betmgm',
    ]);
    expect(r.body['meta']).toMatchObject({ outcomes: 8, event: { id: event, home_team: 'Los Angeles Lakers' } });
    const ml = await c.sys.get(`/api/v1/odds/comparison?event=${event}&market=point_spread`, sharp);
    expect(Object.keys(ml.body['data'] as Row)).toEqual(['point_spread:home:-2.5', 'point_spread:away:2.5']);
  });

  it('answers 400 without event and 404 for an unknown event', async () => {
    const missing = await c.sys.get('/api/v1/odds/comparison', sharp);
    expect([missing.status, missing.body['error']]).toEqual([
      400,
      expect.objectContaining({ code: 'invalid_request', message: "Missing required query parameter 'event'" }),
    ]);
    const unknown = await c.sys.get('/api/v1/odds/comparison?event=nope', sharp);
    expect([unknown.status, (unknown.body['error'] as Row)['code']]).toEqual([404, 'not_found']);
  });
});

describe('POST /odds/batch', () => {
  it('maps every requested event id to its rows, empty for unknown ids', async () => {
    const ids = [...new Set((await rows('/api/v1/odds?limit=1000')).map((r) => r['event_id'] as string))];
    const r = await c.sys.post(
      '/api/v1/odds/batch',
      { event_ids: [...ids, 'nope', ids[0]], market: 'moneyline', sportsbook: 'pinnacle,draftkings' },
      sharp,
    );
    expect(r.status).toBe(200);
    const data = r.body['data'] as Record<string, Row[]>;
    expect(Object.keys(data)).toEqual([...ids, 'nope']);
    expect(Object.values(data).map((list) => list.length)).toEqual([6, 4, 4, 0]);
    expect(r.body['meta']).toEqual({ events: 4, rows: 14, missing: ['nope'] });
  });

  it('validates the body, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, "Missing required body field 'event_ids'"],
      [{ event_ids: [] }, "Invalid body field 'event_ids': must NOT have fewer than 1 items"],
      [{ event_ids: { a: 1 } }, "Invalid body field 'event_ids': must be array"],
      [{ event_ids: ['a'], eventIds: ['b'] }, "Invalid body: must NOT have additional property 'eventIds'"],
      [
        { event_ids: ['a'], market: 'corners' },
        "Invalid body field 'market': unknown market 'corners'; allowed: moneyline, point_spread, total_points, team_total, player_prop, game_prop, future, 1st_half, 1st_quarter, main, spread, total, props, player_<stat>",
      ],
      ['{"event_ids": [', 'Invalid body: not valid JSON'],
      [null, 'Invalid body: must be object'],
    ];
    for (const [body, message] of cases) {
      const r = await c.sys.post('/api/v1/odds/batch', body === null ? 'null' : body, sharp);
      expect([body, r.status, r.body['error']]).toEqual([
        body,
        400,
        { code: 'invalid_request', message, docs: '/api/v1/docs/errors#invalid_request' },
      ]);
    }
  });

  it('bounds the batch by tier with a message naming the limits', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `e${i}`);
    const free = await c.sys.post('/api/v1/odds/batch', { event_ids: ids }, c.keys.free);
    expect([free.status, (free.body['error'] as Row)['message']]).toEqual([
      400,
      expect.stringMatching(
        /^Invalid body field 'event_ids': 6 events, the free tier allows at most 5 per batch \(free 5, hobby 20, pro 50, sharp 100, enterprise 100\)$/,
      ),
    ]);
    expect((await c.sys.post('/api/v1/odds/batch', { event_ids: ids.slice(0, 5) }, c.keys.free)).status).toBe(200);
    expect(
      (await c.sys.post('/api/v1/odds/batch', { event_ids: Array.from({ length: 21 }, (_, i) => `e${i}`) }, c.keys.hobby)).status,
    ).toBe(400);
    expect((await c.sys.post('/api/v1/odds/batch', { event_ids: Array.from({ length: 50 }, (_, i) => `e${i}`) }, c.keys.pro)).status).toBe(
      200,
    );
    const over = await c.sys.post('/api/v1/odds/batch', { event_ids: Array.from({ length: 101 }, (_, i) => `e${i}`) }, c.keys.enterprise);
    expect([over.status, (over.body['error'] as Row)['message']]).toEqual([
      400,
      "Invalid body field 'event_ids': must NOT have more than 100 items",
    ]);
  });
});

describe('a price the book suspends (locked, not pulled)', () => {
  it('stays on /odds inactive at its last price; /odds/best and /odds/comparison leave it out; /odds/delta sends it as changed; a fresh price reopens it', async () => {
    const tick = c.ticks.find((t) => t.book === 'espnbet' && t.outcome === 'Los Angeles Lakers');
    if (!tick) throw new Error('fixture changed');
    const path = '/api/v1/odds?league=nba&market=moneyline&sportsbook=espnbet';
    const since = ((await c.sys.get(path, sharp)).body['meta'] as Row)['next_since'] as string;
    // The book's frozen price is not a new price: the board keeps the one it last served.
    await c.push([{ ...tick, status: 'suspended', priceAmerican: -300 }]);
    const lockedAt = new Date(c.clock.now()).toISOString();
    expect((await rows(path)).map((r) => [r['selection_type'], r['odds_american'], r['is_active'], r['suspended_since']])).toEqual([
      ['home', -115, false, lockedAt],
      ['away', -105, true, null],
    ]);
    expect(await rows('/api/v1/odds?limit=1000')).toHaveLength(FIXTURE_ROWS);
    // Analysts see it in ClickHouse too: on the current board, inactive since the suspension.
    const lockedId = (await rows(path))[0]?.['id'] as string;
    const stored = await c.sys.store.query<{ is_active: unknown; suspended_since: string | null; odds_american: number }>(
      'SELECT is_active, suspended_since, odds_american FROM odds_latest FINAL WHERE id = {id:String}',
      { id: lockedId },
    );
    expect(stored.map((r) => [Number(r.is_active), `${String(r.suspended_since).replace(' ', 'T')}Z`, Number(r.odds_american)])).toEqual([
      [0, lockedAt, -115],
    ]);
    const best = await rows('/api/v1/odds/best?league=nba&market=moneyline');
    expect(best.map((r) => [r['selection_type'], r['sportsbook'], r['odds_american'], r['book_count']])).toEqual([
      ['home', 'fanduel', -118, 5],
      ['away', 'betmgm', 110, 6],
    ]);
    const event = (await rows(path))[0]?.['event_id'] as string;
    const comparison = (await c.sys.get(`/api/v1/odds/comparison?event=${event}&market=moneyline`, sharp)).body['data'] as Record<
      string,
      Row[]
    >;
    expect(comparison['moneyline:home']?.map((x) => x['sportsbook'])).toEqual(['fanduel', 'pinnacle', 'bovada', 'draftkings', 'betmgm']);
    const delta = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(since)}&sportsbook=espnbet`, sharp);
    expect((delta.body['data'] as Row[]).map((r) => [r['selection_type'], r['is_active']])).toEqual([['home', false]]);
    expect(delta.body['removed']).toEqual([]);

    await c.push([{ ...tick, priceAmerican: -112 }]);
    expect((await rows(path))[0]).toMatchObject({ odds_american: -112, is_active: true, suspended_since: null });
    expect((await rows('/api/v1/odds/best?league=nba&market=moneyline'))[0]).toMatchObject({
      sportsbook: 'espnbet',
      odds_american: -112,
      book_count: 6,
    });
    await c.push([tick]);
  });
});
