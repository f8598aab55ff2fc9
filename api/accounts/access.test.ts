import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../schemas/index.js';
import { AccessLeases, endOfChange, endOfKey } from './access.js';
import type { AccessEnd } from './access.js';
import { KeyStore } from './key-store.js';
import { hashSecret, previewOf } from './secrets.js';

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 'key_1',
  accountId: 'acct_1',
  hash: hashSecret('sk_live_secret'),
  preview: previewOf('sk_live_secret'),
  tier: 'hobby',
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

describe("what ends a key's lasting access", () => {
  it('is revocation, the end of a grace period, or another tier; nothing else', () => {
    expect(endOfKey('active', 'hobby', 'hobby')).toBeNull();
    expect(endOfKey('grace', 'hobby', 'hobby')).toBeNull();
    expect(endOfKey('revoked', 'hobby', 'hobby')).toBe('key_revoked');
    expect(endOfKey(undefined, undefined, 'hobby')).toBe('key_revoked');
    expect(endOfKey('expired', 'hobby', 'hobby')).toBe('key_expired');
    expect(endOfKey('active', 'pro', 'hobby')).toBe('tier_changed');
  });

  it('is told by a change only when the key was usable before it', () => {
    expect(endOfChange(key(), key({ active: false }), 'revoked')).toBe('key_revoked');
    expect(endOfChange(key({ active: false }), key({ active: false, name: 'x' }), 'revoked')).toBeNull();
    expect(endOfChange(key(), key({ tier: 'pro' }), 'active')).toBe('tier_changed');
    expect(endOfChange(key(), key({ name: 'renamed' }), 'active')).toBeNull();
    expect(endOfChange(undefined, key(), 'active')).toBeNull();
  });
});

describe('AccessLeases', () => {
  function setup(): { keys: KeyStore; leases: AccessLeases; ended: AccessEnd[]; setNow: (t: number) => void } {
    let now = 5000;
    const keys = new KeyStore(() => now);
    keys.apply({ kind: 'key', key: key() });
    // No timer: the test sweeps by hand through a revocation, so it owns the clock.
    return { keys, leases: new AccessLeases(keys, () => now, 0), ended: [], setNow: (t) => (now = t) };
  }

  it('ends every access of a key the moment its revocation is applied, once, and not a released one', () => {
    const { keys, leases, ended } = setup();
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(r) });
    const release = leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(r) });
    release();
    expect(leases.heldBy('key_1')).toBe(1);
    keys.apply({ kind: 'key', key: key({ active: false, revokedAt: 6000, version: 2000 }) });
    keys.apply({ kind: 'key', key: key({ active: false, revokedAt: 6000, version: 3000 }) });
    expect(ended).toEqual(['key_revoked']);
    expect(leases.heldBy('key_1')).toBe(0);
    leases.close();
  });

  it('ends an access at once when its key is already over as it registers', () => {
    const { keys, leases, ended } = setup();
    keys.apply({ kind: 'key', key: key({ tier: 'pro', version: 2000 }) });
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(r) });
    expect([ended, leases.heldBy('key_1')]).toEqual([['tier_changed'], 0]);
    leases.close();
  });

  it('ends the other accesses when ending one throws, and reports it instead of failing the key change', () => {
    let now = 5000;
    const keys = new KeyStore(() => now);
    keys.apply({ kind: 'key', key: key() });
    const errors: unknown[] = [];
    const ended: AccessEnd[] = [];
    const leases = new AccessLeases(
      keys,
      () => now,
      0,
      (err) => errors.push(err),
    );
    leases.hold({
      keyId: 'key_1',
      accountId: 'acct_1',
      tier: 'hobby',
      end: () => {
        throw new Error('socket gone');
      },
    });
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(r) });
    now = 6000;
    expect(() => keys.apply({ kind: 'key', key: key({ active: false, revokedAt: 6000, version: 2000 }) })).not.toThrow();
    expect([ended, errors.map(String), leases.heldBy('key_1')]).toEqual([['key_revoked'], ['Error: socket gone'], 0]);
    leases.close();
  });

  it('ends by session only what that session opened', () => {
    const { leases, ended } = setup();
    leases.hold({
      keyId: 'key_1',
      accountId: 'acct_1',
      tier: 'hobby',
      session: { id: 's1', expiresAt: 10_000 },
      end: (r) => ended.push(`${r}:s1` as AccessEnd),
    });
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(`${r}:key` as AccessEnd) });
    expect(leases.endSession('s2')).toBe(0);
    expect(leases.endSession('s1')).toBe(1);
    expect(ended).toEqual(['signed_out:s1']);
    expect(leases.heldBy('key_1')).toBe(1);
    leases.close();
  });

  it('makes room for a new stream by ending the oldest streams of the account (displaced), never other accounts or MCP sessions', () => {
    const { keys, leases, ended } = setup();
    keys.apply({ kind: 'key', key: key({ id: 'key_2', accountId: 'acct_2', hash: hashSecret('sk_live_other') }) });
    const stream = (name: string, keyId = 'key_1', accountId = 'acct_1'): object => {
      const token = {};
      leases.hold({ keyId, accountId, tier: 'hobby', stream: token, end: (r) => ended.push(`${r}:${name}` as AccessEnd) });
      return token;
    };
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', end: (r) => ended.push(`${r}:mcp` as AccessEnd) });
    stream('first');
    stream('second');
    stream('other', 'key_2', 'acct_2');
    expect(leases.makeRoomForStream('acct_1', 3)).toBe(0);
    expect(leases.makeRoomForStream('acct_1', 2)).toBe(1);
    expect(ended).toEqual(['displaced:first']);
    stream('third');
    expect(leases.makeRoomForStream('acct_1', 1)).toBe(2);
    expect(ended).toEqual(['displaced:first', 'displaced:second', 'displaced:third']);
    // A cap of none refuses the new stream (the caller's 429) rather than ending open ones.
    expect(leases.makeRoomForStream('acct_2', 0)).toBe(0);
    expect(leases.heldBy('key_1')).toBe(1);
    leases.close();
  });

  it("keeps a stream's age when its connection moves to another key's lease", () => {
    const { keys, leases, ended } = setup();
    keys.apply({ kind: 'key', key: key({ id: 'key_2', hash: hashSecret('sk_live_other') }) });
    const older = {};
    const releaseOld = leases.hold({
      keyId: 'key_1',
      accountId: 'acct_1',
      tier: 'hobby',
      stream: older,
      end: (r) => ended.push(`${r}:older` as AccessEnd),
    });
    leases.hold({ keyId: 'key_1', accountId: 'acct_1', tier: 'hobby', stream: {}, end: (r) => ended.push(`${r}:newer` as AccessEnd) });
    // refresh_token: the new key's lease first, then the old one released.
    leases.hold({ keyId: 'key_2', accountId: 'acct_1', tier: 'hobby', stream: older, end: (r) => ended.push(`${r}:older` as AccessEnd) });
    releaseOld();
    expect(leases.makeRoomForStream('acct_1', 2)).toBe(1);
    expect(ended).toEqual(['displaced:older']);
    leases.close();
  });
});
