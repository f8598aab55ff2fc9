/**
 * API answers went out without the hardening headers the web pages already sent: a JSON body
 * echoing input could be sniffed as HTML, and a page opened from an answer sent the Referer
 * (with any `?api_key=`) on. Every kind of answer now carries nosniff and `Referrer-Policy:
 * no-referrer`, and the API's own answers a CSP that renders and frames nothing; the web pages
 * keep their own CSP and get each header once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtWebRoot } from '../../runtime/system.js';
import { ensureWebBuilt } from '../support/browser.js';
import { rawRequest, startBareApp } from '../support/raw-http.js';
import type { BareApp } from '../support/raw-http.js';

const API = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};
const EVERY = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

let api: BareApp;
beforeAll(async () => {
  await ensureWebBuilt();
  api = await startBareApp({}, { webRoot: builtWebRoot() });
});
afterAll(async () => {
  await api.close();
});

type Hardening = Record<keyof typeof API, string | null> & { status: number };

/** The status and the three headers as the client sees them (a header set twice reads "a, b"). */
async function answer(path: string, init: RequestInit = {}): Promise<Hardening> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const res = await fetch(`http://127.0.0.1:${api.port}${path}`, { redirect: 'manual', ...init, signal: controller.signal });
    const seen = { status: res.status, ...Object.fromEntries(Object.keys(API).map((h) => [h, res.headers.get(h)])) } as Hardening;
    // A stream never ends by itself: its head is what is checked.
    controller.abort();
    return seen;
  } finally {
    clearTimeout(timer);
  }
}

const key = (): Record<string, string> => ({ 'x-api-key': api.key });

describe('every API answer carries nosniff, no-referrer and a CSP that renders nothing', () => {
  const cases: [string, () => Promise<Hardening>, number][] = [
    ['200 JSON', () => answer('/api/v1/sports', { headers: key() }), 200],
    ['200 public health', () => answer('/api/v1/health'), 200],
    ['200 openapi.json', () => answer('/api/v1/openapi.json'), 200],
    ['401 without a key', () => answer('/api/v1/sports'), 401],
    ['401 on a stream without a key', () => answer('/api/v1/stream'), 401],
    ['404 unknown route under the API', () => answer('/api/v1/nothing-here', { headers: key() }), 404],
    ['400 a bad parameter', () => answer('/api/v1/odds?limit=abc', { headers: key() }), 400],
    ['400 a malformed percent-encoding (answered before routing)', () => answer('/api/v1/sports%zz', { headers: key() }), 400],
    [
      '400 a body that is not JSON',
      () => answer('/api/v1/deeplinks/batch', { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: '{' }),
      400,
    ],
    ['302 a deep-link redirect', () => answer('/api/v1/deeplink/unknown?fallback=%2Fodds'), 302],
    ["200 the SSE stream's head", () => answer('/api/v1/stream?channel=odds', { headers: key() }), 200],
    [
      '200 the MCP endpoint (written by its transport)',
      () =>
        answer('/api/v1/mcp', {
          method: 'POST',
          headers: { ...key(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'headers', version: '0' } },
          }),
        }),
      200,
    ],
  ];
  for (const [what, send, status] of cases) {
    it(what, async () => {
      expect(await send()).toEqual({ status, ...API });
    });
  }
});

describe('answers outside the API prefix', () => {
  it('an unknown path is a 404 with nosniff and no-referrer', async () => {
    expect(await answer('/nothing-here')).toEqual({ status: 404, ...EVERY, 'content-security-policy': null });
  });

  it('the web page gets each header once and keeps its own CSP', async () => {
    const page = await answer('/');
    expect(page).toMatchObject({ status: 200, ...EVERY });
    expect(page['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self';[^,]*frame-ancestors 'none'/);
  });
});

describe('answers written on the raw socket', () => {
  it("the connection cap's 429 carries them too", async () => {
    const capped = await startBareApp({ maxConnectionsPerAddress: 1 });
    try {
      const held = await rawRequest(capped.port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 50 });
      expect(held.status).toBe(200);
      const [first, second] = await Promise.all([
        rawRequest(capped.port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 200 }),
        rawRequest(capped.port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 200 }),
      ]);
      const refused = [first, second].find((a) => a.status === 429);
      expect(refused?.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused?.headers.get('referrer-policy')).toBe('no-referrer');
    } finally {
      await capped.close();
    }
  });
});
