/**
 * Paths are attacker-chosen bytes. The web screen's files are routed one by one (no wildcard),
 * and path parameters are ids looked up in maps, so no spelling of `..` (raw, percent-encoded,
 * double-encoded, backslashes, overlong, NUL) reaches a file outside dist/web or another route:
 * each attempt is 400 or 404 in the error envelope, never a file, never a 5xx. The bytes go on a
 * raw socket, since HTTP clients would resolve the dots themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtWebRoot } from '../../runtime/system.js';
import { ensureWebBuilt } from '../support/browser.js';
import { rawRequest, startBareApp } from '../support/raw-http.js';
import type { BareApp } from '../support/raw-http.js';

let api: BareApp;
let asset: string;
beforeAll(async () => {
  await ensureWebBuilt();
  api = await startBareApp({}, { webRoot: builtWebRoot() });
  const index = await (await fetch(`http://127.0.0.1:${api.port}/`)).text();
  asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1] ?? '';
});
afterAll(async () => {
  await api.close();
});

/** What a file outside dist/web would show: the repository's package.json, the host's passwd, our sources. */
const SECRETS = [/"name":\s*"odds-platform"/, /root:.*:0:0:/, /export (async )?function/, /DEEPLINK_TEMPLATES/];

/** `code`: the error code, or `empty` when `data` is an empty list or map (an unknown id filtered to nothing). */
async function get(path: string, headers = ''): Promise<{ status: number; code: unknown; leaked: boolean }> {
  const answer = await rawRequest(api.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`, {
    maxMs: 5000,
  });
  let code: unknown = null;
  try {
    const body = JSON.parse(answer.body) as { error?: { code?: unknown }; data?: unknown };
    const data = body.data;
    code = body.error?.code ?? (typeof data === 'object' && data !== null && Object.keys(data).length === 0 ? 'empty' : null);
  } catch {
    code = null;
  }
  return { status: answer.status, code, leaked: SECRETS.some((s) => s.test(answer.body)) };
}

const DOTS = [
  '..%2f',
  '%2e%2e/',
  '%2e%2e%2f',
  '..%5c',
  '%2e%2e%5c',
  '..\\',
  '%252e%252e%252f',
  '.%2e/',
  '%2e./',
  '..%c0%af',
  '..;/',
  '....//',
];
const TARGETS = ['package.json', 'etc/passwd', 'api/app.ts', 'README.md'];

describe("the web screen's static files", () => {
  it('serves what it should (the check below is not vacuous)', async () => {
    expect(asset).toMatch(/^\/assets\/.+\.js$/);
    expect((await get(asset)).status).toBe(200);
    expect((await get('/')).status).toBe(200);
  });

  it('never serves a file outside dist/web, whatever the spelling of ..', async () => {
    const prefixes = ['/', '/assets/', `${asset.slice(0, asset.lastIndexOf('/') + 1)}`];
    for (const prefix of prefixes) {
      for (const dots of DOTS) {
        for (const target of TARGETS) {
          const path = `${prefix}${dots.repeat(6)}${target}`;
          const r = await get(path);
          expect([path, r.leaked, r.status === 400 || r.status === 404, r.code === 'invalid_request' || r.code === 'not_found']).toEqual([
            path,
            false,
            true,
            true,
          ]);
        }
      }
    }
  });

  it('does not let a NUL or a suffix trick pick another file', async () => {
    for (const path of [`${asset}%00.html`, '/index.html%00', '/index.html%2f..%2f..%2fpackage.json', '/%2findex.html', '//etc/passwd']) {
      const r = await get(path);
      expect([path, r.leaked, r.status >= 400 && r.status < 500]).toEqual([path, false, true]);
    }
  });
});

describe('path parameters of every route in the OpenAPI document', () => {
  it("take traversal as an unknown id (400, 404 or nothing), never another route's answer", async () => {
    const doc = (await (await fetch(`http://127.0.0.1:${api.port}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const templated = Object.entries(doc.paths)
      .filter(([p, ops]) => p.includes('{') && 'get' in ops && !p.startsWith('/api/v1/stream'))
      .map(([p]) => p);
    expect(templated).toEqual(
      expect.arrayContaining(['/api/v1/events/{eventId}', '/api/v1/deeplink/{id}', '/api/v1/sportsbooks/{bookId}']),
    );
    // Enterprise: no route is refused on tier before its parameter is read.
    api.keys.add('enterprise-traversal-key', 'enterprise');
    const key = 'X-API-Key: enterprise-traversal-key\r\n';
    for (const template of templated) {
      for (const value of [
        '..%2f..%2fhealth',
        '%2e%2e',
        '%2e%2e%2f%2e%2e%2fopenapi.json',
        '..%5c..%5chealth',
        '%252e%252e%252fhealth',
        '..%00',
      ]) {
        const path = template.replace(/\{\w+\}/g, value);
        const r = await get(path, key);
        // 400 where the parameter has a pattern (the message names it), else what any unknown id
        // gets: 404, or nothing at all where the route filters by it (/gamestate/{sport}).
        expect([path, r.leaked, [r.status, r.code]]).toEqual([
          path,
          false,
          expect.toBeOneOf([
            [404, 'not_found'],
            [400, 'invalid_request'],
            [200, 'empty'],
          ]),
        ]);
      }
    }
  });
});
