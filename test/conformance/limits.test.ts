/**
 * SPEC "Limits" and tier gating: requests per minute (429 rate_limited with Retry-After), data
 * delay (the free tier reads a board 60 s behind), sportsbooks per tier (the fixed free pair,
 * hobby 5, pro 15, sharp and enterprise all; 403 feature_required naming the tier that has it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPORTSBOOKS, TIERS, allowedBooks } from '../../schemas/index.js';
import { FIXTURE_ROWS, startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;

beforeAll(async () => {
  c = await startConformance();
});
afterAll(async () => {
  await c.sys.close();
});

async function books(path: string, key: string): Promise<string[]> {
  const r = await c.sys.get(path, key);
  expect([path, r.status]).toEqual([path, 200]);
  return [...new Set((r.body['data'] as Row[]).map((x) => x['sportsbook'] as string))].sort();
}

describe('sportsbooks by tier', () => {
  it('serves each tier its default set when no sportsbook is asked for', async () => {
    const onBoard = new Set(['betmgm', 'bovada', 'draftkings', 'espnbet', 'fanduel', 'pinnacle']);
    for (const tier of ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const) {
      const expected = [...allowedBooks(tier, SPORTSBOOKS)].filter((b) => onBoard.has(b)).sort();
      expect([tier, await books('/api/v1/odds?limit=1000', c.keys[tier])]).toEqual([tier, expected]);
    }
    expect(await books('/api/v1/odds?limit=1000', c.keys.free)).toEqual(['draftkings', 'fanduel']);
    expect(await books('/api/v1/odds?limit=1000', c.keys.hobby)).toEqual(['betmgm', 'draftkings', 'fanduel']);
    expect(await books('/api/v1/odds?limit=1000', c.keys.pro)).toEqual(['betmgm', 'draftkings', 'espnbet', 'fanduel', 'pinnacle']);
    expect(await books('/api/v1/odds?limit=1000', c.keys.sharp)).toEqual([...onBoard].sort());
  });

  it('lets hobby and pro pick any book open to their tier, up to their maximum', async () => {
    expect(await books('/api/v1/odds?sportsbook=espnbet,draftkings', c.keys.hobby)).toEqual(['draftkings', 'espnbet']);
    expect(await books('/api/v1/odds?sportsbook=bovada', c.keys.pro)).toEqual(['bovada']);
    expect(await books('/api/v1/odds?sportsbook=draftkings&add_sportsbook=espnbet', c.keys.hobby)).toEqual(['draftkings', 'espnbet']);
    expect(await books('/api/v1/odds?add_sportsbook=bovada', c.keys.sharp)).toContain('bovada');
  });

  it('answers 403 feature_required naming the tier for a book above the tier, or too many books', async () => {
    const cases: [string, string, string][] = [
      ['free', '/api/v1/odds?sportsbook=pinnacle', "Sportsbook 'pinnacle' needs the pro tier or higher; this key is free"],
      ['free', '/api/v1/odds?add_sportsbook=betmgm', "Sportsbook 'betmgm' needs the hobby tier or higher; this key is free"],
      ['hobby', '/api/v1/odds?sportsbook=bovada', "Sportsbook 'bovada' needs the pro tier or higher; this key is hobby"],
      [
        'hobby',
        '/api/v1/odds?add_sportsbook=espnbet',
        'The hobby tier serves at most 5 sportsbooks per request (asked for 6); the pro tier serves more',
      ],
      [
        'pro',
        '/api/v1/odds?sportsbook=pinnacle,circa,bookmaker,betfair_ex_eu,lowvig,betonlineag,draftkings,fanduel,betmgm,caesars,espnbet,betrivers,fanatics,hardrockbet,bovada,mybookieag',
        'The pro tier serves at most 15 sportsbooks per request (asked for 16); the sharp tier serves more',
      ],
      ['free', '/api/v1/odds/best?sportsbook=pinnacle', "Sportsbook 'pinnacle' needs the pro tier or higher; this key is free"],
      [
        'free',
        '/api/v1/odds/delta?since=2030-01-01T00:00:00Z&sportsbook=pinnacle',
        "Sportsbook 'pinnacle' needs the pro tier or higher; this key is free",
      ],
    ];
    for (const [tier, path, message] of cases) {
      const r = await c.sys.get(path, c.keys[tier as 'free']);
      expect([tier, path, r.status, r.body]).toMatchObject([
        tier,
        path,
        403,
        { error: { code: 'feature_required', message, docs: '/api/v1/docs/errors#feature_required', tier } },
      ]);
    }
    const batch = await c.sys.post('/api/v1/odds/batch', { event_ids: ['x'], sportsbook: 'pinnacle' }, c.keys.hobby);
    expect([batch.status, (batch.body['error'] as Row)['code']]).toEqual([403, 'feature_required']);
  });

  it("applies the tier to an event's odds too", async () => {
    const id = ((await c.sys.get('/api/v1/events?league=nba', c.keys.free)).body['data'] as Row[])[0]?.['id'] as string;
    expect(await books(`/api/v1/events/${id}/odds`, c.keys.free)).toEqual(['draftkings', 'fanduel']);
    expect((await c.sys.get(`/api/v1/events/${id}/odds?sportsbook=pinnacle`, c.keys.free)).status).toBe(403);
  });
});

describe('data delay', () => {
  it('serves the free tier from a board 60 s behind, and the others in real time', async () => {
    const tick = c.ticks.find((t) => t.book === 'draftkings' && t.outcome === 'Kansas City Chiefs');
    if (!tick) throw new Error('fixture changed');
    const price = async (key: string): Promise<unknown> =>
      ((await c.sys.get('/api/v1/odds?league=nfl&sportsbook=draftkings&limit=1', key)).body['data'] as Row[])[0]?.['odds_american'];
    await c.push([{ ...tick, priceAmerican: -199 }]);
    expect(await price(c.keys.hobby)).toBe(-199);
    expect(await price(c.keys.free)).toBe(-150);
    c.advance(59_000);
    expect(await price(c.keys.free)).toBe(-150);
    c.advance(1_500);
    expect(await price(c.keys.free)).toBe(-199);
    await c.push([tick]);
    c.advance(61_000);
    expect(await price(c.keys.free)).toBe(-150);
  });

  it('delays events with their odds: a new event reaches free keys a minute late', async () => {
    const t = c.ticks.find((x) => x.league === 'nfl' && x.book === 'fanduel');
    if (!t) throw new Error('fixture changed');
    const fresh = {
      ...t,
      homeTeam: 'Dallas Cowboys',
      awayTeam: 'New York Giants',
      outcome: 'Dallas Cowboys',
      bookEventId: 'fd-999',
      startTime: t.startTime + 7 * 86_400_000,
    };
    await c.push([fresh]);
    const count = async (key: string): Promise<number> =>
      ((await c.sys.get('/api/v1/events?league=nfl', key)).body['data'] as Row[]).length;
    expect(await count(c.keys.pro)).toBe(2);
    expect(await count(c.keys.free)).toBe(1);
    c.advance(61_000);
    expect(await count(c.keys.free)).toBe(2);
    await c.push([{ ...fresh, status: 'suspended', priceAmerican: null }]);
    c.advance(61_000);
    expect((await c.sys.get('/api/v1/odds?limit=1000', c.keys.sharp)).body['data']).toHaveLength(FIXTURE_ROWS);
  });
});

describe('requests per minute', () => {
  it("answers 429 rate_limited with Retry-After once the minute's requests are spent", async () => {
    const key = c.newKey('free');
    const limit = TIERS.free.requestsPerMinute;
    for (let i = 1; i <= limit; i++) {
      const r = await c.sys.get('/api/v1/sports', key);
      expect([i, r.status, r.headers.get('x-ratelimit-remaining')]).toEqual([i, 200, String(limit - i)]);
    }
    const over = await c.sys.get('/api/v1/odds', key);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/^Rate limit of 12 requests per minute reached; retry in \d+ s$/),
        docs: '/api/v1/docs/errors#rate_limited',
        retry_after: expect.any(Number),
      },
      retry_after: expect.any(Number),
    });
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('x-ratelimit-limit')).toBe('12');
    expect(Number(over.headers.get('x-ratelimit-reset')) - Math.ceil(Date.now() / 1000)).toBeLessThanOrEqual(retry);
    // Another key of the same tier has its own window.
    expect((await c.sys.get('/api/v1/sports', c.newKey('free'))).status).toBe(200);
  });

  it('honours a per-key limit (Enterprise is custom)', async () => {
    const key = c.newKey('enterprise', 3);
    for (let i = 0; i < 3; i++) expect((await c.sys.get('/api/v1/sports', key)).status).toBe(200);
    const over = await c.sys.get('/api/v1/sports', key);
    expect([over.status, over.headers.get('x-ratelimit-limit')]).toEqual([429, '3']);
  });
});
