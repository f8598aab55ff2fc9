/**
 * `GET /metrics` answered anyone who reached the API port, without a key: per-route counts and
 * latencies, board size, active opportunities, process memory and CPU. Now the API port has no
 * `/metrics` unless METRICS_TOKEN is set, and then only for that bearer token (an API key of any
 * tier is not it); the operator listener (METRICS_PORT) serves them, behind the token when set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOperatorEndpoint } from '../../runtime/operator-endpoint.js';
import { startBareApp } from '../support/raw-http.js';
import { startTestSystem } from '../support/system.js';
import type { TestSystem } from '../support/system.js';

const TOKEN = 'operator-token-0123456789';
const NOT_FOUND = { code: 'not_found' };
const UNAUTHORIZED = {
  code: 'unauthorized',
  message: 'The operator endpoints need METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)',
};

interface Scrape {
  status: number;
  metrics: boolean;
  error: unknown;
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  const metrics = text.includes('odds_http_requests_total') || text.includes('process_resident_memory_bytes');
  return {
    status: res.status,
    metrics,
    error: res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as { error: unknown }).error : null,
  };
}

describe('the configured system, default settings but METRICS_PORT', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem({ METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await sys.close();
  });

  it("has no /metrics on the API port, for anyone: no key, any tier's key, any spelling", async () => {
    const expected = { status: 404, metrics: false, error: expect.objectContaining(NOT_FOUND) as unknown };
    expect(await scrape(`${sys.url}/metrics`)).toEqual(expected);
    for (const tier of ['free', 'enterprise'] as const) {
      expect(await scrape(`${sys.url}/metrics`, { 'x-api-key': sys.demoKeys[tier] })).toEqual(expected);
      expect(await scrape(`${sys.url}/metrics`, { authorization: `Bearer ${sys.demoKeys[tier]}` })).toEqual(expected);
    }
    expect(await scrape(`${sys.url}/metrics/`)).toEqual(expected);
    expect(await scrape(`${sys.url}/api/v1/metrics`, { 'x-api-key': sys.demoKeys.enterprise })).toEqual(expected);
  });

  it('serves them on the operator port, which is another port of the same host', async () => {
    expect(sys.metricsUrl).not.toBeNull();
    const operator = new URL(sys.metricsUrl ?? '');
    expect([operator.hostname, operator.port === new URL(sys.url).port]).toEqual(['127.0.0.1', false]);
    expect(await scrape(`${sys.metricsUrl ?? ''}/metrics`)).toEqual({ status: 200, metrics: true, error: null });
    expect(await scrape(`${sys.metricsUrl ?? ''}/api/v1/sports`)).toMatchObject({ status: 404, metrics: false });
  });
});

describe('with METRICS_TOKEN', () => {
  let api: Awaited<ReturnType<typeof startBareApp>>;
  let operator: Awaited<ReturnType<typeof startOperatorEndpoint>>;
  beforeAll(async () => {
    api = await startBareApp({}, { metricsToken: TOKEN });
    operator = await startOperatorEndpoint({
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      routes: new Map([['/metrics', () => api.app.metricsText()]]),
    });
  });
  afterAll(async () => {
    await operator.close();
    await api.close();
  });

  const refusals = (): [string, Record<string, string>][] => [
    ['no credentials', {}],
    ['a wrong token', { authorization: `Bearer ${TOKEN}x` }],
    ['the token without the Bearer scheme', { authorization: TOKEN }],
    ['the token as Basic credentials', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
    ['an API key as the bearer', { authorization: `Bearer ${api.key}` }],
    ['an API key as X-API-Key', { 'x-api-key': api.key }],
  ];

  it('the API port answers 401 in the envelope without the token, and the metrics with it', async () => {
    const url = `http://127.0.0.1:${api.port}/metrics`;
    for (const [, headers] of refusals())
      expect(await scrape(url, headers)).toEqual({
        status: 401,
        metrics: false,
        error: { ...UNAUTHORIZED, docs: '/api/v1/docs/errors#unauthorized' },
      });
    expect(await scrape(url, { authorization: `Bearer ${TOKEN}` })).toEqual({ status: 200, metrics: true, error: null });
  });

  it('the operator port requires the token as well', async () => {
    for (const [, headers] of refusals())
      expect(await scrape(`${operator.url}/metrics`, headers)).toEqual({ status: 401, metrics: false, error: UNAUTHORIZED });
    expect(await scrape(`${operator.url}/metrics`, { authorization: `Bearer ${TOKEN}` })).toEqual({
      status: 200,
      metrics: true,
      error: null,
    });
  });
});
