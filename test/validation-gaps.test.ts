/**
 * What went wrong: `/teams?sport=nope` and `league=nope` answered 200 with an empty list where
 * every other route says 404; `date=2026-02-30` and `2026-13-01` passed the YYYY-MM-DD pattern;
 * `limit=0x10` was read as 16 (ajv coerces with JavaScript's Number); and a body declared as
 * gzip or UTF-16 was parsed as if it were plain UTF-8 JSON. Each is now refused, naming why.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

type Row = Record<string, unknown>;
let s: BareApp;

beforeAll(async () => {
  s = await startBareApp();
});
afterAll(async () => {
  await s.close();
});

async function get(path: string): Promise<{ status: number; error?: Row }> {
  const r = await s.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: { 'x-api-key': s.key } });
  return { status: r.statusCode, error: (r.json() as Row)['error'] as Row | undefined };
}

async function post(body: string | Buffer, headers: Record<string, string>): Promise<{ status: number; error?: Row }> {
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/odds/batch', payload: body, headers: { 'x-api-key': s.key, ...headers } });
  return { status: r.statusCode, error: (r.json() as Row)['error'] as Row | undefined };
}

describe('validation gaps', () => {
  it('answers /teams with an unknown sport or league 404, as /leagues and /markets do', async () => {
    expect(await get('/teams?sport=nope')).toEqual({
      status: 404,
      error: { code: 'not_found', message: "Unknown sport 'nope'", docs: '/api/v1/docs/errors#not_found' },
    });
    expect(await get('/teams?league=nope')).toEqual({
      status: 404,
      error: { code: 'not_found', message: "Unknown league 'nope'", docs: '/api/v1/docs/errors#not_found' },
    });
    expect((await get('/leagues?sport=nope')).status).toBe(404);
    expect((await get('/teams?sport=basketball&league=nba')).status).toBe(200);
  });

  it('refuses dates that are not on the calendar, and accepts a leap day that is', async () => {
    for (const date of ['2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '2026-02-29']) {
      for (const path of ['/events', '/odds']) {
        expect([path, date, await get(`${path}?date=${date}`)]).toEqual([
          path,
          date,
          { status: 400, error: expect.objectContaining({ message: `Invalid query parameter 'date': '${date}' is not a calendar date` }) },
        ]);
      }
    }
    expect((await get('/events?date=2028-02-29')).status).toBe(200);
    expect((await get('/odds/delta?since=2026-02-30T00:00:00Z')).status).toBe(400);
  });

  it('reads numbers only in plain decimal: hex, exponents, padding and signs are refused', async () => {
    for (const limit of ['0x10', '1e1', '%205', '5%20', '+5', '0b11', '0o7', '1_0', '10.0']) {
      const r = await get(`/events?limit=${limit}`);
      expect([limit, r.status, r.error?.['message']]).toEqual([
        limit,
        400,
        expect.stringMatching(/^Invalid query parameter 'limit': must be an integer in decimal digits/),
      ]);
    }
    for (const odds of ['0x10', 'Infinity', '1e3', '-', '']) {
      const r = await get(`/odds?min_odds=${odds}`);
      expect([odds, r.status]).toEqual([odds, 400]);
    }
    expect((await get('/events?limit=16')).status).toBe(200);
    expect((await get('/odds?min_odds=-110.5')).status).toBe(200);
  });

  it('refuses a compressed or non-UTF-8 body with 415 instead of reading it as JSON', async () => {
    const json = JSON.stringify({ event_ids: ['nba-20261122-bos-lal'] });
    expect(await post(gzipSync(json), { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toEqual({
      status: 415,
      error: {
        code: 'unsupported_media_type',
        message: "Invalid body: Content-Encoding 'gzip' is not accepted; send uncompressed JSON",
        docs: '/api/v1/docs/errors#unsupported_media_type',
      },
    });
    expect(await post(Buffer.from(json, 'utf16le'), { 'content-type': 'application/json; charset=utf-16' })).toEqual({
      status: 415,
      error: {
        code: 'unsupported_media_type',
        message: "Invalid body: charset 'utf-16' is not accepted; send JSON in UTF-8",
        docs: '/api/v1/docs/errors#unsupported_media_type',
      },
    });
    expect((await post(json, { 'content-type': 'application/xml' })).status).toBe(415);
    expect((await post(json, { 'content-type': 'application/json; charset=UTF-8', 'content-encoding': 'identity' })).status).toBe(200);
    expect((await post(json, { 'content-type': 'application/json' })).status).toBe(200);
  });
});
