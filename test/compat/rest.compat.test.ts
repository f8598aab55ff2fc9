/**
 * Compatibility contract: what clients written for the reference service rely on (its
 * envelopes, error bodies and the fields its SDK requires), checked over HTTP on every REST
 * endpoint we serve. Field lists and types come from the reference's documented behaviour, not
 * from any client's code. The last test checks every body the suite provoked against its route's response
 * schema, made strict (no undeclared field, every required one present).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../../schemas/index.js';
import { startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { PayloadRecorder } from '../support/strict-schema.js';
import { opportunityTicks } from '../support/opportunity-ticks.js';

type Row = Record<string, unknown>;
type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'string|null' | 'number|null' | 'array|null';

/** Field -> JSON type, as the reference's clients validate them. */
function expectShape(where: string, obj: unknown, shape: Record<string, Kind>): void {
  expect(typeof obj, where).toBe('object');
  const row = obj as Row;
  for (const [field, kind] of Object.entries(shape)) {
    const v = row[field];
    const actual = v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
    const ok = kind.split('|').some((k) => k === actual || (k === 'number' && actual === 'integer'));
    expect(ok, `${where}.${field}: expected ${kind}, got ${actual} (${JSON.stringify(v)})`).toBe(true);
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const recorder = new PayloadRecorder();
let c: Conformance;
let sharp: string;
let pro: string;
let nba = '';

beforeAll(async () => {
  c = await startConformance({}, { inspectPayload: recorder.inspect });
  sharp = c.keys.sharp;
  pro = c.keys.pro;
  await c.push(opportunityTicks(c.ticks));
  nba = ((await c.sys.get('/api/v1/events?league=nba', sharp)).body['data'] as Row[])[0]?.['id'] as string;
});
afterAll(async () => {
  await c.sys.close();
});

const get = (path: string, key = sharp, headers: Record<string, string> = {}) => c.sys.get(`/api/v1${path}`, key, headers);

/** Every GET we serve, with the parameters it needs. */
const ENDPOINTS = (): string[] => [
  '/sports?include_empty=true',
  '/sports/basketball',
  '/leagues?include_empty=true',
  '/leagues/nba',
  '/sportsbooks?catalog=true',
  '/sportsbooks/pinnacle',
  '/markets',
  '/teams?league=nba',
  '/events',
  `/events/${nba}`,
  `/events/${nba}/markets`,
  `/events/${nba}/odds`,
  '/odds',
  '/odds/best',
  `/odds/comparison?event=${nba}`,
  '/odds/delta?since=2020-01-01T00:00:00Z',
  '/opportunities/ev',
  '/opportunities/arbitrage',
  '/opportunities/middles',
  '/opportunities/middles/summary',
  '/opportunities/low_hold',
  '/opportunities/low-hold',
];

describe('envelope and headers (COMPAT 1.1, 1.2)', () => {
  it('answers every endpoint with success, a data that is never null, updated_at, and X-Tier', async () => {
    for (const path of ENDPOINTS()) {
      const r = await get(path);
      if (path.startsWith('/odds/delta')) {
        // A `since` before the change window is SPEC-explicit 410; from the window's start it is a 200.
        expect([path, r.status]).toEqual([path, 410]);
        continue;
      }
      expect([path, r.status, r.body['success']]).toEqual([path, 200, true]);
      expect(r.body['data'], path).not.toBeNull();
      expect(r.body['data'], path).toBeDefined();
      expect([path, RFC3339.test(String(r.body['updated_at']))]).toEqual([path, true]);
      expect([path, r.headers.get('x-tier')]).toEqual([path, 'sharp']);
    }
  });

  it('mirrors pagination into meta.pagination with count and total, where the SDK reads it', async () => {
    for (const path of [
      '/sports?include_empty=true',
      '/leagues',
      '/sportsbooks',
      '/markets',
      '/teams',
      '/events',
      `/events/${nba}/odds`,
      '/odds',
      '/odds/best',
      '/opportunities/arbitrage',
    ]) {
      const r = await get(path);
      const meta = r.body['meta'] as Row;
      expect([path, meta['pagination']]).toEqual([path, r.body['pagination']]);
      expectShape(`${path} pagination`, meta['pagination'], {
        limit: 'integer',
        offset: 'integer',
        has_more: 'boolean',
        count: 'integer',
        total: 'integer',
      });
    }
  });

  it('sends X-Tier in lowercase for every tier, errors included', async () => {
    for (const tier of ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const) {
      expect((await get('/sports', c.keys[tier])).headers.get('x-tier')).toBe(tier);
    }
    expect((await get('/opportunities/ev', c.keys.free)).headers.get('x-tier')).toBe('free');
  });

  it('puts a strong ETag and Cache-Control on every cacheable GET; If-None-Match gives 304 with no body', async () => {
    for (const path of ENDPOINTS().filter((p) => !p.startsWith('/odds/delta'))) {
      const first = await get(path);
      const etag = first.headers.get('etag');
      expect([path, etag]).toEqual([path, expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/)]);
      expect([path, first.headers.get('cache-control')]).toEqual([path, 'private, max-age=0, must-revalidate']);
      const again = await get(path, sharp, { 'if-none-match': etag as string });
      // Opportunity rows carry the age of their prices in seconds, which may tick over between two
      // reads, and /markets echoes the rate-limit counter in meta (SPEC): both are new content.
      if (again.status === 200 && (path.startsWith('/opportunities') || path === '/markets')) continue;
      expect([path, again.status, again.body]).toEqual([path, 304, {}]);
    }
  });

  it('matches If-None-Match lists, weak forms and *, and scopes ETags to the tier', async () => {
    const r = await get('/sports');
    const etag = r.headers.get('etag') as string;
    expect((await get('/sports', sharp, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('/sports', sharp, { 'if-none-match': '*' })).status).toBe(304);
    expect((await get('/sports', sharp, { 'if-none-match': '"stale"' })).status).toBe(200);
    // Same body, other tier: another tag, so a shared cache never serves one tier's answer to another.
    const enterprise = await get('/sports', c.keys.enterprise);
    expect(JSON.stringify(enterprise.body['data'])).toBe(JSON.stringify(r.body['data']));
    expect(enterprise.headers.get('etag')).not.toBe(etag);
    expect((await get('/sports', c.keys.enterprise, { 'if-none-match': etag })).status).toBe(200);
  });

  it('changes the ETag when the data changes', async () => {
    const before = await get(`/events/${nba}/odds`);
    const base = c.ticks.find((t) => t.league === 'nba' && t.book === 'betmgm') as RawTick;
    await c.push([{ ...base, priceAmerican: -133 }]);
    const after = await get(`/events/${nba}/odds`, sharp, { 'if-none-match': before.headers.get('etag') as string });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});

describe('error extras (COMPAT 1.3)', () => {
  it('puts required_tier inside error and at the top level on 403, with the caller tier', async () => {
    const feature = await get('/opportunities/ev', c.keys.hobby);
    expect(feature.status).toBe(403);
    expect(feature.body).toMatchObject({ required_tier: 'pro', error: { code: 'feature_required', required_tier: 'pro', tier: 'hobby' } });
    const book = await get('/odds?sportsbook=pinnacle', c.keys.free);
    expect(book.body).toMatchObject({ required_tier: 'pro', error: { required_tier: 'pro', tier: 'free' } });
    const many = await get('/odds?add_sportsbook=espnbet', c.keys.hobby);
    expect(many.body).toMatchObject({ required_tier: 'pro', error: { max_books: 5, requested_books: 6 } });
  });

  it('puts retry_after (seconds, as Retry-After) inside error and at the top level on 429', async () => {
    const key = c.newKey('free', 1);
    await get('/sports', key);
    const r = await get('/sports', key);
    expect(r.status).toBe(429);
    const seconds = Number(r.headers.get('retry-after'));
    expect(r.body).toMatchObject({ retry_after: seconds, error: { code: 'rate_limited', retry_after: seconds } });
    expect(r.headers.get('x-tier')).toBe('free');
  });

  it("answers offset_too_large with max_offset and a pointer to cursor past an endpoint's offset bound", async () => {
    for (const [path, max] of [
      ['/odds?offset=1000001', 1_000_000],
      ['/odds/delta?since=2030-01-01T00:00:00Z&offset=1000001', 1_000_000],
      ['/opportunities/arbitrage?offset=5001', 5000],
    ] as const) {
      const r = await get(path);
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.body['error']).toMatchObject({ code: 'offset_too_large', max_offset: max, message: expect.stringContaining('cursor') });
    }
  });

  it('keeps SPEC codes: 401 unauthorized, 400 invalid_request, 404 not_found', async () => {
    expect((await c.sys.get('/api/v1/sports')).body).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await get('/odds/comparison')).body).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await get('/leagues/no-such-league')).body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('query conventions (COMPAT 1.4)', () => {
  it('accepts event_id wherever event is taken', async () => {
    const byEvent = await get(`/odds/comparison?event=${nba}`);
    const byEventId = await get(`/odds/comparison?event_id=${nba}`);
    expect(byEventId.status).toBe(200);
    expect(Object.keys(byEventId.body['data'] as Row)).toEqual(Object.keys(byEvent.body['data'] as Row));
    for (const path of ['/odds', '/odds/best', '/opportunities/arbitrage', '/opportunities/low_hold']) {
      const rows = (await get(`${path}?event_id=${nba}`)).body['data'] as Row[];
      expect([path, rows.length > 0, rows.every((r) => r['event_id'] === nba)]).toEqual([path, true, true]);
    }
    expect(((await get('/odds?event_id=no-such-event')).body['data'] as Row[]).length).toBe(0);
  });

  it('takes add_sportsbook repeated as well as comma-separated', async () => {
    const books = async (q: string): Promise<string[]> =>
      [...new Set(((await get(`/odds?${q}&limit=1000`, c.keys.free)).body['data'] as Row[]).map((r) => r['sportsbook'] as string))].sort();
    // Free serves two books: the pair, narrowed to one, plus one added, stays within it.
    expect(await books('sportsbook=draftkings&add_sportsbook=fanduel')).toEqual(['draftkings', 'fanduel']);
    expect(await books('sportsbook=draftkings&add_sportsbook=fanduel&add_sportsbook=draftkings')).toEqual(['draftkings', 'fanduel']);
    expect((await get('/odds?sportsbook=draftkings&sportsbook=fanduel', c.keys.free)).status).toBe(200);
  });

  it('understands the market categories main, spread, total and props on every market filter', async () => {
    const markets = async (path: string): Promise<string[]> =>
      [...new Set(((await get(path)).body['data'] as Row[]).map((r) => r['market'] as string))].sort();
    expect(await markets('/odds?market=main&limit=1000')).toEqual(['moneyline', 'point_spread', 'total_points']);
    expect(await markets('/odds?market=spread&limit=1000')).toEqual(['point_spread']);
    expect(await markets('/odds?market=total&limit=1000')).toEqual(['total_points']);
    expect(await markets('/odds?market=props&limit=1000')).toEqual(['player_prop']);
    expect(await markets('/odds?market=player_points&limit=1000')).toEqual(['player_prop']);
    expect(await markets('/odds/best?market=props')).toEqual(['player_prop']);
    expect(await markets(`/events/${nba}/odds?market=spread`)).toEqual(['point_spread']);
    expect(
      Object.keys((await get(`/odds/comparison?event=${nba}&market=total`)).body['data'] as Row).every((k) =>
        k.startsWith('total_points:'),
      ),
    ).toBe(true);
    const batch = await c.sys.post('/api/v1/odds/batch', { event_ids: [nba], market: 'props' }, sharp);
    expect(((batch.body['data'] as Record<string, Row[]>)[nba] ?? []).map((r) => r['market_type'])).toEqual([
      'player_points',
      'player_points',
    ]);
    expect(await markets('/opportunities/arbitrage?market=total')).toEqual(['total_points']);
    expect(await markets('/opportunities/middles?market=spread')).toEqual(['point_spread']);
    expect(await markets('/opportunities/arbitrage?market=main')).toEqual(['moneyline', 'total_points']);
  });

  it('sorts by probability and odds_probability alike', async () => {
    const ids = async (sort: string): Promise<unknown[]> =>
      ((await get(`/odds?sort=${sort}&limit=1000`)).body['data'] as Row[]).map((r) => r['id']);
    expect(await ids('odds_probability')).toEqual(await ids('probability'));
    expect(await ids('-odds_probability')).toEqual(await ids('-probability'));
  });
});

describe('reference data (COMPAT 2.1-2.3)', () => {
  it('serves sports with slug and active', async () => {
    for (const s of (await get('/sports?include_empty=true')).body['data'] as Row[]) {
      expectShape('sport', s, { id: 'string', name: 'string', slug: 'string', active: 'boolean', event_count: 'integer' });
      expect(s['active']).toBe((s['event_count'] as number) > 0);
    }
    expect((await get('/sports/basketball')).body['data']).toMatchObject({ id: 'basketball', slug: 'basketball', active: true });
  });

  it('serves leagues with slug, active, sport_id and country, and one league by id', async () => {
    for (const l of (await get('/leagues?include_empty=true')).body['data'] as Row[]) {
      expectShape('league', l, {
        id: 'string',
        name: 'string',
        slug: 'string',
        active: 'boolean',
        sport: 'string',
        sport_id: 'string',
        country: 'string|null',
      });
      expect(l['sport_id']).toBe(l['sport']);
    }
    const nbaLeague = await get('/leagues/nba');
    expect(nbaLeague.body['data']).toMatchObject({
      id: 'nba',
      slug: 'nba',
      name: 'NBA',
      sport_id: 'basketball',
      country: 'US',
      active: true,
    });
    expect((await get('/leagues/atp')).body['data']).toMatchObject({ id: 'atp', country: null, active: false });
    expect((await get('/leagues/__proto__')).status).toBe(404);
  });

  it('serves sportsbooks with slug, active, regions and features', async () => {
    for (const b of (await get('/sportsbooks?catalog=true')).body['data'] as Row[]) {
      expectShape('sportsbook', b, {
        id: 'string',
        name: 'string',
        slug: 'string',
        active: 'boolean',
        regions: 'array',
        features: 'array',
      });
      expect(b['active']).toBe(b['status'] === 'active');
      expect((b['features'] as string[])[0]).toBe('odds');
    }
    expect((await get('/sportsbooks/draftkings')).body['data']).toMatchObject({ features: ['odds', 'live', 'props'] });
  });

  it('finds teams by any part of a name or alias, case- and accent-insensitive', async () => {
    const ids = async (q: string): Promise<string[]> =>
      ((await get(`/teams?q=${encodeURIComponent(q)}&limit=1000`)).body['data'] as Row[]).map((t) => t['id'] as string);
    expect(await ids('lak')).toContain('los-angeles-lakers');
    expect(await ids('LAK')).toContain('los-angeles-lakers');
    const tlant = await ids('tlant');
    expect(tlant).toContain('atlanta-hawks');
    expect(tlant.every((id) => id.includes('atlanta'))).toBe(true);
    expect(await ids('montréal')).toEqual(await ids('MONTREAL'));
    expect((await ids('montreal')).length).toBeGreaterThan(0);
    expect(await ids('zzzqqq')).toEqual([]);
  });
});

/** COMPAT 2.5: the fields the SDK's OddsLine requires, with their types. */
const ODDS_LINE: Record<string, Kind> = {
  id: 'string',
  sportsbook: 'string',
  event_id: 'string',
  sport: 'string',
  league: 'string',
  home_team: 'string',
  away_team: 'string',
  market_type: 'string',
  selection: 'string',
  odds_american: 'number',
  odds_decimal: 'number',
  probability: 'number',
};

describe('odds rows (COMPAT 2.5)', () => {
  it('carries the reference fields on every odds endpoint', async () => {
    const extra: Record<string, Kind> = {
      selection_type: 'string',
      sportsbook_name: 'string',
      is_live: 'boolean',
      is_active: 'boolean',
      is_main_line: 'boolean',
      is_alternate_line: 'boolean',
      event_start_time: 'string',
      timestamp: 'string',
      odds_probability: 'number',
    };
    const lists: Row[][] = [
      (await get('/odds?limit=1000')).body['data'] as Row[],
      (await get('/odds/best')).body['data'] as Row[],
      (await get(`/events/${nba}/odds`)).body['data'] as Row[],
      Object.values((await get(`/odds/comparison?event=${nba}`)).body['data'] as Record<string, Row[]>).flat(),
      Object.values((await c.sys.post('/api/v1/odds/batch', { event_ids: [nba] }, sharp)).body['data'] as Record<string, Row[]>).flat(),
    ];
    for (const rows of lists) {
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expectShape(`odds ${String(r['id'])}`, r, { ...ODDS_LINE, ...extra });
    }
  });

  it('names the selection for display and keeps the side in selection_type', async () => {
    const rows = (await get(`/events/${nba}/odds?sportsbook=draftkings`)).body['data'] as Row[];
    const pick = (market: string, side: string): Row | undefined =>
      rows.find((r) => r['market'] === market && r['selection_type'] === side);
    expect(pick('moneyline', 'home')).toMatchObject({
      selection: 'Los Angeles Lakers',
      market_type: 'moneyline',
      sportsbook_name: 'DraftKings',
    });
    expect(pick('point_spread', 'away')).toMatchObject({ selection: 'Boston Celtics', line: 2.5 });
    expect(pick('player_prop', 'over')).toMatchObject({
      selection: 'LeBron James Over',
      market_type: 'player_points',
      market: 'player_prop',
    });
  });

  it('tells main lines from alternates: the line most books quote, per side of the market', async () => {
    const spreads = ((await get(`/events/${nba}/odds?market=point_spread`)).body['data'] as Row[]).map((r) => [
      r['sportsbook'],
      r['line'],
      r['is_main_line'],
      r['is_alternate_line'],
    ]);
    // DraftKings and Pinnacle quote -2.5/+2.5, FanDuel -4.5/+4.5: -2.5 is main.
    expect(spreads).toContainEqual(['draftkings', -2.5, true, false]);
    expect(spreads).toContainEqual(['pinnacle', 2.5, true, false]);
    expect(spreads).toContainEqual(['fanduel', -4.5, false, true]);
    expect(((await get(`/events/${nba}/odds?market=moneyline`)).body['data'] as Row[]).every((r) => r['is_main_line'] === true)).toBe(true);
  });

  it('keeps the required fields under fields= unless a -name drops them', async () => {
    for (const r of (await get('/odds?fields=line&limit=5')).body['data'] as Row[])
      expectShape('projected', r, { ...ODDS_LINE, line: 'number|null' });
    const slim = ((await get('/odds?fields=-home_team&limit=1')).body['data'] as Row[])[0] as Row;
    expect('home_team' in slim).toBe(false);
    expect('away_team' in slim).toBe(true);
  });

  it('names each event group with event_name and start_time on group_by=event', async () => {
    for (const g of (await get('/odds?group_by=event&limit=1000')).body['data'] as Row[]) {
      expectShape('group', g, {
        event_id: 'string',
        event_name: 'string',
        sport: 'string',
        league: 'string',
        start_time: 'string',
        is_live: 'boolean',
        odds: 'array',
      });
      expect(g['event_name']).toBe(`${String(g['away_team'])} @ ${String(g['home_team'])}`);
    }
  });
});

describe('opportunities (COMPAT 3)', () => {
  it('serves arbitrage records and legs in the reference names and units', async () => {
    const r = await get('/opportunities/arbitrage');
    const rows = r.body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const a of rows) {
      expectShape('arbitrage', a, {
        id: 'string',
        sport: 'string',
        event_id: 'string',
        event_name: 'string',
        market_type: 'string',
        profit_percent: 'number',
        implied_total: 'number',
        legs: 'array',
        is_alternate_line: 'boolean',
        warnings: 'array',
        detected_at: 'string',
      });
      // Percent units: 98.2 means the legs' implied probabilities sum to 0.982.
      expect(a['implied_total']).toBeCloseTo((a['implied_probability_sum'] as number) * 100, 2);
      expect(a['implied_total']).toBeLessThan(100);
      for (const l of a['legs'] as Row[])
        expectShape('leg', l, {
          sportsbook: 'string',
          selection: 'string',
          selection_type: 'string',
          odds_american: 'number',
          odds_decimal: 'number',
          stake_percent: 'number',
          implied_probability: 'number',
        });
      expect((a['legs'] as Row[]).reduce((s, l) => s + (l['stake_percent'] as number), 0)).toBeCloseTo(100, 1);
    }
    expect(Object.keys((r.body['meta'] as Row)['summary'] as Row).sort()).toEqual([
      'avg_profit',
      'by_market',
      'by_sport',
      'by_sportsbook',
      'count',
      'max_profit',
    ]);
    expect((r.body['meta'] as Row)['filters']).toMatchObject({
      min_profit: 0.5,
      sport: null,
      league: null,
      sportsbook: null,
      market: null,
      live: null,
    });
    expectShape('meta', r.body['meta'], { source: 'string', books_analyzed: 'integer' });
  });

  it('sorts arbitrage by profit (most first), time and market', async () => {
    const profits = ((await get('/opportunities/arbitrage')).body['data'] as Row[]).map((a) => a['profit_percent'] as number);
    expect(profits).toEqual([...profits].sort((x, y) => y - x));
    for (const sort of ['time', '-start_time', 'market', '-sport'])
      expect((await get(`/opportunities/arbitrage?sort=${sort}`)).status).toBe(200);
    expect(((await get('/opportunities/arbitrage?min_profit=50')).body['data'] as Row[]).length).toBe(0);
  });

  it('exports arbitrage CSV in the reference column order, as text or as JSON {"data": csv}', async () => {
    const raw = await fetch(`${c.sys.url}/api/v1/opportunities/arbitrage?format=csv`, { headers: { 'x-api-key': sharp } });
    expect(raw.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(raw.headers.get('content-disposition')).toMatch(/filename="arbitrage_\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await raw.text();
    expect(text.split('\r\n')[0]).toMatch(
      /^event,sport,market,line,profit_percent,implied_total,leg1_book,leg1_selection,leg1_odds,leg1_stake_percent,leg2_book,leg2_selection,leg2_odds,leg2_stake_percent,is_live,is_alternate_line,possibly_stale,warnings,detected_at,/,
    );
    // What the Python SDK sends: Content-Type: application/json on a GET, and parses the answer as JSON.
    const wrapped = await get('/opportunities/arbitrage?format=csv', sharp, { 'content-type': 'application/json' });
    expect(wrapped.body).toMatchObject({ success: true, data: text });
    const accept = await get('/opportunities/arbitrage?format=csv', sharp, { accept: 'application/json' });
    expect(accept.body['data']).toBe(text);
  });

  it('serves middles with side1/side2, middle_size and quality_score, best quality first', async () => {
    const r = await get('/opportunities/middles');
    const rows = r.body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const m of rows) {
      expectShape('middle', m, {
        id: 'string',
        event_id: 'string',
        event_name: 'string',
        sport: 'string',
        league: 'string',
        market_type: 'string',
        home_team: 'string',
        away_team: 'string',
        middle_size: 'number',
        middle_numbers: 'array',
        middle_probability: 'number',
        key_numbers: 'array',
        key_number_probability: 'number',
        market_overround: 'number',
        expected_value: 'number',
        roi_percentage: 'number',
        worst_case_loss: 'number',
        best_case_profit: 'number',
        break_even_percent: 'number',
        is_guaranteed_profit: 'boolean',
        guaranteed_roi: 'number|null',
        quality_score: 'number',
        odds_age_seconds: 'number|null',
        is_live: 'boolean',
        is_player_prop: 'boolean',
        is_team_total: 'boolean',
        warnings: 'array',
        detected_at: 'string',
      });
      for (const side of ['side1', 'side2']) {
        expectShape(side, m[side], { book: 'string', selection: 'string', line: 'number', odds: 'object', stake_percent: 'number' });
        expectShape(`${side}.odds`, (m[side] as Row)['odds'], {
          american: 'number',
          decimal: 'number',
          probability: 'number',
          fair_probability: 'number',
        });
      }
      expect((m['quality_score'] as number) >= 0 && (m['quality_score'] as number) <= 100).toBe(true);
      expect(Number.isInteger((m['middle_numbers'] as number[])[0])).toBe(true);
    }
    const spread = rows.find((m) => m['market_type'] === 'point_spread') as Row;
    expect(spread['middle_numbers']).toEqual([3, 4]);
    expect(spread['middle_size']).toBe(2);
    const quality = rows.map((m) => m['quality_score'] as number);
    expect(quality).toEqual([...quality].sort((x, y) => y - x));
    expect((r.body['meta'] as Row)['filters']).toMatchObject({ min_size: 0.5 });
    expect(((await get('/opportunities/middles?min_size=3')).body['data'] as Row[]).length).toBe(0);
  });

  it('serves one middle by id (404 unknown, 400 malformed) and the middles summary', async () => {
    const first = ((await get('/opportunities/middles')).body['data'] as Row[])[0] as Row;
    const one = await get(`/opportunities/middles/${String(first['id'])}`);
    expect(one.status).toBe(200);
    expect((one.body['data'] as Row)['id']).toBe(first['id']);
    expect((await get('/opportunities/middles/0123456789abcdef')).status).toBe(404);
    for (const bad of ['not-an-id', '0123456789ABCDEF', '0123456789abcdef0123', '0123456789abcde']) {
      const r = await get(`/opportunities/middles/${bad}`);
      expect([bad, r.status, (r.body['error'] as Row)['message']]).toEqual([
        bad,
        400,
        expect.stringMatching(/^Invalid path parameter 'id'/),
      ]);
    }
    expect((await get(`/opportunities/middles/${String(first['id'])}`, c.keys.hobby)).status).toBe(403);
    const summary = await get('/opportunities/middles/summary');
    expectShape('summary', summary.body['data'], {
      total: 'integer',
      positive_ev_count: 'integer',
      guaranteed_profit_count: 'integer',
      player_prop_count: 'integer',
      has_key_numbers_count: 'integer',
      by_sport: 'object',
      by_market: 'object',
      by_sportsbook: 'object',
      avg_middle_size: 'number',
      avg_probability: 'number',
      avg_ev: 'number',
    });
    expect((summary.body['data'] as Row)['total']).toBe(
      ((await get('/opportunities/middles')).body['meta'] as Row & { summary: Row })['summary']['count'],
    );
    expect(((await get('/opportunities/middles/summary?sport=soccer')).body['data'] as Row)['total']).toBe(0);
  });

  it('serves low-hold at /opportunities/low_hold (and low-hold) with sides and the SDK odds block', async () => {
    const r = await get('/opportunities/low_hold');
    const rows = r.body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(((await get('/opportunities/low-hold')).body['data'] as Row[]).map((x) => x['id'])).toEqual(rows.map((x) => x['id']));
    for (const l of rows) {
      expectShape('low_hold', l, {
        id: 'string',
        event_id: 'string',
        event_name: 'string',
        sport: 'string',
        market_type: 'string',
        hold_percentage: 'number',
        side1: 'object',
        side2: 'object',
        all_books: 'array',
        confidence: 'number',
        is_alternate_line: 'boolean',
      });
      expect('side3' in l).toBe(true);
      for (const side of ['side1', 'side2']) {
        expectShape(side, l[side], { selection: 'string', books: 'array', odds: 'object', deep_links: 'object' });
        expectShape(`${side}.odds`, (l[side] as Row)['odds'], {
          american: 'number',
          decimal: 'number',
          probability: 'number',
          implied_probability: 'number',
          fair_probability: 'number',
        });
      }
    }
    const meta = r.body['meta'] as Row;
    expect(Object.keys(meta['summary'] as Row).sort()).toEqual(['avg_hold', 'by_market', 'by_sport', 'count', 'min_hold']);
    expect(meta['filters']).toMatchObject({ max_hold: 5 });
    expect((await get('/opportunities/low_hold?sort=market')).status).toBe(200);
  });

  it('serves +EV rows with event_name and market_type, and every de-vig choice', async () => {
    const rows = (await get('/opportunities/ev?include=methods')).body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const e of rows)
      expectShape('ev', e, {
        id: 'string',
        event_id: 'string',
        event_name: 'string',
        market_type: 'string',
        ev_percentage: 'number',
        fair_probability: 'number|null',
        kelly_percent: 'number|null',
      });
    const methods = (rows[0] as Row)['methods'] as Record<string, Row>;
    expect(Object.keys(methods)).toEqual(['power', 'multiplicative', 'additive', 'shin', 'odds_ratio', 'logit', 'worst_case']);
    const fair = Object.values(methods).map((m) => m['fair_probability'] as number);
    expect(methods['worst_case']?.['fair_probability']).toBe(Math.min(...fair));
    expect(methods['logit']?.['fair_probability']).toBeCloseTo(methods['odds_ratio']?.['fair_probability'] as number, 6);
    for (const m of ['odds_ratio', 'logit', 'worst_case']) {
      const r = await get(`/opportunities/ev?devig_method=${m}&min_ev=-100`);
      expect([m, r.status, (r.body['meta'] as Row)['devig_method']]).toEqual([m, 200, m]);
    }
  });

  it('takes add_sportsbook and event_id on opportunities like the odds endpoints', async () => {
    const r = await get(`/opportunities/arbitrage?sportsbook=caesars&add_sportsbook=espnbet&event_id=${nba}`, pro);
    expect(r.status).toBe(200);
    for (const a of r.body['data'] as Row[]) for (const l of a['legs'] as Row[]) expect(['caesars', 'espnbet']).toContain(l['sportsbook']);
  });
});

describe('OpenAPI document', () => {
  it('describes the compatibility paths, parameters and fields from the route schemas', async () => {
    const doc = (await c.sys.get('/api/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string }[]; responses: Record<string, { content: Record<string, { schema: Row }> }> }>
      >;
    };
    for (const path of [
      '/api/v1/leagues/{leagueId}',
      '/api/v1/opportunities/low_hold',
      '/api/v1/opportunities/low-hold',
      '/api/v1/opportunities/middles/{id}',
      '/api/v1/opportunities/middles/summary',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const odds = doc.paths['/api/v1/odds']?.['get'];
    expect(odds?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['event', 'event_id', 'add_sportsbook', 'market', 'fields', 'sort']),
    );
    const item = ((odds?.responses['200']?.content['application/json']?.schema['properties'] as Row)['data'] as Row)['items'] as {
      properties: Row;
    };
    expect(Object.keys(item.properties)).toEqual(
      expect.arrayContaining(['market_type', 'selection_type', 'sportsbook_name', 'is_main_line', 'event_name']),
    );
    const envelope = doc.paths['/api/v1/sports']?.['get']?.responses['200']?.content['application/json']?.schema as { required: string[] };
    expect(envelope.required).toContain('updated_at');
  });
});

describe('response schemas', () => {
  it('every body the suite provoked matches its route schema exactly: no undeclared field, no required one missing', () => {
    expect(recorder.seen.size).toBeGreaterThan(30);
    expect(recorder.unschemed).toEqual([]);
    expect(
      recorder.violations
        .slice(0, 12)
        .map(
          (v) =>
            `${v.route} ${v.status}: ${v.errors.map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ')}`,
        ),
    ).toEqual([]);
  });
});
