import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../accounts/index.js';
import { ApiError } from '../errors.js';
import { SessionAuth } from './plugin.js';
import { SessionStore } from './sessions.js';

describe('SessionStore', () => {
  it('knows a token until its expiry, then forgets it', () => {
    let now = 1_000;
    const store = new SessionStore(60_000, () => now);
    const { token, session } = store.create('key_1');
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      keyId: 'key_1',
      createdAt: 1_000,
      expiresAt: 61_000,
    });
    now = 60_999;
    expect(store.get(token)?.keyId).toBe('key_1');
    now = 61_000;
    expect(store.get(token)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps only a digest of the token, and ends a session on delete', () => {
    const store = new SessionStore(60_000, () => 0);
    const { token } = store.create('key_1');
    expect(JSON.stringify([...(store as unknown as { sessions: Map<string, unknown> }).sessions.keys()])).not.toContain(token);
    expect(store.get(`${token}x`)).toBeUndefined();
    store.delete(token);
    expect(store.get(token)).toBeUndefined();
  });

  it('drops expired sessions on the next sign-in and the oldest past its bound', () => {
    let now = 0;
    const store = new SessionStore(10, () => now, 2);
    const a = store.create('a').token;
    now = 5;
    const b = store.create('b').token;
    const c = store.create('c').token;
    expect([store.get(a), store.get(b)?.keyId, store.get(c)?.keyId]).toEqual([undefined, 'b', 'c']);
    now = 20;
    store.create('d');
    expect(store.size).toBe(1);
  });
});

describe('SessionAuth.authenticateUpgrade (a WebSocket handshake without a key)', () => {
  async function setup(): Promise<{ auth: SessionAuth; token: string; setNow: (t: number) => void; close: () => Promise<void> }> {
    const app = Fastify();
    await app.register(cookie);
    await app.ready();
    let now = 1_000;
    const keys = new KeyStore();
    const key = keys.add('sharp_session_key', 'sharp');
    const store = new SessionStore(60_000, () => now);
    const auth = new SessionAuth(store, keys, (header) => app.parseCookie(header));
    return { auth, token: store.create(key.keyId).token, setNow: (t) => (now = t), close: () => app.close() };
  }
  const handshake = (headers: Record<string, string>): IncomingMessage =>
    ({ method: 'GET', headers: { host: 'odds.example:8080', ...headers } }) as unknown as IncomingMessage;
  const refusal = (f: () => unknown): string | null => {
    try {
      f();
      return null;
    } catch (err) {
      return err instanceof ApiError ? err.code : String(err);
    }
  };

  it("answers the session's key for its cookie from this server's origin, among other cookies", async () => {
    const s = await setup();
    const record = s.auth.authenticateUpgrade(
      handshake({ cookie: `theme=dark; odds_session=${s.token}`, origin: 'http://odds.example:8080' }),
    );
    expect(record?.key.tier).toBe('sharp');
    expect(s.auth.authenticateUpgrade(handshake({ origin: 'http://odds.example:8080' }))).toBeUndefined();
    expect(s.auth.authenticateUpgrade(handshake({ cookie: 'theme=dark' }))).toBeUndefined();
    await s.close();
  });

  it('refuses another origin (or none) before looking at the session, and an expired session after', async () => {
    const s = await setup();
    const cookieHeader = `odds_session=${s.token}`;
    expect(refusal(() => s.auth.authenticateUpgrade(handshake({ cookie: cookieHeader, origin: 'http://evil.example' })))).toBe(
      'cross_site_request',
    );
    expect(refusal(() => s.auth.authenticateUpgrade(handshake({ cookie: cookieHeader, origin: 'http://odds.example:9999' })))).toBe(
      'cross_site_request',
    );
    expect(refusal(() => s.auth.authenticateUpgrade(handshake({ cookie: cookieHeader })))).toBe('cross_site_request');
    expect(refusal(() => s.auth.authenticateUpgrade(handshake({ cookie: 'odds_session=unknown', origin: 'http://evil.example' })))).toBe(
      'cross_site_request',
    );
    s.setNow(61_000);
    expect(refusal(() => s.auth.authenticateUpgrade(handshake({ cookie: cookieHeader, origin: 'http://odds.example:8080' })))).toBe(
      'unauthorized',
    );
    await s.close();
  });
});
