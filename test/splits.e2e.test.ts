/**
 * Betting splits end to end: raw splits go through the feed's topic, the normalizer, the splits
 * processor (joined to the book's line at that moment), ClickHouse and the read model, and come
 * out of GET /splits and GET /splits/history as the reference shapes them, with the signals.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawSplits, RawSplitSide, RawTick } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
const FIVE_MIN = 5 * 60_000;

let c: Conformance;
let nba: string;
let startTime: number;
/** Snapshot times: round 1, 2 and 3. */
const at: number[] = [];

const LAL = 'Los Angeles Lakers';
const BOS = 'Boston Celtics';

function circaTick(market: RawTick['market'], outcome: string, price: number | null, line: number | null = null): RawTick {
  return {
    book: 'circa',
    bookEventId: 'c-100',
    sport: 'basketball',
    league: 'nba',
    homeTeam: LAL,
    awayTeam: BOS,
    startTime,
    isLive: false,
    market,
    outcome,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: price === null ? 'suspended' : 'open',
    ts: 0,
    selectionId: null,
  };
}

function splits(book: string, bookEventId: string, sides: RawSplitSide[]): RawSplits {
  return {
    kind: 'splits',
    book,
    bookEventId,
    sport: 'basketball',
    league: 'nba',
    homeTeam: LAL,
    awayTeam: BOS,
    startTime,
    isLive: false,
    ts: 0,
    sides,
  };
}

/** Home (or over) first: [bets, handle] per side. */
function two(market: RawSplitSide['market'], a: string, b: string, bets: number, handle: number): RawSplitSide[] {
  return [
    { market, outcome: a, betPct: bets, handlePct: handle },
    { market, outcome: b, betPct: Math.round((1 - bets) * 1000) / 1000, handlePct: Math.round((1 - handle) * 1000) / 1000 },
  ];
}

const dkRound = (spreadBets: number): RawSplits =>
  splits('draftkings', 'dk-100', [
    ...two('spread', LAL, BOS, spreadBets, 0.65),
    ...two('total', 'Over', 'Under', 0.7, 0.72),
    ...two('moneyline', LAL, BOS, 0.6, 0.66),
  ]);
const circaRound = (spreadBets: number, spreadHandle: number): RawSplits =>
  splits('circa', 'c-100', [...two('spread', LAL, BOS, spreadBets, spreadHandle), ...two('moneyline', LAL, BOS, 0.58, 0.45)]);

const iso = (ms: number): string => new Date(ms).toISOString();

async function storedHistoryRows(): Promise<number> {
  const rows = await c.sys.store.query<{ n: number }>(
    `SELECT toUInt32(count()) AS n FROM splits_history FINAL WHERE event_id = {e:String}`,
    { e: nba },
  );
  return Number(rows[0]?.n ?? 0);
}

beforeAll(async () => {
  c = await startConformance({ SINK_MAX_WAIT_MS: '20' });
  nba = ((await c.sys.get('/api/v1/events?league=nba', c.keys.pro)).body['data'] as Row[])[0]?.['id'] as string;
  startTime = c.ticks.find((t) => t.league === 'nba')?.startTime as number;
  // circa prices the NBA game; draftkings already does (spread -2.5, moneyline -125/+105), and adds a total.
  await c.push([
    circaTick('moneyline', LAL, -130),
    circaTick('moneyline', BOS, 110),
    circaTick('point_spread', LAL, -108, -3),
    circaTick('point_spread', BOS, -112, 3),
    circaTick('total_points', 'Over', -110, 229.5),
    circaTick('total_points', 'Under', -110, 229.5),
    {
      ...(c.ticks.find((t) => t.book === 'draftkings' && t.league === 'nba' && t.market === 'point_spread') as RawTick),
      market: 'total_points',
      outcome: 'Over',
      line: 228.5,
      priceAmerican: -115,
      selectionId: null,
    },
    {
      ...(c.ticks.find((t) => t.book === 'draftkings' && t.league === 'nba' && t.market === 'point_spread') as RawTick),
      market: 'total_points',
      outcome: 'Under',
      line: 228.5,
      priceAmerican: -105,
      selectionId: null,
    },
  ]);
  c.advance(1_000);
  // Round 1: the public is on the Lakers at both books; at circa the money is on Boston.
  await c.push([dkRound(0.62), circaRound(0.66, 0.4)]);
  at.push(c.clock.now());
});
afterAll(async () => {
  await c.sys.close();
});

const dkRecord = (fetchedAt: number, spreadBets: number): Row => ({
  event_id: nba,
  sport: 'basketball',
  league: 'nba',
  sportsbook: 'draftkings',
  home_team: LAL,
  away_team: BOS,
  event_start_time: iso(startTime),
  is_live: false,
  spread: {
    away_odds: 2.5,
    home_odds: -2.5,
    away_price: -110,
    home_price: -110,
    handle_pct: { away: 0.35, home: 0.65 },
    bets_pct: { away: Math.round((1 - spreadBets) * 1000) / 1000, home: spreadBets },
  },
  total: { line: 228.5, over_price: -115, under_price: -105, handle_pct: { over: 0.72, under: 0.28 }, bets_pct: { over: 0.7, under: 0.3 } },
  moneyline: { away_odds: 105, home_odds: -125, handle_pct: { away: 0.34, home: 0.66 }, bets_pct: { away: 0.4, home: 0.6 } },
  fetched_at: iso(fetchedAt),
  signals: { spread: { divergence: null, rlm: null }, total: { divergence: null, rlm: null }, moneyline: { divergence: null, rlm: null } },
});

describe('GET /splits', () => {
  it("serves one record per event and sportsbook, joined to each book's line at the snapshot, with the signals", async () => {
    const r = await c.sys.get('/api/v1/splits?league=nba', c.keys.pro);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      data: [
        dkRecord(at[0] as number, 0.62),
        {
          event_id: nba,
          sport: 'basketball',
          league: 'nba',
          sportsbook: 'circa',
          home_team: LAL,
          away_team: BOS,
          event_start_time: iso(startTime),
          is_live: false,
          spread: {
            away_odds: 3,
            home_odds: -3,
            away_price: -112,
            home_price: -108,
            handle_pct: { away: 0.6, home: 0.4 },
            bets_pct: { away: 0.34, home: 0.66 },
          },
          moneyline: { away_odds: 110, home_odds: -130, handle_pct: { away: 0.55, home: 0.45 }, bets_pct: { away: 0.42, home: 0.58 } },
          fetched_at: iso(at[0] as number),
          signals: {
            spread: { divergence: { sharp_side: 'away', gap: 0.26 }, rlm: null },
            moneyline: { divergence: { sharp_side: 'away', gap: 0.13 }, rlm: null },
          },
        },
      ],
      pagination: { limit: 100, offset: 0, has_more: false, next_offset: null, count: 2, total: 2 },
      meta: {
        count: 2,
        total: 2,
        last_update: iso(at[0] as number),
        pagination: { limit: 100, offset: 0, has_more: false, next_offset: null, count: 2, total: 2 },
      },
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('accepts event and event_id alike, and filters by sportsbook, market and signal', async () => {
    const books = async (query: string): Promise<string[]> => {
      const r = await c.sys.get(`/api/v1/splits?${query}`, c.keys.pro);
      expect([query, r.status]).toEqual([query, 200]);
      return (r.body['data'] as Row[]).map((x) => `${String(x['event_id'])}/${String(x['sportsbook'])}`);
    };
    const both = [`${nba}/draftkings`, `${nba}/circa`];
    expect(await books(`event=${nba}`)).toEqual(both);
    expect(await books(`event_id=${nba}`)).toEqual(both);
    expect(await books('event=nfl-nothing')).toEqual([]);
    expect(await books('sport=football')).toEqual([]);
    expect(await books('sportsbook=circa')).toEqual([`${nba}/circa`]);
    // circa publishes no total split for this game: `market=total` keeps draftkings only.
    expect(await books('market=total')).toEqual([`${nba}/draftkings`]);
    expect(await books('market=spread,moneyline')).toEqual(both);
    expect(await books('signal=divergence')).toEqual([`${nba}/circa`]);
    expect(await books('signal=divergence&market=total')).toEqual([]);
    expect(await books('signal=rlm')).toEqual([]);
    const page = await c.sys.get('/api/v1/splits?limit=1', c.keys.pro);
    expect(page.body['pagination']).toEqual({ limit: 1, offset: 0, has_more: true, next_offset: 1, count: 1, total: 2 });
    expect((page.body['data'] as Row[]).map((x) => x['sportsbook'])).toEqual(['draftkings']);
  });

  it('flags reverse line movement once circa moves the line toward the money, against the tickets', async () => {
    // circa: Lakers -3 -> -2 (the public side got a better number), old line pulled.
    await c.push([
      circaTick('point_spread', LAL, -110, -2),
      circaTick('point_spread', BOS, -110, 2),
      circaTick('point_spread', LAL, null, -3),
      circaTick('point_spread', BOS, null, 3),
    ]);
    c.advance(FIVE_MIN);
    await c.push([dkRound(0.63), circaRound(0.68, 0.38)]);
    at.push(c.clock.now());
    const r = await c.sys.get('/api/v1/splits?signal=rlm', c.keys.pro);
    expect((r.body['data'] as Row[]).map((x) => [x['sportsbook'], (x['spread'] as Row)['home_odds'], x['signals']])).toEqual([
      [
        'circa',
        -2,
        {
          spread: {
            divergence: { sharp_side: 'away', gap: 0.3 },
            rlm: { public_side: 'home', public_bets_pct: 0.68, sharp_side: 'away', open_line: -3, current_line: -2, move: 1 },
          },
          moneyline: { divergence: { sharp_side: 'away', gap: 0.13 }, rlm: null },
        },
      ],
    ]);
  });

  it('serves free keys too, 60 s late like their odds, without the lines of a book whose odds their tier does not get', async () => {
    c.advance(61_000);
    await c.push([dkRound(0.64)]);
    const newest = c.clock.now();
    const free = await c.sys.get('/api/v1/splits?league=nba', c.keys.free);
    expect([free.status, free.headers.get('x-data-delay')]).toEqual([200, '60']);
    // The round before is more than a minute old; the one just taken is not visible yet.
    expect((free.body['data'] as Row[]).map((x) => [x['sportsbook'], x['fetched_at']])).toEqual([
      ['draftkings', iso(at[1] as number)],
      ['circa', iso(at[1] as number)],
    ]);
    expect((free.body['meta'] as Row)['last_update']).toBe(iso(at[1] as number));
    const pro = await c.sys.get('/api/v1/splits?league=nba&sportsbook=draftkings', c.keys.pro);
    expect((pro.body['data'] as Row[])[0]).toEqual(dkRecord(newest, 0.64));
    c.advance(61_000);
    const later = (await c.sys.get('/api/v1/splits?league=nba', c.keys.free)).body['data'] as Row[];
    expect(later[0]).toEqual(dkRecord(newest, 0.64));
    // circa's odds are for pro and up: free keys get its splits, not its lines and prices.
    expect(later[1]?.['spread']).toEqual({
      away_odds: null,
      home_odds: null,
      away_price: null,
      home_price: null,
      handle_pct: { away: 0.62, home: 0.38 },
      bets_pct: { away: 0.32, home: 0.68 },
    });
    expect((later[1]?.['signals'] as Row)['spread']).toEqual({
      divergence: { sharp_side: 'away', gap: 0.3 },
      rlm: { public_side: 'home', public_bets_pct: 0.68, sharp_side: 'away', open_line: null, current_line: null, move: 1 },
    });
    at.push(newest);
  });
});

describe('GET /splits/history', () => {
  it('returns every snapshot of the event from ClickHouse, oldest first, with its meta', async () => {
    for (const end = Date.now() + 10_000; (await storedHistoryRows()) < 26 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 50));
    expect(await storedHistoryRows()).toBe(26);
    const r = await c.sys.get(`/api/v1/splits/history?event_id=${nba}`, c.keys.pro);
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row[];
    expect(data.map((e) => [e['book'], e['ts']])).toEqual([
      ['draftkings', iso(at[0] as number)],
      ['circa', iso(at[0] as number)],
      ['draftkings', iso(at[1] as number)],
      ['circa', iso(at[1] as number)],
      ['draftkings', iso(at[2] as number)],
    ]);
    expect(data[0]).toEqual({
      book: 'draftkings',
      sportsbook: 'draftkings',
      ts: iso(at[0] as number),
      timestamp: (at[0] as number) / 1000,
      spread: {
        away_line: 2.5,
        home_line: -2.5,
        away_price: -110,
        home_price: -110,
        handle_pct: { away: 0.35, home: 0.65 },
        bets_pct: { away: 0.38, home: 0.62 },
      },
      total: {
        line: 228.5,
        over_price: -115,
        under_price: -105,
        handle_pct: { over: 0.72, under: 0.28 },
        bets_pct: { over: 0.7, under: 0.3 },
      },
      moneyline: { away_odds: 105, home_odds: -125, handle_pct: { away: 0.34, home: 0.66 }, bets_pct: { away: 0.4, home: 0.6 } },
    });
    expect((data[3]?.['spread'] as Row)['home_line']).toBe(-2);
    expect(r.body['meta']).toEqual({
      event_id: nba,
      total: 5,
      matched: 5,
      books: ['circa', 'draftkings'],
      oldest: iso(at[0] as number),
      newest: iso(at[2] as number),
      updated_at: iso(at[2] as number),
    });
  });

  it('keeps the newest `limit` entries, ignores the limit for one sportsbook, and bounds by RFC 3339 or Unix seconds', async () => {
    const series = async (query: string): Promise<[unknown, unknown][]> => {
      const r = await c.sys.get(`/api/v1/splits/history?event_id=${nba}&${query}`, c.keys.pro);
      expect([query, r.status]).toEqual([query, 200]);
      return (r.body['data'] as Row[]).map((e) => [e['book'], e['ts']]);
    };
    expect(await series('limit=2')).toEqual([
      ['circa', iso(at[1] as number)],
      ['draftkings', iso(at[2] as number)],
    ]);
    expect(await series('sportsbook=draftkings&limit=1')).toEqual([0, 1, 2].map((i) => ['draftkings', iso(at[i] as number)]));
    const round2 = [
      ['draftkings', iso(at[1] as number)],
      ['circa', iso(at[1] as number)],
    ];
    expect(await series(`start_time=${iso(at[1] as number)}&end_time=${iso((at[2] as number) - 1)}`)).toEqual(round2);
    expect(await series(`start_time=${(at[1] as number) / 1000}&end_time=${((at[2] as number) - 1) / 1000}`)).toEqual(round2);
    const withOffset = new Date((at[1] as number) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await series(`start_time=${encodeURIComponent(withOffset)}&sportsbook=circa`)).toEqual([['circa', iso(at[1] as number)]]);
    // A client that forgets to encode the `+` sends a space: still read as the offset.
    expect(await series(`start_time=${withOffset}&sportsbook=circa`)).toEqual([['circa', iso(at[1] as number)]]);
    const empty = await c.sys.get('/api/v1/splits/history?event_id=nba-19990101-x-y', c.keys.pro);
    expect(empty.body['data']).toEqual([]);
    expect(empty.body['meta']).toMatchObject({ event_id: 'nba-19990101-x-y', total: 0, books: [], oldest: null, newest: null });
  });

  it('serves free keys the history up to a minute ago', async () => {
    await c.push([dkRound(0.65)]);
    const r = await c.sys.get(`/api/v1/splits/history?event_id=${nba}&sportsbook=draftkings`, c.keys.free);
    expect((r.body['data'] as Row[]).map((e) => e['ts'])).toEqual([0, 1, 2].map((i) => iso(at[i] as number)));
    const pro = await c.sys.get(`/api/v1/splits/history?event_id=${nba}&sportsbook=draftkings`, c.keys.pro);
    expect(pro.body['data'] as Row[]).toHaveLength(4);
  });

  it('drops rows older than 48 hours (the TTL in the DDL)', async () => {
    const now = Date.now();
    const row = (ms: number, event: string): Row => ({
      snapshot_time: new Date(ms).toISOString().replace('T', ' ').replace('Z', ''),
      event_id: event,
      sport: 'basketball',
      league: 'nba',
      start_time: new Date(ms).toISOString().replace('T', ' ').replace('Z', ''),
      is_live: false,
      sportsbook: 'draftkings',
      market: 'spread',
      side: 'home',
      line: -3,
      odds_american: -110,
      bet_pct: 0.6,
      handle_pct: 0.6,
      ingested_at: new Date(ms).toISOString().replace('T', ' ').replace('Z', ''),
    });
    for (const table of ['splits_history', 'splits_latest']) {
      await c.sys.store.insert(table, [row(now - 49 * 3_600_000, 'ttl-old'), row(now - 47 * 3_600_000, 'ttl-recent')]);
      await c.sys.store.exec(`OPTIMIZE TABLE ${table} FINAL`);
      const left = await c.sys.store.query<{ event_id: string }>(
        `SELECT event_id FROM ${table} WHERE event_id LIKE 'ttl-%' ORDER BY event_id`,
      );
      expect([table, left.map((x) => x.event_id)]).toEqual([table, ['ttl-recent']]);
    }
  });
});

describe('docs/analysts.md', () => {
  it('has splits queries that run on the store as written', async () => {
    const doc = readFileSync(new URL('../docs/analysts.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Betting splits'));
    const queries = [
      ...section.slice(0, section.indexOf('\n## ', 5) > 0 ? section.indexOf('\n## ', 5) : undefined).matchAll(/```sql\n([\s\S]*?)```/g),
    ].map((m) => (m[1] as string).replaceAll('nba-20261123-bos-lal', nba));
    expect(queries.length).toBeGreaterThanOrEqual(5);
    const results = [];
    for (const sql of queries) results.push(await c.sys.store.query(sql.trim().replace(/;$/, '')));
    // The latest snapshot of the game: draftkings 6 sides, circa 4.
    expect(results[0]).toHaveLength(10);
    // circa's spread divergence is on the list.
    expect(results[1]).toEqual(
      expect.arrayContaining([expect.objectContaining({ event_id: nba, sportsbook: 'circa', market: 'spread', sharp_side: 'away' })]),
    );
    // circa's Lakers spread went from -3 to -2 under 68 % of the tickets.
    expect(results[2]).toEqual([
      expect.objectContaining({ event_id: nba, sportsbook: 'circa', public_side: 'home', open_line: -3, current_line: -2, move: 1 }),
    ]);
  });
});

describe('bad input', () => {
  it('answers every bad parameter with 400 invalid_request naming it', async () => {
    const cases: [string, string][] = [
      ['/api/v1/splits/history', 'event_id'],
      ['/api/v1/splits/history?event_id=', 'event_id'],
      [`/api/v1/splits/history?event_id=${nba}&start_time=yesterday`, 'start_time'],
      [`/api/v1/splits/history?event_id=${nba}&start_time=2026-13-01T00:00:00Z`, 'start_time'],
      [`/api/v1/splits/history?event_id=${nba}&end_time=2026-11-22`, 'end_time'],
      [`/api/v1/splits/history?event_id=${nba}&end_time=-5`, 'end_time'],
      [`/api/v1/splits/history?event_id=${nba}&start_time=1800000000&end_time=1700000000`, 'start_time'],
      [`/api/v1/splits/history?event_id=${nba}&limit=0`, 'limit'],
      [`/api/v1/splits/history?event_id=${nba}&limit=201`, 'limit'],
      [`/api/v1/splits/history?event_id=${nba}&limit=ten`, 'limit'],
      [`/api/v1/splits/history?event_id=${nba}&sportsbook=fanduel`, 'sportsbook'],
      ['/api/v1/splits?sportsbook=pinnacle', 'sportsbook'],
      ['/api/v1/splits?market=point_spread', 'market'],
      ['/api/v1/splits?signal=steam', 'signal'],
      ['/api/v1/splits?sport=quidditch', 'sport'],
      ['/api/v1/splits?league=__proto__', 'league'],
      ['/api/v1/splits?limit=201', 'limit'],
      ['/api/v1/splits?offset=-1', 'offset'],
    ];
    for (const [path, param] of cases) {
      const r = await c.sys.get(path, c.keys.pro);
      expect([path, r.status, (r.body['error'] as Row | undefined)?.['code']]).toEqual([path, 400, 'invalid_request']);
      expect([path, (r.body['error'] as Row)['message']]).toEqual([path, expect.stringContaining(`'${param}'`)]);
      expect((r.body['error'] as Row)['docs']).toBe('/api/v1/docs/errors#invalid_request');
    }
  });

  it('documents both routes in the OpenAPI document, from the route schemas', async () => {
    const doc = (await c.sys.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, Row>> };
    const list = doc.paths['/api/v1/splits']?.['get'];
    const history = doc.paths['/api/v1/splits/history']?.['get'];
    expect(list?.['tags']).toEqual(['splits']);
    expect((list?.['parameters'] as Row[]).map((p) => p['name'])).toEqual(
      expect.arrayContaining(['sport', 'league', 'sportsbook', 'event', 'event_id', 'market', 'signal', 'limit', 'offset']),
    );
    expect((history?.['parameters'] as Row[]).filter((p) => p['required'] === true).map((p) => p['name'])).toEqual(['event_id']);
    const item = JSON.stringify((list?.['responses'] as Row)['200']);
    for (const field of ['fetched_at', 'handle_pct', 'bets_pct', 'signals', 'sharp_side', 'public_side'])
      expect([field, item.includes(`"${field}"`)]).toEqual([field, true]);
    expect(JSON.stringify((history?.['responses'] as Row)['200'])).toContain('"oldest"');
  });

  it('needs a key like every other route', async () => {
    expect((await c.sys.get('/api/v1/splits')).status).toBe(401);
    expect((await c.sys.get(`/api/v1/splits/history?event_id=${nba}`)).status).toBe(401);
  });
});
