/**
 * Browser sign-in: a key posted once becomes an HttpOnly, SameSite=Strict cookie that REST, SSE
 * and the WebSocket endpoint accept; state-changing requests and WebSocket handshakes carried by
 * the cookie need this server's Origin; sign-out ends the session. Bad input is answered in the
 * envelope, naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';
import { WsClient } from './support/stream-clients.js';

type Row = Record<string, unknown>;
let c: Conformance;
let origin: string;

async function signIn(key: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${c.sys.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify({ api_key: key }),
  });
}

function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0] as string;
}

beforeAll(async () => {
  c = await startConformance();
  origin = c.sys.url;
}, 60_000);
afterAll(async () => {
  await c?.sys.close();
});

describe('POST /session', () => {
  it('sets an HttpOnly, SameSite=Strict cookie scoped to the API, and describes what the tier shows', async () => {
    const res = await signIn(c.keys.free);
    expect(res.status).toBe(200);
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^odds_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/api\/v1; HttpOnly; SameSite=Strict$/);
    // Plain HTTP: no Secure flag (the browser would drop the cookie); over TLS it is set.
    expect(set).not.toContain('Secure');
    const body = (await res.json()) as Row;
    expect(body['data']).toMatchObject({
      tier: 'free',
      data_delay_seconds: 60,
      requests_per_minute: 100_000,
      max_streams: 1,
      sportsbooks: ['draftkings', 'fanduel'],
      features: {
        ev: { available: false, required_tier: 'pro' },
        arbitrage: { available: false, required_tier: 'hobby' },
        middles: { available: false, required_tier: 'pro' },
        low_hold: { available: false, required_tier: 'hobby' },
        gamestate: { available: false, required_tier: 'enterprise' },
      },
    });
    expect(JSON.stringify(body)).not.toContain(c.keys.free);
  });

  it('answers a wrong key with 401 in the envelope naming api_key, and sets no cookie', async () => {
    const res = await signIn('free_not_a_key');
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    const error = ((await res.json()) as Row)['error'] as Row;
    expect(error['code']).toBe('unauthorized');
    expect(error['message']).toContain("'api_key'");
  });

  it.each([
    [{}, "Missing required body field 'api_key'"],
    [{ api_key: '' }, "Invalid body field 'api_key'"],
    [{ api_key: 'k'.repeat(201) }, "Invalid body field 'api_key'"],
    [{ api_key: 'x', extra: 1 }, "additional property 'extra'"],
  ])('answers the body %j with 400 naming the field', async (body, words) => {
    const res = await fetch(`${c.sys.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as Row)['error'] as Row;
    expect(error['code']).toBe('invalid_request');
    expect(error['message']).toContain(words);
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await signIn(c.keys.pro, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((((await res.json()) as Row)['error'] as Row)['code']).toBe('cross_site_request');
  });
});

describe('the session cookie', () => {
  it('authenticates REST like the key itself, and opens an SSE stream', async () => {
    const cookie = cookieOf(await signIn(c.keys.pro));
    const byCookie = await c.sys.get('/api/v1/odds?league=nba', undefined, { cookie });
    const byKey = await c.sys.get('/api/v1/odds?league=nba', c.keys.pro);
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('x-tier')).toBe('pro');
    expect((byCookie.body['data'] as Row[]).map((r) => r['id'])).toEqual((byKey.body['data'] as Row[]).map((r) => r['id']));
    const session = await c.sys.get('/api/v1/session', undefined, { cookie });
    expect(session.body['data']).toMatchObject({ tier: 'pro' });

    const ac = new AbortController();
    const stream = await fetch(`${c.sys.url}/api/v1/stream?channel=odds`, { headers: { cookie }, signal: ac.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const first = await stream.body?.getReader().read();
    expect(new TextDecoder().decode(first?.value)).toContain('event: connected');
    ac.abort();
  });

  it('needs an Origin of this server on state-changing requests', async () => {
    const cookie = cookieOf(await signIn(c.keys.pro));
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${c.sys.url}/api/v1/odds/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...headers },
        body: JSON.stringify({ event_ids: ['x'] }),
      });
    for (const headers of [{}, { origin: 'https://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect((((await res.json()) as Row)['error'] as Row)['code']).toBe('cross_site_request');
    }
    expect((await post({ origin })).status).not.toBe(403);
    // A key presented by the client itself is no cookie: no Origin needed (curl, SDKs).
    const withKey = await fetch(`${c.sys.url}/api/v1/odds/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': c.keys.pro },
      body: JSON.stringify({ event_ids: ['x'] }),
    });
    expect(withKey.status).not.toBe(403);
  });

  it('is ended by sign-out: the cookie is cleared and no longer accepted', async () => {
    const cookie = cookieOf(await signIn(c.keys.hobby));
    const foreign = await fetch(`${c.sys.url}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await c.sys.get('/api/v1/session', undefined, { cookie })).status).toBe(200);

    const out = await fetch(`${c.sys.url}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(
      /^odds_session=; Max-Age=0; Path=\/api\/v1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/,
    );
    expect((await c.sys.get('/api/v1/session', undefined, { cookie })).status).toBe(401);
    const odds = await c.sys.get('/api/v1/odds', undefined, { cookie });
    expect(odds.status).toBe(401);
    expect((odds.body['error'] as Row)['code']).toBe('unauthorized');
  });

  it('ends with its key: a revoked key signs its sessions out', async () => {
    const key = c.newKey('pro');
    const cookie = cookieOf(await signIn(key));
    expect((await c.sys.get('/api/v1/sports', undefined, { cookie })).status).toBe(200);
    const record = c.sys.keys.lookup(key);
    const stored = record ? c.sys.keys.key(record.keyId) : undefined;
    if (!stored) throw new Error('the key was not stored');
    c.sys.keys.apply({ kind: 'key', key: { ...stored, active: false, revokedAt: Date.now(), version: stored.version + 1 } });
    expect((await c.sys.get('/api/v1/sports', undefined, { cookie })).status).toBe(401);
    expect((await c.sys.get('/api/v1/session', undefined, { cookie })).status).toBe(401);
  });
});

describe('the session cookie on the WebSocket endpoint', () => {
  const wsUrl = (path: string): string => `${c.sys.url.replace(/^http/, 'ws')}${path}`;
  const ofType = (client: WsClient, type: string): Row[] => client.messages.filter((m) => m.type === type);

  it("opens a stream with the session key's tier when the handshake comes from this server", async () => {
    const cookie = cookieOf(await signIn(c.keys.enterprise));
    for (const path of ['/api/v1/ws', '/api/v1/stream/ws']) {
      const ws = await WsClient.open(wsUrl(`${path}?channels=odds&league=nba`), { cookie, origin });
      await ws.until((m) => m.some((x) => x.type === 'snapshot:complete'));
      expect(ws.messages[0]).toMatchObject({ type: 'connected', seq: 1, tier: 'enterprise', books: { max: -1 } });
      expect(ofType(ws, 'initial').length).toBeGreaterThan(0);
      expect(ws.closeCode).toBeNull();
      ws.close();
    }
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['no Origin', {}],
  ] as [string, Record<string, string>][])(
    'refuses a cookie-authenticated handshake from %s with 4001 cross_site_request',
    async (_name, headers) => {
      const cookie = cookieOf(await signIn(c.keys.enterprise));
      const ws = await WsClient.open(wsUrl('/api/v1/ws?channels=odds'), { cookie, ...headers });
      expect(await ws.closed()).toBe(4001);
      expect(ws.messages).toHaveLength(1);
      expect(ws.messages[0]).toMatchObject({ type: 'error', code: 'cross_site_request' });
      expect(ws.messages[0]?.['message']).toContain(
        'WebSocket handshake signed in by the session cookie needs an Origin header of this server',
      );
    },
  );

  it(
    'refuses an unknown or signed-out session with 4001 invalid_api_key, saying the session is not live',
    { timeout: 30_000 },
    async () => {
      const cookie = cookieOf(await signIn(c.keys.enterprise));
      const out = await fetch(`${c.sys.url}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin } });
      expect(out.status).toBe(200);
      for (const stale of [cookie, 'odds_session=not-a-session-token']) {
        const ws = await WsClient.open(wsUrl('/api/v1/ws?channels=odds'), { cookie: stale, origin });
        expect(await ws.closed()).toBe(4001);
        expect(ws.messages[0]).toMatchObject({ type: 'error', code: 'invalid_api_key' });
        expect(ws.messages[0]?.['message']).toContain('no live session');
      }
      // Without cookie and key the socket waits for an auth message (10 s), then the refusal names every way in.
      const none = await WsClient.open(wsUrl('/api/v1/ws'), { origin });
      expect(await none.closed(15_000)).toBe(4001);
      expect(none.messages[0]).toMatchObject({ type: 'error', code: 'missing_token' });
      expect(none.messages[0]?.['message']).toContain('session cookie');
    },
  );

  it('lets a key presented by the client win over the cookie', async () => {
    const cookie = cookieOf(await signIn(c.keys.pro));
    // The key's tier, not the session's; the key needs no Origin (server-side clients).
    const byQuery = await WsClient.open(wsUrl(`/api/v1/ws?channels=odds&league=nba&api_key=${c.keys.enterprise}`), {
      cookie,
      origin: 'https://evil.example',
    });
    await byQuery.until((m) => m.length > 0);
    expect(byQuery.messages[0]).toMatchObject({ type: 'connected', tier: 'enterprise' });
    byQuery.close();
    const byHeader = await WsClient.open(wsUrl('/api/v1/ws?channels=odds&league=nba'), { cookie, origin, 'x-api-key': c.keys.sharp });
    await byHeader.until((m) => m.length > 0);
    expect(byHeader.messages[0]).toMatchObject({ type: 'connected', tier: 'sharp' });
    byHeader.close();
    // A wrong key is refused, not rescued by the live session beside it.
    const wrong = await WsClient.open(wsUrl('/api/v1/ws?api_key=pro_not_a_key'), { cookie, origin });
    expect(await wrong.closed()).toBe(4001);
    expect(wrong.messages[0]).toMatchObject({ code: 'invalid_api_key', message: 'The API key is not valid' });
  });
});
