/**
 * Cookie sign-in holds two defences that must not regress. CSRF: a state-changing request carried
 * by the session cookie needs an Origin of this server, so another site cannot make a signed-in
 * browser create, revoke or rotate keys, batch-query or sign out (every non-GET operation of the
 * OpenAPI document is tried, and nothing changes). Fixation: a session id the browser presents
 * before signing in is never adopted; sign-in always issues a fresh one and ends the old.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
let origin: string;
let mutating: [string, string][] = [];
conformanceForFile(async (running) => {
  c = running;
  origin = c.sys.url;
  const doc = (await c.sys.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  mutating = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => !['get', 'head', 'options'].includes(m))
      .map((m) => [m.toUpperCase(), path] as [string, string]),
  );
});

async function signIn(key: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${c.sys.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify({ api_key: key }),
    signal: AbortSignal.timeout(5000),
  });
}
const tokenOf = (res: Response): string => /^odds_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
const sessionTier = async (token: string): Promise<unknown> => {
  const r = await c.sys.get('/api/v1/session', undefined, { cookie: `odds_session=${token}` });
  return r.status === 200 ? (r.body['data'] as Row)['tier'] : r.status;
};

describe('CSRF: a cookie-authenticated state change from another site', () => {
  const crossSite: [string, Record<string, string>][] = [
    ['another site', { origin: 'https://evil.example' }],
    ['a look-alike of this origin', { origin: 'http://127.0.0.1.evil.example' }],
    ['an opaque origin (sandboxed frame, data: URL)', { origin: 'null' }],
    ['no Origin at all', {}],
  ];

  it('is refused 403 cross_site_request on every non-GET operation of the document, changing nothing', async () => {
    const key = c.sys.demoKeys.enterprise;
    const cookie = `odds_session=${tokenOf(await signIn(key))}`;
    const second = await fetch(`${c.sys.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ name: 'csrf-target' }),
    });
    const target = ((await second.json()) as { data: Row }).data;
    const keysBefore = (await c.sys.get('/api/v1/account/keys', key)).body['data'];
    const operations = mutating.filter(([m, p]) => !(m === 'POST' && p === '/api/v1/session'));
    expect(operations).toEqual(
      expect.arrayContaining([
        ['POST', '/api/v1/account/keys'],
        ['DELETE', '/api/v1/account/keys/{keyId}'],
        ['POST', '/api/v1/account/keys/{keyId}/rotate'],
        ['DELETE', '/api/v1/session'],
      ]),
    );
    for (const [method, path] of operations) {
      const url = path.replace('{keyId}', String(target['id']));
      for (const [what, headers] of crossSite) {
        const body = method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' };
        const res = await fetch(`${c.sys.url}${url}`, {
          method,
          ...body,
          headers: { ...body.headers, cookie, ...headers },
          signal: AbortSignal.timeout(5000),
        });
        const error = ((await res.json()) as { error: Row }).error;
        expect([method, url, what, res.status, error['code']]).toEqual([method, url, what, 403, 'cross_site_request']);
      }
    }
    // Nothing happened: the same keys, the target still works, the session is still signed in.
    expect((await c.sys.get('/api/v1/account/keys', key)).body['data']).toEqual(keysBefore);
    expect((await c.sys.get('/api/v1/sports', String(target['key']))).status).toBe(200);
    expect((await c.sys.get('/api/v1/session', undefined, { cookie })).status).toBe(200);
  });

  it("is allowed from this server's own origin (the defence is the Origin, not the cookie)", async () => {
    const cookie = `odds_session=${tokenOf(await signIn(c.sys.demoKeys.pro))}`;
    const out = await fetch(`${c.sys.url}/api/v1/session`, {
      method: 'DELETE',
      headers: { cookie, origin },
      signal: AbortSignal.timeout(5000),
    });
    expect(out.status).toBe(200);
  });

  it('cannot sign a browser in from another site (login CSRF)', async () => {
    const res = await signIn(c.keys.pro, { origin: 'https://evil.example' });
    expect([res.status, res.headers.get('set-cookie')]).toEqual([403, null]);
  });
});

describe('session fixation', () => {
  it('does not adopt a session id the attacker chose: sign-in issues a fresh random one', async () => {
    const planted = 'attacker-chosen-session-id-000000000000000000';
    const res = await signIn(c.keys.sharp, { cookie: `odds_session=${planted}` });
    expect(res.status).toBe(200);
    const issued = tokenOf(res);
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    expect(await sessionTier(planted)).toBe(401);
    expect(await sessionTier(issued)).toBe('sharp');
  });

  it("does not carry a live session planted by the attacker over to the victim: it ends at the victim's sign-in", async () => {
    const attackers = tokenOf(await signIn(c.keys.free));
    expect(await sessionTier(attackers)).toBe('free');
    const victims = tokenOf(await signIn(c.keys.enterprise, { cookie: `odds_session=${attackers}` }));
    expect(victims).not.toBe(attackers);
    // The planted id neither became the victim's session nor stays the attacker's.
    expect(await sessionTier(attackers)).toBe(401);
    expect(await sessionTier(victims)).toBe('enterprise');
  });
});
