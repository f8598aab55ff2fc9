/**
 * SPEC "Authentication": the key as header, bearer token or query parameter on every endpoint;
 * 401 unauthorized without or with a wrong key; the five headers on every authenticated
 * response, errors included; keys never reach the logs.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../pipeline/clock.js';
import { ScriptedFeed } from '../support/scripted-feed.js';
import { fixtureTicks } from '../support/fixture.js';
import { startTestSystem } from '../support/system.js';
import type { TestSystem } from '../support/system.js';

type Row = Record<string, unknown>;
let sys: TestSystem;
let logs = '';
let eventId = '';

/** Every authenticated GET endpoint of the contract. */
const ENDPOINTS = (): string[] => [
  '/api/v1/sports',
  '/api/v1/sports/basketball',
  '/api/v1/leagues',
  '/api/v1/sportsbooks',
  '/api/v1/sportsbooks/draftkings',
  '/api/v1/markets',
  '/api/v1/teams',
  '/api/v1/events',
  `/api/v1/events/${eventId}`,
  `/api/v1/events/${eventId}/markets`,
  `/api/v1/events/${eventId}/odds`,
  '/api/v1/odds',
  '/api/v1/odds/best',
  `/api/v1/odds/comparison?event=${eventId}`,
  `/api/v1/odds/delta?since=${encodeURIComponent(new Date().toISOString())}`,
];

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  sys = await startTestSystem(
    {},
    { feed: () => new ScriptedFeed(fixtureTicks(clock.now())), clock },
    { logger: pino({ level: 'trace' }, sink) },
  );
  await sys.drained();
  const r = await sys.get('/api/v1/events?league=nba', sys.demoKeys.enterprise);
  eventId = ((r.body['data'] as Row[])[0]?.['id'] as string) ?? '';
});
afterAll(async () => {
  await sys.close();
});

describe('the three ways to present a key', () => {
  it('accepts X-API-Key, Authorization: Bearer and ?api_key= on every endpoint', async () => {
    const key = sys.demoKeys.enterprise;
    for (const path of ENDPOINTS()) {
      const sep = path.includes('?') ? '&' : '?';
      const header = await sys.get(path, key);
      const bearer = await sys.get(path, undefined, { authorization: `Bearer ${key}` });
      const query = await sys.get(`${path}${sep}api_key=${encodeURIComponent(key)}`);
      expect([path, header.status, bearer.status, query.status]).toEqual([path, 200, 200, 200]);
    }
    const batch = await sys.post('/api/v1/odds/batch', { event_ids: [eventId] }, undefined, { authorization: `bearer ${key}` });
    expect(batch.status).toBe(200);
  });

  it('answers 401 unauthorized on every endpoint without a key, with a wrong key, or a malformed bearer', async () => {
    for (const path of ENDPOINTS()) {
      const variants: Record<string, string>[] = [
        {},
        { 'x-api-key': 'wrong-key-123' },
        { authorization: 'Bearer ' },
        { authorization: 'Basic abc' },
      ];
      for (const headers of variants) {
        const r = await sys.get(path, undefined, headers);
        expect([path, headers, r.status, (r.body['error'] as Row)['code']]).toEqual([path, headers, 401, 'unauthorized']);
        expect(r.headers.get('x-request-id')).toBeTruthy();
      }
    }
    expect((await sys.post('/api/v1/odds/batch', { event_ids: ['x'] })).status).toBe(401);
  });

  it('needs no key for /health', async () => {
    expect((await sys.get('/api/v1/health')).status).toBe(200);
  });
});

describe('headers of authenticated responses', () => {
  it('carries X-RateLimit-Limit, -Remaining, -Reset, X-Data-Delay and X-Request-Id, errors included', async () => {
    const cases: [string, number][] = [
      ['/api/v1/odds', 200],
      ['/api/v1/odds?limit=0', 400],
      ['/api/v1/events/nope', 404],
      ['/api/v1/odds?sportsbook=pinnacle', 403],
      ['/api/v1/odds/delta?since=2001-01-01T00:00:00Z', 410],
    ];
    const ids = new Set<string>();
    for (const tier of ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const) {
      const expected = { free: ['12', '60'], hobby: ['120', '0'], pro: ['300', '0'], sharp: ['1000', '0'], enterprise: ['10000', '0'] }[
        tier
      ];
      let remaining = Number(expected[0]);
      const key = `${tier}-headers-${Math.random().toString(36).slice(2)}`;
      sys.keys.add(key, tier);
      for (const [path, status] of cases) {
        const r = await sys.get(path, key);
        const wanted = status === 403 && tier !== 'free' && tier !== 'hobby' ? 200 : status;
        expect([tier, path, r.status]).toEqual([tier, path, wanted]);
        remaining--;
        expect([
          tier,
          path,
          r.headers.get('x-ratelimit-limit'),
          r.headers.get('x-ratelimit-remaining'),
          r.headers.get('x-data-delay'),
        ]).toEqual([tier, path, expected[0], String(remaining), expected[1]]);
        const reset = Number(r.headers.get('x-ratelimit-reset'));
        // The sliding window frees its oldest slot 60 s after that request, rounded up to a second.
        expect(Number.isInteger(reset) && reset > Date.now() / 1000 && reset <= Math.ceil(Date.now() / 1000) + 60).toBe(true);
        const id = r.headers.get('x-request-id') ?? '';
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        ids.add(id);
      }
    }
    expect(ids.size).toBe(25);
  });
});

describe('key secrecy', () => {
  it('never writes a key to the logs, even on errors', async () => {
    const key = sys.demoKeys.pro;
    await sys.get(`/api/v1/odds?api_key=${encodeURIComponent(key)}&limit=0`);
    await sys.get('/api/v1/events/nope', key);
    await sys.get('/api/v1/odds', undefined, { authorization: `Bearer ${key}` });
    await sys.get('/api/v1/odds', 'a-wrong-key-that-must-not-be-logged');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(key);
    expect(logs).not.toContain('a-wrong-key-that-must-not-be-logged');
  });
});
