import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../schemas/index.js';
import { KeyStore } from './key-store.js';
import { hashSecret, previewOf } from './secrets.js';

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 'key_1',
  accountId: 'acct_1',
  hash: hashSecret('sk_live_secret'),
  preview: previewOf('sk_live_secret'),
  tier: 'pro',
  name: null,
  createdAt: 1000,
  updatedAt: 1000,
  active: true,
  expiresAt: null,
  revokedAt: null,
  requestsPerMinute: null,
  replacedBy: null,
  version: 1000,
  ...over,
});

describe('KeyStore', () => {
  it('finds a key by its secret, never by anything else', () => {
    const s = new KeyStore(() => 5000);
    s.apply({ kind: 'key', key: key() });
    expect(s.lookup('sk_live_secret')).toEqual({ keyId: 'key_1', accountId: 'acct_1', tier: 'pro' });
    expect(s.lookup(hashSecret('sk_live_secret'))).toBeUndefined();
    expect(s.lookup('key_1')).toBeUndefined();
  });

  it('ignores an older version arriving late, and never brings a revoked key back', () => {
    const s = new KeyStore(() => 5000);
    s.apply({ kind: 'key', key: key({ version: 2000, active: false, revokedAt: 2000 }) });
    s.apply({ kind: 'key', key: key({ version: 1000 }) });
    expect(s.lookup('sk_live_secret')).toBeUndefined();
    s.apply({ kind: 'key', key: key({ version: 3000, active: true, name: 'renamed' }) });
    expect(s.lookup('sk_live_secret')).toBeUndefined();
    expect(s.key('key_1')).toMatchObject({ active: false, revokedAt: 2000, name: 'renamed' });
  });

  it('accepts a key in its grace period until the exact end, by its clock', () => {
    let now = 9_999;
    const s = new KeyStore(() => now);
    s.apply({ kind: 'key', key: key({ expiresAt: 10_000 }) });
    expect(s.lookup('sk_live_secret')).toBeDefined();
    now = 10_000;
    expect(s.lookup('sk_live_secret')).toBeUndefined();
  });

  it('masks a secret to its prefix and last four characters', () => {
    expect(previewOf('sk_live_abcdefghijklmnopqrstuvwxyz_0123456789')).toBe('sk_live_...6789');
    expect(previewOf('pro_Zm9vYmFyYmF6cXV4')).toBe('pro_...cXV4');
    expect(previewOf('noprefixsecret')).toBe('...cret');
  });
});
