/**
 * Random and malformed parameters, paths, headers and bodies thrown at every endpoint for a
 * bounded time: never a 5xx, never a body outside the envelopes (data envelope on success, the
 * error envelope with a catalogue code and its status otherwise).
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../api/errors.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

const FUZZ_MS = Number(process.env['FUZZ_MS'] ?? 10_000);
type Row = Record<string, unknown>;
let c: Conformance;
let eventId = '';

beforeAll(async () => {
  c = await startConformance();
  eventId = ((await c.sys.get('/api/v1/events?league=nba', c.keys.sharp)).body['data'] as Row[])[0]?.['id'] as string;
});
afterAll(async () => {
  await c.sys.close();
});

const PARAMS = [
  'sport', 'league', 'sportsbook', 'add_sportsbook', 'market', 'event', 'live', 'team', 'date', 'q', 'min_odds', 'max_odds', 'limit', 'offset',
  'sort', 'fields', 'group_by', 'cursor', 'since', 'include_empty', 'region', 'sharp', 'catalog', 'include_unlisted', 'include_inactive', 'has_score', 'api_key',
  'event_id', 'books', 'from', 'to', 'graded', 'devig_book',
];

const PATHS = (): string[] => [
  '/api/v1/health', '/api/v1/sports', '/api/v1/sports/basketball', '/api/v1/sports/{x}', '/api/v1/leagues', '/api/v1/sportsbooks',
  '/api/v1/sportsbooks/{x}', '/api/v1/markets', '/api/v1/teams', '/api/v1/events', `/api/v1/events/${eventId}`, '/api/v1/events/{x}',
  `/api/v1/events/${eventId}/markets`, '/api/v1/events/{x}/markets', `/api/v1/events/${eventId}/odds`, '/api/v1/events/{x}/odds',
  '/api/v1/odds', '/api/v1/odds/best', '/api/v1/odds/comparison', '/api/v1/odds/delta', '/api/v1/odds/batch', '/api/v1/openapi.json',
  '/api/v1/docs/errors', '/api/v1/{x}', '/{x}',
  '/api/v1/gamestate', '/api/v1/gamestate/{x}', '/api/v1/odds/closing', '/api/v1/historical/odds/closing', '/api/v1/historical/clv',
  '/api/v1/opportunities/ev/history',
];

const interesting = fc.constantFrom(
  '', ' ', 'true', 'false', '1', '0', '-1', '1.5', '1e308', '-1e308', 'NaN', 'Infinity', '9007199254740993', 'null', 'undefined', '[]', '{}',
  ',', ',,', 'nba,', ',nba', 'nba,nfl', 'basketball', 'pinnacle', 'draftkings,fanduel', 'moneyline', 'event', 'odds_american', '-odds_american',
  '-', '--sport', 'odds_american,id', '2026-05-01T00:00:00Z', '2026-05-01T00:00:00.123456789Z', '2001-01-01T00:00:00Z', '2099-01-01T00:00:00+14:00',
  '2026-02-30T00:00:00Z', '2026-05-01', '%00', '%ZZ', '%E0%A4%A', '%C0%AF', '\u0000', '\uffff', '😀', 'a'.repeat(2100), '../../etc/passwd',
  '<script>', "' OR 1=1 --", 'WzEsIngiXQ', 'eyJ9', eventId,
);

const value = fc.oneof(interesting, fc.string({ maxLength: 40 }), fc.integer().map(String), fc.double().map(String), fc.string({ unit: 'grapheme', maxLength: 10 }));

/** Percent-encodes, except for values that are already broken escapes (sent raw on purpose). */
function enc(v: string): string {
  return /^(%[0-9A-Za-z]{0,2})+$/.test(v) ? v : encodeURIComponent(v);
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const probe = fc.record({
  path: fc.constantFrom(...PATHS()),
  segment: value,
  params: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })), value), { maxLength: 6 }),
  auth: fc.constantFrom('header', 'bearer', 'query', 'none', 'wrong', 'free', 'hobby'),
  method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
  body: fc.oneof(
    fc.constant(undefined),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.record({ event_ids: fc.oneof(fc.array(value, { maxLength: 120 }), value), sportsbook: fc.option(value), market: fc.option(value) }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 50 }),
  ),
  contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
}).map(({ path, segment, params, auth, method, body, contentType }): Probe => {
  const key = auth === 'free' ? c.keys.free : auth === 'hobby' ? c.keys.hobby : auth === 'wrong' ? 'not-a-key-at-all' : c.keys.sharp;
  const query = params.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  if (auth === 'query') query.push(`api_key=${encodeURIComponent(key)}`);
  const headers: Record<string, string> = {};
  if (auth === 'header' || auth === 'free' || auth === 'hobby' || auth === 'wrong') headers['x-api-key'] = key;
  if (auth === 'bearer') headers['authorization'] = `Bearer ${key}`;
  const isBatch = path.endsWith('/odds/batch');
  const m = isBatch && method === 'GET' ? 'POST' : method;
  if (body !== undefined && m === 'POST' && contentType !== '') headers['content-type'] = contentType;
  const full = path.replace('{x}', enc(segment)) + (query.length > 0 ? `?${query.join('&')}` : '');
  return { method: m, path: full, headers, ...(m === 'POST' && body !== undefined ? { body } : {}) };
});

function send(p: Probe): Promise<{ status: number; text: string; type: string }> {
  const url = new URL(c.sys.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: p.method, path: p.path, headers: p.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, type: String(res.headers['content-type'] ?? '') }));
    });
    req.on('error', reject);
    if (p.body !== undefined) req.write(p.body);
    req.end();
  });
}

function checkEnvelope(p: Probe, r: { status: number; text: string; type: string }): void {
  const where = `${p.method} ${p.path} -> ${r.status} ${r.text.slice(0, 300)}`;
  if (r.status >= 500) throw new Error(`5xx: ${where}`);
  if (p.method === 'HEAD') return;
  let body: Row;
  try {
    body = JSON.parse(r.text) as Row;
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  if (r.status < 300) {
    const path = p.path.split('?')[0] ?? '';
    if (path === '/api/v1/health') return void expect(body['status'], where).toMatch(/^(ok|degraded)$/);
    if (path === '/api/v1/openapi.json') return void expect(body['openapi'], where).toBe('3.1.0');
    expect(body['success'], where).toBe(true);
    expect('data' in body, where).toBe(true);
    return;
  }
  const error = body['error'] as Row | undefined;
  expect(error && Object.keys(error).sort(), where).toEqual(['code', 'docs', 'message']);
  const code = error?.['code'] as keyof typeof ERROR_CODES;
  expect(code in ERROR_CODES, where).toBe(true);
  expect(ERROR_CODES[code].status, where).toBe(r.status);
}

describe('fuzzing every endpoint', () => {
  it(`sees no 5xx and nothing outside the envelopes for ${FUZZ_MS / 1000} s`, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(probe, async (p) => {
        runs++;
        checkEnvelope(p, await send(p));
      }),
      { numRuns: 1_000_000, interruptAfterTimeLimit: FUZZ_MS, markInterruptAsFailure: false, seed: Number(process.env['FUZZ_SEED'] ?? Date.now() % 100_000) },
    );
    expect(runs).toBeGreaterThan(100);
  }, FUZZ_MS + 30_000);
});
