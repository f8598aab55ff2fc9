/**
 * Account answers (keys, usage, a new key's secret) and session answers went out with no
 * Cache-Control; the key rides in X-API-Key, which shared caches do not treat as credentials, so
 * nothing told a proxy not to keep one user's secrets and serve them to the next. Now they are
 * `no-store`, errors included, and public answers keep their own caching rules.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

let c: Conformance;
conformanceForFile((running) => {
  c = running;
});

async function cacheControl(method: string, path: string, key: string | null, body?: unknown): Promise<[number, string | null]> {
  const res = await fetch(`${c.sys.url}/api/v1${path}`, {
    method,
    headers: { ...(key === null ? {} : { 'x-api-key': key }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000),
  });
  await res.arrayBuffer();
  return [res.status, res.headers.get('cache-control')];
}

describe('answers that belong to one account are never stored by a cache', () => {
  it('account, usage, keys, a new key, a refused revoke and the session answers are no-store', async () => {
    const key = c.sys.demoKeys.enterprise;
    expect(await cacheControl('GET', '/account', key)).toEqual([200, 'no-store']);
    expect(await cacheControl('GET', '/account/usage', key)).toEqual([200, 'no-store']);
    expect(await cacheControl('GET', '/account/keys', key)).toEqual([200, 'no-store']);
    expect(await cacheControl('POST', '/account/keys', key, { name: 'cached?' })).toEqual([201, 'no-store']);
    expect(await cacheControl('DELETE', '/account/keys/key_0000000000000000', key)).toEqual([404, 'no-store']);
    expect(await cacheControl('POST', '/session', null, { api_key: key })).toEqual([200, 'no-store']);
    expect(await cacheControl('GET', '/session', null)).toEqual([401, 'no-store']);
  });

  it('leaves public answers to their own rules', async () => {
    expect(await cacheControl('GET', '/health', null)).toEqual([200, null]);
  });
});
