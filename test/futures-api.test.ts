import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawFutures } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

/**
 * The futures routes over HTTP on a hand-made market: COMPAT §8 field names, the required
 * `future_id`, keyless /futures, tier books and delay on /futures/odds, and futures +EV with
 * values recomputed here from the prices.
 */
type Row = Record<string, unknown>;
let c: Conformance;

const SETTLES = Date.UTC(2027, 5, 30, 23, 59, 59, 999);
const board = (book: string, prices: [string, number][]): RawFutures => ({
  kind: 'futures',
  book,
  bookMarketId: `${book}-title`,
  sport: 'basketball',
  league: 'nba',
  market: 'championship',
  season: '2026-27',
  subject: null,
  title: 'NBA Champion 2026-27',
  settlesAt: SETTLES,
  ts: 0,
  selections: prices.map(([name, priceAmerican]) => ({ name, line: null, priceAmerican })),
});
// Pinnacle is the only reference; its board: implied 0.4, 0.285714, 0.2, 0.142857 (overround 2.857 %).
const PINNACLE: [string, number][] = [
  ['Boston Celtics', 150],
  ['Denver Nuggets', 250],
  ['Los Angeles Lakers', 400],
  ['Milwaukee Bucks', 600],
];
// Books spell teams their own way (abbreviations, nicknames): the normalizer resolves them.
const DRAFTKINGS: [string, number][] = [
  ['BOS', 130],
  ['Denver', 200],
  ['LA Lakers', 300],
  ['Bucks', 700],
];
const FANDUEL: [string, number][] = [
  ['Boston Celtics', 120],
  ['Denver Nuggets', 220],
  ['Los Angeles Lakers', 350],
  ['Milwaukee Bucks', 500],
];
const WINS = (book: string, over: number, under: number): RawFutures => ({
  kind: 'futures',
  book,
  bookMarketId: `${book}-bos-wins`,
  sport: 'basketball',
  league: 'nba',
  market: 'season_wins',
  season: '2026-27',
  subject: 'Boston Celtics',
  title: 'Celtics wins',
  settlesAt: SETTLES,
  ts: 0,
  selections: [
    { name: 'Over', line: 54.5, priceAmerican: over },
    { name: 'Under', line: 54.5, priceAmerican: under },
  ],
});

beforeAll(async () => {
  c = await startConformance();
  await c.push([
    board('pinnacle', PINNACLE),
    board('draftkings', DRAFTKINGS),
    board('fanduel', FANDUEL),
    WINS('pinnacle', -105, -105),
    WINS('draftkings', -110, -110),
  ]);
});
afterAll(async () => {
  await c.sys.close();
});

const code = (body: Row): unknown => (body['error'] as Row)['code'];
const TITLE = 'nba-2026-27-championship';

/** Power de-vig, solved here by bisection on k (sum of r^k = 1), independently of the odds math. */
function power(implied: number[]): number[] {
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 200; i++) {
    const k = (lo + hi) / 2;
    if (implied.reduce((s, r) => s + r ** k, 0) > 1) lo = k;
    else hi = k;
  }
  return implied.map((r) => r ** ((lo + hi) / 2));
}

describe('futures over HTTP', () => {
  it('lists the routes in the OpenAPI document', async () => {
    const paths = Object.keys(((await c.sys.get('/api/v1/openapi.json')).body['paths'] ?? {}) as Row);
    for (const p of ['/api/v1/futures', '/api/v1/futures/odds', '/api/v1/futures/ev']) expect(paths).toContain(p);
  });

  it('serves /futures without a key, with the FutureMarket fields', async () => {
    const r = await c.sys.get('/api/v1/futures?league=nba');
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row[];
    expect(data.map((m) => m['market_id'])).toEqual([TITLE, 'nba-2026-27-season_wins-boston-celtics']);
    expect(data[0]).toMatchObject({
      market_id: TITLE,
      display_name: 'NBA 2026-27 Championship Winner',
      sport: 'basketball',
      league: 'nba',
      future_type: 'TEAM',
      selection_count: 4,
      books_available: ['draftkings', 'fanduel', 'pinnacle'],
      event_start_time: new Date(SETTLES).toISOString(),
    });
    expect(data[1]).toMatchObject({ future_type: 'OVER_UNDER', selection_count: 2, team: 'boston-celtics' });
    expect(typeof r.body['updated_at']).toBe('string');
    expect(r.headers.get('x-ratelimit-limit')).toBe('10');
    const typed = await c.sys.get('/api/v1/futures?future_type=OVER_UNDER');
    expect((typed.body['data'] as Row[]).map((m) => m['market_id'])).toEqual(['nba-2026-27-season_wins-boston-celtics']);
  });

  it('checks a key sent to /futures, and names bad parameters', async () => {
    expect((await c.sys.get('/api/v1/futures', 'sk_not_a_key')).status).toBe(401);
    for (const [path, field] of [
      ['/api/v1/futures?future_type=TEAMS', 'future_type'],
      ['/api/v1/futures?league=nbaa', 'league'],
      ['/api/v1/futures?sportsbook=nope', 'sportsbook'],
    ] as const) {
      const r = await c.sys.get(path, c.keys.pro);
      expect([path, r.status, code(r.body)]).toEqual([path, 400, 'invalid_request']);
      expect((r.body['error'] as Row)['message']).toContain(`'${field}'`);
    }
  });

  it('needs a key and future_id on /futures/odds', async () => {
    expect((await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}`)).status).toBe(401);
    const missing = await c.sys.get('/api/v1/futures/odds?league=nba', c.keys.pro);
    expect([missing.status, code(missing.body)]).toEqual([400, 'invalid_request']);
    expect((missing.body['error'] as Row)['message']).toContain("'future_id'");
  });

  it('serves every price with the FutureOdds fields, the fair line to +EV tiers only', async () => {
    const r = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}&sportsbook=pinnacle,draftkings`, c.keys.pro);
    expect(r.status).toBe(200);
    const rows = r.body['data'] as Row[];
    expect(rows).toHaveLength(8);
    const fair = power(PINNACLE.map(([, a]) => 100 / (a + 100)));
    const dkBucks = rows.find((x) => x['sportsbook'] === 'draftkings' && x['selection'] === 'Milwaukee Bucks') as Row;
    expect(dkBucks).toMatchObject({
      selection: 'Milwaukee Bucks',
      selection_id: 'milwaukee-bucks',
      sportsbook: 'draftkings',
      odds_american: 700,
      odds_decimal: 8,
      probability: 0.125,
      line: null,
      future_type: 'TEAM',
      future_market_id: TITLE,
      future_market_name: 'NBA 2026-27 Championship Winner',
      sport: 'basketball',
      league: 'nba',
      event_start_time: new Date(SETTLES).toISOString(),
      is_best: true,
    });
    expect(dkBucks['fair_probability']).toBeCloseTo(fair[3] as number, 6);
    expect(dkBucks['ev_percent']).toBeCloseTo(((fair[3] as number) * 8 - 1) * 100, 3);
    // Most likely outcome first.
    expect(rows.slice(0, 2).map((x) => x['selection'])).toEqual(['Boston Celtics', 'Boston Celtics']);
    const hobby = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}&sportsbook=draftkings`, c.keys.hobby);
    expect((hobby.body['data'] as Row[])[0]).toMatchObject({ fair_probability: null, ev_percent: null });
  });

  it('keeps the tiers to their books: free sees its pair, a book above the tier is 403', async () => {
    // The free tier reads 60 s behind: the boards above reach it once the data clock moved on.
    expect((await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}`, c.keys.free)).body['data']).toEqual([]);
    c.advance(61_000);
    const free = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}`, c.keys.free);
    expect(new Set((free.body['data'] as Row[]).map((x) => x['sportsbook']))).toEqual(new Set(['draftkings', 'fanduel']));
    const above = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}&sportsbook=pinnacle`, c.keys.free);
    expect([above.status, code(above.body)]).toEqual([403, 'feature_required']);
  });

  it("shows the free tier a book's new board only after the delay", async () => {
    await c.push([
      board('fanduel', [
        ['Boston Celtics', 110],
        ['Denver Nuggets', 220],
        ['Los Angeles Lakers', 350],
        ['Milwaukee Bucks', 500],
      ]),
    ]);
    const price = async (key: string): Promise<unknown> => {
      const r = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE}&sportsbook=fanduel`, key);
      return (r.body['data'] as Row[]).find((x) => x['selection'] === 'Boston Celtics')?.['odds_american'];
    };
    expect(await price(c.keys.pro)).toBe(110);
    expect(await price(c.keys.free)).toBe(120);
    c.advance(61_000);
    expect(await price(c.keys.free)).toBe(110);
  });

  it('reports market ids no book prices in meta.missing', async () => {
    const r = await c.sys.get(`/api/v1/futures/odds?future_id=${TITLE},nba-1999-championship&limit=1`, c.keys.sharp);
    expect(r.body['meta']).toMatchObject({ missing: ['nba-1999-championship'], total: 12 });
    expect(r.body['pagination']).toMatchObject({ limit: 1, has_more: true, next_offset: 1 });
  });

  it('serves futures +EV to Pro and up, with values recomputed from the prices', async () => {
    const hobby = await c.sys.get('/api/v1/futures/ev', c.keys.hobby);
    expect([hobby.status, code(hobby.body)]).toEqual([403, 'feature_required']);
    const r = await c.sys.get(`/api/v1/futures/ev?future_id=${TITLE}`, c.keys.sharp);
    expect(r.status).toBe(200);
    const rows = r.body['data'] as Row[];
    const implied = PINNACLE.map(([, a]) => 100 / (a + 100));
    const fair = power(implied);
    const sum = implied.reduce((s, x) => s + x, 0);
    const bucks = rows.find((x) => x['sportsbook'] === 'draftkings' && x['selection'] === 'Milwaukee Bucks') as Row;
    expect(bucks['fair_probability']).toBeCloseTo(fair[3] as number, 6);
    expect(bucks['ev_percent']).toBeCloseTo(((fair[3] as number) * 8 - 1) * 100, 3);
    const methods = bucks['devig_methods'] as Record<string, Row>;
    expect(methods['multiplicative']?.['fair_probability']).toBeCloseTo((implied[3] as number) / sum, 6);
    expect(methods['multiplicative']?.['ev_percent']).toBeCloseTo((((implied[3] as number) / sum) * 8 - 1) * 100, 3);
    expect(bucks).toMatchObject({
      future_market_id: TITLE,
      future_type: 'TEAM',
      sharp_books: ['pinnacle'],
      odds_american: 700,
      book_count: 3,
    });
    expect(bucks['id']).toMatch(/^[a-f0-9]{16}$/);
    // Every listed price is EV-positive under some method; nothing at pinnacle (the reference has no other reference).
    for (const x of rows) {
      expect(x['sportsbook']).not.toBe('pinnacle');
      expect(Object.values(x['devig_methods'] as Record<string, Row>).some((m) => (m['ev_percent'] as number) > 0)).toBe(true);
    }
    // The whole list, recomputed: every (book, outcome) whose price beats some method's fair probability.
    expect(rows.map((x) => `${x['sportsbook']}:${x['selection_id']}`).sort()).toEqual(['draftkings:milwaukee-bucks']);
    const min = await c.sys.get('/api/v1/futures/ev?min_ev=50', c.keys.sharp);
    expect(min.body['data']).toEqual([]);
  });
});
