import { describe, expect, it } from 'vitest';
import { SessionStore } from './sessions.js';

describe('SessionStore', () => {
  it('knows a token until its expiry, then forgets it', () => {
    let now = 1_000;
    const store = new SessionStore(60_000, () => now);
    const { token, session } = store.create('key_1');
    expect(session).toEqual({ keyId: 'key_1', createdAt: 1_000, expiresAt: 61_000 });
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
