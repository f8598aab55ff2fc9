/**
 * Query parameters an endpoint does not know are ignored, not refused (clients written for the
 * reference service send some), but never silently: the answer names them in
 * `meta.ignored_params` and the log names them with the route, once per request.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoredParams } from '../api/plugins/ignored-params.js';
import { startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

type Body = { meta?: Record<string, unknown> };
const logLines: Record<string, unknown>[] = [];
let s: BareApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  s = await startBareApp({}, {}, pino({ level: 'info' }, sink));
});
afterAll(async () => {
  await s.close();
});

async function get(url: string): Promise<{ status: number; body: Body }> {
  const r = await s.app.inject({ method: 'GET', url, headers: { 'x-api-key': s.key } });
  return { status: r.statusCode, body: r.json() };
}

const ignoredLines = (): Record<string, unknown>[] => logLines.filter((l) => l['msg'] === 'ignored unknown query parameters');

describe('unknown query parameters', () => {
  it('answers GET /odds?sports=basketball (a typo of sport) 200, naming sports in meta.ignored_params', async () => {
    const r = await get('/api/v1/odds?sports=basketball');
    expect(r.status).toBe(200);
    expect(r.body.meta?.['ignored_params']).toEqual(['sports']);
  });

  it('leaves ignored_params out when every parameter is known, api_key and the event_id alias included', async () => {
    const r = await get(`/api/v1/odds?sport=basketball&event_id=x&api_key=${s.key}`);
    expect(r.status).toBe(200);
    expect(r.body.meta).not.toHaveProperty('ignored_params');
  });

  it('names them on envelopes of every shape: a single item, a list, a delta', async () => {
    expect((await get('/api/v1/sports/basketball?expand=leagues')).body.meta).toEqual({ ignored_params: ['expand'] });
    expect((await get('/api/v1/sportsbooks?regions=us&oddsFormat=american')).body.meta?.['ignored_params']).toEqual([
      'regions',
      'oddsFormat',
    ]);
    // From a snapshot's next_since, as a client polls: a time picked here could precede the change
    // window of an app that started under a second ago (410 resync_required).
    const since = (await get('/api/v1/odds?limit=1')).body.meta?.['next_since'] as string;
    const delta = await get(`/api/v1/odds/delta?since=${encodeURIComponent(since)}&bookmakers=fanduel`);
    expect([delta.status, delta.body.meta?.['ignored_params']]).toEqual([200, ['bookmakers']]);
  });

  it('logs them once per request, with the route', async () => {
    logLines.length = 0;
    await get('/api/v1/events?leage=nba&foo=1');
    expect(ignoredLines().map((l) => [l['route'], l['ignored_params']])).toEqual([['/api/v1/events', ['leage', 'foo']]]);
    await get('/api/v1/events?league=nba');
    expect(ignoredLines()).toHaveLength(1);
  });

  it('are the keys no querystring property names, even ones named like Object.prototype members', () => {
    expect(ignoredParams({ sport: 'x', constructor: 'y', api_key: 'k' }, { properties: { sport: {} } })).toEqual(['constructor']);
    expect(ignoredParams({ a: '1' }, undefined)).toEqual(['a']);
  });
});
