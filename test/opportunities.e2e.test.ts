import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

// The real system (feed -> normalizer -> snapshot -> opportunity processor -> topic -> board ->
// HTTP, and the opportunities table) driven by a scripted feed.

const START = Date.now() + 24 * 60 * 60 * 1000;
type Row = Record<string, unknown>;

const NAMES: Record<string, [string, string]> = {
  pinnacle: ['Los Angeles Lakers', 'Boston Celtics'],
  draftkings: ['LA Lakers', 'Celtics'],
  fanduel: ['Los Angeles Lakers', 'Boston Celtics'],
  caesars: ['Lakers', 'Celtics'],
};

function raw(
  book: string,
  market: RawTick['market'],
  outcome: 'home' | 'away' | 'Over' | 'Under',
  line: number | null,
  price: number | null,
): RawTick {
  const [home, away] = NAMES[book] ?? ['Los Angeles Lakers', 'Boston Celtics'];
  return {
    book,
    bookEventId: `${book}-1`,
    sport: 'basketball',
    league: 'nba',
    homeTeam: home,
    awayTeam: away,
    startTime: START,
    isLive: false,
    market,
    outcome: outcome === 'home' ? home : outcome === 'away' ? away : outcome,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: price === null ? 'suspended' : 'open',
    ts: Date.now(),
    selectionId: book === 'draftkings' ? `dk-${market}-${outcome}` : null,
  };
}

const side = (book: string, market: RawTick['market'], homeLine: number | null, home: number | null, away: number | null): RawTick[] => [
  raw(book, market, 'home', homeLine, home),
  raw(book, market, 'away', homeLine === null ? null : 0 - homeLine, away),
];
const totals = (book: string, line: number, over: number | null, under: number | null): RawTick[] => [
  raw(book, 'total_points', 'Over', line, over),
  raw(book, 'total_points', 'Under', line, under),
];

// One time for the whole opening board: the confidence score reads which of the book and the
// reference changed last, and ticks stamped in passing could fall on either side of a millisecond.
const OPENED = Date.now();
const initial: RawTick[] = [
  // Moneyline: DraftKings' Celtics +105 is +EV against Pinnacle's -110/-110 (2.5 %), and a 1.15 % low-hold market.
  ...side('pinnacle', 'moneyline', null, -110, -110),
  ...side('draftkings', 'moneyline', null, -115, 105),
  // Totals 220.5: FanDuel Over +105 with Caesars Under +100 is an arbitrage (hobby books).
  ...totals('fanduel', 220.5, 105, -125),
  ...totals('caesars', 220.5, -125, 100),
  // Spreads: Pinnacle home -3.5 +108 with DraftKings away +3.5 +100 is an arbitrage with a pro-only
  // book; DraftKings -2.5 and FanDuel +4.5 make a middle on a home win by 3 or 4.
  raw('pinnacle', 'point_spread', 'home', -3.5, 108),
  ...side('draftkings', 'point_spread', -2.5, -110, -110),
  raw('draftkings', 'point_spread', 'away', 3.5, 100),
  ...side('fanduel', 'point_spread', -4.5, -105, -115),
].map((t) => ({ ...t, ts: OPENED }));

let sys: TestSystem;
let feed: ScriptedFeed;
let keys: TestSystem['demoKeys'];
const data = (r: { body: Row }): Row[] => r.body['data'] as Row[];

beforeAll(async () => {
  feed = new ScriptedFeed(initial);
  sys = await startTestSystem({}, { feed: () => feed });
  keys = sys.demoKeys;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
});

describe('tier gating', () => {
  it('answers 403 feature_required to free keys on every opportunity endpoint', async () => {
    for (const path of ['ev', 'arbitrage', 'middles', 'low-hold']) {
      const r = await sys.get(`/api/v1/opportunities/${path}`, keys.free);
      expect([path, r.status, (r.body['error'] as Row)['code']]).toEqual([path, 403, 'feature_required']);
    }
  });

  it('lets hobby see arbitrage and low-hold, but not +EV or middles', async () => {
    expect((await sys.get('/api/v1/opportunities/ev', keys.hobby)).status).toBe(403);
    expect((await sys.get('/api/v1/opportunities/middles', keys.hobby)).status).toBe(403);
    expect((await sys.get('/api/v1/opportunities/arbitrage', keys.hobby)).status).toBe(200);
    expect((await sys.get('/api/v1/opportunities/low-hold', keys.hobby)).status).toBe(200);
  });

  it('shows hobby only the arbitrage whose every leg is at one of its five books', async () => {
    const hobby = data(await sys.get('/api/v1/opportunities/arbitrage', keys.hobby));
    expect(hobby.map((a) => (a['legs'] as Row[]).map((l) => l['sportsbook']))).toEqual([['fanduel', 'caesars']]);
    const pro = data(await sys.get('/api/v1/opportunities/arbitrage', keys.pro));
    expect(pro.map((a) => (a['legs'] as Row[]).map((l) => l['sportsbook'])).sort()).toEqual([
      ['fanduel', 'caesars'],
      ['pinnacle', 'draftkings'],
    ]);
    const asked = await sys.get('/api/v1/opportunities/arbitrage?sportsbook=pinnacle', keys.hobby);
    expect([asked.status, (asked.body['error'] as Row)['code']]).toEqual([403, 'feature_required']);
  });
});

describe('GET /opportunities/ev', () => {
  it('serves the +EV price with every field of the contract, meta.summary and meta.filters', async () => {
    const r = await sys.get('/api/v1/opportunities/ev', keys.pro);
    expect(r.status).toBe(200);
    const [o] = data(r);
    expect(o).toMatchObject({
      sportsbook: 'draftkings',
      selection: 'away',
      selection_name: 'Boston Celtics',
      market: 'moneyline',
      line: null,
      odds_american: 105,
      odds_decimal: 2.05,
      ev_percentage: 2.5,
      ev_percent: 2.5,
      fair_probability: 0.5,
      no_vig_odds: 100,
      kelly_percent: 2.381,
      market_width: 20,
      devig_method: 'power',
      sharp_book: 'pinnacle',
      devig_book: 'pinnacle',
      game: 'Boston Celtics @ Los Angeles Lakers',
      sport: 'basketball',
      league: 'nba',
      home_team: 'Los Angeles Lakers',
      away_team: 'Boston Celtics',
      start_time: new Date(START).toISOString(),
      is_live: false,
      book_count: 2,
      arb_available: false,
      arb_profit: null,
      is_player_prop: false,
      player_name: null,
      stat_category: null,
      possibly_stale: false,
      warnings: ['SINGLE_SHARP_REF'],
      external_event_id: 'draftkings-1',
      selection_id: 'dk-moneyline-away',
      sportsbook_ref: { id: 'draftkings', label: 'DraftKings' },
      home: { id: 'los-angeles-lakers' },
      market_ref: { id: 'moneyline' },
    });
    // Book and reference changed together 20, no other book 15, Pinnacle's 4.55 % hold 11.5, EV 2.5 % 10.
    expect(o?.['confidence_score']).toBe(57);
    expect(typeof o?.['detected_at']).toBe('string');
    const meta = r.body['meta'] as Row;
    expect(meta['summary']).toEqual({
      count: 1,
      avg_ev: 2.5,
      max_ev: 2.5,
      by_sportsbook: { draftkings: 1 },
      by_sport: { basketball: 1 },
      by_market: { moneyline: 1 },
    });
    expect(meta['filters']).toEqual({
      sport: null,
      league: null,
      sportsbook: null,
      market: null,
      min_ev: 0,
      max_ev: null,
      live: null,
      sort: '-ev',
      include: null,
    });
    expect(meta['source']).toBe('live');
    expect(r.body['pagination']).toMatchObject({ limit: 50, offset: 0, has_more: false, next_offset: null });
  });

  it('applies the filters, the de-vig method, the market aliases and include=methods', async () => {
    const get = async (q: string): Promise<Row[]> => data(await sys.get(`/api/v1/opportunities/ev?${q}`, keys.pro));
    expect(await get('min_ev=3')).toEqual([]);
    expect(await get('market=total')).toEqual([]);
    expect((await get('market=main,props')).length).toBe(1);
    expect((await get('sport=basketball&league=nba&team=celtics&date_range=tomorrow&live=false&max_odds_age=600')).length).toBe(1);
    expect(await get('live=true')).toEqual([]);
    expect(await get('min_market_width=25')).toEqual([]);
    const [m] = await get('devig_method=multiplicative&include=methods&sort=-confidence');
    expect(m).toMatchObject({ devig_method: 'multiplicative', ev_percentage: 2.5 });
    expect(Object.keys(m?.['methods'] as Row)).toEqual([
      'power',
      'multiplicative',
      'additive',
      'shin',
      'odds_ratio',
      'logit',
      'worst_case',
    ]);
  });

  it('answers 400 naming the parameter beyond the bounds', async () => {
    const cases: [string, string][] = [
      ['limit=201', "Invalid query parameter 'limit': must be <= 200"],
      [
        'market=corners',
        "Invalid query parameter 'market': unknown market 'corners'; allowed: moneyline, point_spread, total_points, team_total, player_prop, game_prop, future, 1st_half, 1st_quarter, main, spread, total, props, player_<stat>",
      ],
      ['min_ev=5&max_ev=1', "Invalid query parameter 'min_ev': must not exceed max_ev"],
      [
        'devig_method=median',
        "Invalid query parameter 'devig_method': must be one of power, multiplicative, additive, shin, odds_ratio, logit, worst_case, efficient_shin, goto",
      ],
      ['date_range=yesterday', "Invalid query parameter 'date_range': must be one of today, tomorrow, week"],
    ];
    for (const [q, message] of cases) {
      const r = await sys.get(`/api/v1/opportunities/ev?${q}`, keys.pro);
      expect([q, r.status, r.body['error']]).toEqual([
        q,
        400,
        { code: 'invalid_request', message, docs: '/api/v1/docs/errors#invalid_request' },
      ]);
    }
    const far = await sys.get('/api/v1/opportunities/ev?offset=5001', keys.pro);
    expect([far.status, far.body['error']]).toEqual([
      400,
      expect.objectContaining({
        code: 'offset_too_large',
        max_offset: 5000,
        message: expect.stringMatching(/^Invalid query parameter 'offset': must be <= 5000/),
      }),
    ]);
  });
});

describe("GET /opportunities/ev: the reference's row filters", () => {
  const ids = async (q: string): Promise<string[]> => {
    const r = await sys.get(`/api/v1/opportunities/ev?${q}`, keys.pro);
    expect([q, r.status]).toEqual([q, 200]);
    return data(r).map((o) => `${o['sportsbook'] as string}:${o['selection'] as string}`);
  };
  const celtics = ['draftkings:away'];

  it('keeps the row whose Kelly and confidence fall within the bounds, and only it', async () => {
    // The row: kelly_percent 2.381, confidence_score 57.
    expect(await ids('min_kelly=2.3&max_kelly=2.4')).toEqual(celtics);
    expect(await ids('min_kelly=2.4')).toEqual([]);
    expect(await ids('max_kelly=2.3')).toEqual([]);
    expect(await ids('min_confidence=57&max_confidence=57')).toEqual(celtics);
    expect(await ids('min_confidence=58')).toEqual([]);
    expect(await ids('max_confidence=10')).toEqual([]);
  });

  it('filters on the prop, alternate-line and arbitrage flags as the row shows them', async () => {
    expect(await ids('is_player_prop=false&is_alternate_line=false&arb_available=false')).toEqual(celtics);
    expect(await ids('is_player_prop=true')).toEqual([]);
    expect(await ids('is_alternate_line=true')).toEqual([]);
    expect(await ids('arb_available=true')).toEqual([]);
  });

  it('matches the selection by type or label text, and answers an empty page, not an error, to text that matches nothing', async () => {
    expect(await ids('selection=away')).toEqual(celtics);
    expect(await ids('selection=CELTICS')).toEqual(celtics);
    expect(await ids('selection=lakers')).toEqual([]);
    expect(await ids('player_name=LeBron')).toEqual([]);
    expect(await ids('stat_category=points')).toEqual([]);
  });

  it('takes devig_book as the alias of sharp_book', async () => {
    expect(await ids('sharp_book=pinnacle')).toEqual(celtics);
    expect(await ids('devig_book=pinnacle')).toEqual(celtics);
    expect(await ids('devig_book=circa')).toEqual([]);
    expect(await ids('sharp_book=pinnacle&devig_book=pinnacle')).toEqual(celtics);
  });

  it('answers 400 naming the parameter for each bad value', async () => {
    const cases: [string, string][] = [
      ['min_kelly=lots', "Invalid query parameter 'min_kelly': must be a decimal number, got 'lots'"],
      ['max_confidence=101', "Invalid query parameter 'max_confidence': must be <= 100"],
      ['min_kelly=5&max_kelly=1', "Invalid query parameter 'min_kelly': must not exceed max_kelly"],
      ['min_confidence=90&max_confidence=10', "Invalid query parameter 'min_confidence': must not exceed max_confidence"],
      ['is_player_prop=maybe', "Invalid query parameter 'is_player_prop': must be boolean"],
      ['arb_available=2', "Invalid query parameter 'arb_available': must be boolean"],
      ['sharp_book=nowhere', "Invalid query parameter 'sharp_book': unknown sportsbook 'nowhere'"],
      [
        'sharp_book=pinnacle&devig_book=circa',
        "Invalid query parameter 'devig_book': is an alias of 'sharp_book' and names other books ('circa' against 'pinnacle'); give one of them",
      ],
    ];
    for (const [q, message] of cases) {
      const r = await sys.get(`/api/v1/opportunities/ev?${q}`, keys.pro);
      expect([q, r.status, r.body['error']]).toEqual([
        q,
        400,
        { code: 'invalid_request', message, docs: '/api/v1/docs/errors#invalid_request' },
      ]);
    }
  });
});

describe('arbitrage, middles and low-hold', () => {
  it('splits a bankroll into stakes that add up to it to the cent, and exports CSV', async () => {
    const [a] = data(await sys.get('/api/v1/opportunities/arbitrage?sportsbook=fanduel,caesars&bankroll=1000', keys.pro));
    const s = 1 / 2.05 + 1 / 2;
    expect(a).toMatchObject({
      market: 'total_points',
      line: 220.5,
      bankroll: 1000,
      book_count: 2,
      profit_percentage: Math.round((1 / s - 1) * 1e6) / 1e4,
    });
    const legs = a?.['legs'] as Row[];
    expect(legs.map((l) => [l['sportsbook'], l['selection_type'], l['line'], l['odds_american'], l['stake']])).toEqual([
      ['fanduel', 'over', 220.5, 105, 493.83],
      ['caesars', 'under', 220.5, 100, 506.17],
    ]);
    expect((legs[0]?.['stake'] as number) + (legs[1]?.['stake'] as number)).toBeCloseTo(1000, 9);
    // 493.83 x 2.05 = 1012.35 and 506.17 x 2 = 1012.34: the worse leg is what is guaranteed.
    expect([a?.['guaranteed_payout'], a?.['guaranteed_profit']]).toEqual([1012.34, 12.34]);

    const res = await fetch(`${sys.url}/api/v1/opportunities/arbitrage?format=csv&sort=start_time`, { headers: { 'x-api-key': keys.pro } });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="arbitrage_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(
      lines[0]?.startsWith(
        'event,sport,market,line,profit_percent,implied_total,leg1_book,leg1_selection,leg1_odds,leg1_stake_percent,leg2_book,',
      ),
    ).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.startsWith('Boston Celtics @ Los Angeles Lakers,basketball,'))).toBe(true);
  });

  it('keeps the best arbitrage per event with group=best', async () => {
    const best = data(await sys.get('/api/v1/opportunities/arbitrage?group=best', keys.pro));
    expect(best).toHaveLength(1);
    expect(best[0]?.['market']).toBe('point_spread');
  });

  it('serves the middle with its window, cost and hit probability', async () => {
    const r = await sys.get('/api/v1/opportunities/middles?min_window=2', keys.pro);
    const [m] = data(r);
    expect(m).toMatchObject({
      market: 'point_spread',
      lower_bound: 2.5,
      upper_bound: 4.5,
      window_size: 2,
      window_outcomes: [3, 4],
      model: { distribution: 'normal', sigma: 12 },
    });
    expect((m?.['legs'] as Row[]).map((l) => [l['sportsbook'], l['selection_type'], l['line']])).toEqual([
      ['draftkings', 'home', -2.5],
      ['fanduel', 'away', 4.5],
    ]);
    expect(m?.['hit_probability']).toBeGreaterThan(0.04);
    expect(m?.['worst_case_cost_percentage']).toBeGreaterThan(0);
    expect(data(await sys.get('/api/v1/opportunities/middles?min_hit_probability=0.5', keys.pro))).toEqual([]);
  });

  it('lists low-hold markets at or below 2 % by default, lowest first', async () => {
    const rows = data(await sys.get('/api/v1/opportunities/low-hold?market=moneyline', keys.pro));
    expect(rows.map((x) => [x['hold_percentage'], (x['legs'] as Row[]).map((l) => l['sportsbook'])])).toEqual([
      [1.1481, ['pinnacle', 'draftkings']],
    ]);
    expect(data(await sys.get('/api/v1/opportunities/low-hold?market=moneyline&max_hold=1', keys.pro))).toEqual([]);
    expect((await sys.get('/api/v1/opportunities/low-hold?max_hold=101', keys.pro)).status).toBe(400);
  });
});

describe('updates and expiry', () => {
  it('updates a moved price in place, keeping detected_at, and expires what no longer holds', async () => {
    const before = data(await sys.get('/api/v1/opportunities/ev', keys.pro))[0];
    await feed.push([raw('draftkings', 'moneyline', 'away', null, 110)]);
    await sys.drained();
    const after = data(await sys.get('/api/v1/opportunities/ev', keys.pro))[0];
    expect([after?.['id'], after?.['odds_american'], after?.['ev_percentage'], after?.['detected_at']]).toEqual([
      before?.['id'],
      110,
      5,
      before?.['detected_at'],
    ]);

    await feed.push([
      raw('draftkings', 'moneyline', 'away', null, null),
      raw('caesars', 'total_points', 'Under', 220.5, null),
      ...side('fanduel', 'point_spread', -4.5, null, null),
    ]);
    await sys.drained();
    expect(data(await sys.get('/api/v1/opportunities/ev', keys.pro))).toEqual([]);
    expect(data(await sys.get('/api/v1/opportunities/arbitrage', keys.hobby))).toEqual([]);
    expect(data(await sys.get('/api/v1/opportunities/middles?min_window=2', keys.pro))).toEqual([]);
  });

  it('records detection, last sighting, expiry and the peak in the opportunities table', async () => {
    await sys.drained();
    let rows: Row[] = [];
    for (let i = 0; i < 50; i++) {
      rows = await sys.store.query<Row>(
        "SELECT kind, expire_reason, peak_value, value, detected_at <= last_seen_at AS ordered, expired_at IS NOT NULL AS expired FROM opportunities FINAL WHERE kind = 'ev'",
      );
      if (rows.length > 0 && rows.every((r) => Number(r['expired']) === 1)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(
      rows.map((r) => [r['kind'], r['expire_reason'], r['peak_value'], r['value'], Number(r['ordered']), Number(r['expired'])]),
    ).toEqual([['ev', 'leg_removed', 5, 5, 1, 1]]);
  });
});

describe('OpenAPI', () => {
  it('documents the four endpoints under the opportunities tag', async () => {
    const doc = (await sys.get('/api/v1/openapi.json')).body as { paths: Record<string, { get?: { tags?: string[]; summary?: string } }> };
    for (const p of ['ev', 'arbitrage', 'middles', 'low-hold']) {
      const op = doc.paths[`/api/v1/opportunities/${p}`]?.get;
      expect([p, op?.tags, typeof op?.summary]).toEqual([p, ['opportunities'], 'string']);
    }
  });
});

describe('robustness', () => {
  it('answers random parameters with 200 or a 4xx envelope, never a 5xx', async () => {
    const names = [
      'sport',
      'league',
      'sportsbook',
      'market',
      'event',
      'live',
      'team',
      'min_odds',
      'max_odds',
      'max_odds_age',
      'date_range',
      'limit',
      'offset',
      'sort',
      'min_ev',
      'max_ev',
      'min_market_width',
      'max_market_width',
      'devig_method',
      'include',
      'min_profit',
      'format',
      'group',
      'bankroll',
      'min_window',
      'min_hit_probability',
      'max_cost',
      'max_hold',
      'min_kelly',
      'max_confidence',
      'is_player_prop',
      'is_alternate_line',
      'arb_available',
      'player_name',
      'stat_category',
      'selection',
      'sharp_book',
      'devig_book',
    ];
    const values = fc.oneof(
      fc.constantFrom(
        '',
        'nba',
        'main,props',
        'player_points',
        '-ev',
        'profit',
        '-hold',
        'best',
        'csv',
        'methods',
        'shin',
        'week',
        '1e308',
        'NaN',
        '-1',
        '0',
        '201',
        'true',
        ',,',
        'pinnacle',
      ),
      fc.string({ maxLength: 12 }),
    );
    const probe = fc.record({
      path: fc.constantFrom('ev', 'arbitrage', 'middles', 'low-hold'),
      params: fc.array(fc.tuple(fc.constantFrom(...names), values), { maxLength: 4 }),
    });
    const end = Date.now() + 3000;
    await fc.assert(
      fc.asyncProperty(probe, async ({ path, params }) => {
        if (Date.now() > end) return;
        const q = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const res = await fetch(`${sys.url}/api/v1/opportunities/${path}?${q}`, { headers: { 'x-api-key': keys.sharp } });
        const text = await res.text();
        expect(res.status, `${path}?${q}: ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(JSON.parse(text)).toMatchObject({ error: { code: expect.any(String) } });
      }),
      { numRuns: 400 },
    );
  });
});
