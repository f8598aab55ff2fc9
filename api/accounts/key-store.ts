import type { AccountChange, AccountRecord, ApiKeyRecord, TierName } from '../../schemas/index.js';
import { AlertRuleBook } from './alert-rule-book.js';
import { hashSecret, newId, previewOf } from './secrets.js';

/** What the auth hook puts on a request: ids for limits, usage and logs, never the secret. */
export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  tier: TierName;
  /** A per-key request limit (Enterprise's "custom"); the tier's when absent. */
  requestsPerMinute?: number;
}

/** A key's state at a time: usable, in a rotation's grace period, expired or revoked. */
export type KeyStatus = 'active' | 'grace' | 'expired' | 'revoked';

export function keyStatus(k: ApiKeyRecord, now: number): KeyStatus {
  if (!k.active) return 'revoked';
  if (k.expiresAt === null) return 'active';
  return now < k.expiresAt ? 'grace' : 'expired';
}

/** The one answer to "may this key be used now": REST lookups and lasting access both ask it. */
export function isUsable(k: ApiKeyRecord | undefined, now: number): k is ApiKeyRecord {
  if (!k) return false;
  const status = keyStatus(k, now);
  return status === 'active' || status === 'grace';
}

/** Told every key record this replica applies (its own writes and the topic's), with the one it replaced. */
export type KeyChangeListener = (before: ApiKeyRecord | undefined, after: ApiKeyRecord) => void;
/** Told every account record this replica applies (its own writes and the topic's), with the one it replaced. */
export type AccountChangeListener = (before: AccountRecord | undefined, after: AccountRecord) => void;

/**
 * One replica's view of every account and key: loaded from the store at start, then kept by
 * the `accounts` topic. A lookup is one hash and one Map read; nothing here does I/O. Changes
 * apply by version, so a change seen twice (own write, then the topic) or late is harmless,
 * and a revoked key never comes back.
 */
export class KeyStore {
  private readonly keysById = new Map<string, ApiKeyRecord>();
  private readonly idByHash = new Map<string, string>();
  private readonly accountsById = new Map<string, AccountRecord>();
  private readonly keyIdsByAccount = new Map<string, Set<string>>();
  private readonly authById = new Map<string, AuthenticatedKey>();
  private readonly listeners = new Set<KeyChangeListener>();
  private readonly accountListeners = new Set<AccountChangeListener>();
  /** The accounts' alert rules: they travel with the keys, so they load and replicate the same way. */
  readonly rules = new AlertRuleBook();

  constructor(private readonly now: () => number = Date.now) {}

  apply(change: AccountChange): void {
    if (change.kind === 'alert_rule') {
      this.rules.apply(change.rule);
      return;
    }
    if (change.kind === 'account') {
      const current = this.accountsById.get(change.account.id);
      if (current && change.account.version < current.version) return;
      this.accountsById.set(change.account.id, change.account);
      for (const listener of this.accountListeners) listener(current, change.account);
      return;
    }
    const next = change.key;
    const current = this.keysById.get(next.id);
    if (current && next.version < current.version) return;
    const record = current && !current.active ? { ...next, active: false, revokedAt: current.revokedAt ?? next.revokedAt } : next;
    if (current && current.hash !== record.hash) this.idByHash.delete(current.hash);
    this.keysById.set(record.id, record);
    this.idByHash.set(record.hash, record.id);
    let ids = this.keyIdsByAccount.get(record.accountId);
    if (!ids) this.keyIdsByAccount.set(record.accountId, (ids = new Set()));
    ids.add(record.id);
    this.authById.set(record.id, {
      keyId: record.id,
      accountId: record.accountId,
      tier: record.tier,
      ...(record.requestsPerMinute === null ? {} : { requestsPerMinute: record.requestsPerMinute }),
    });
    for (const listener of this.listeners) listener(current, record);
  }

  /**
   * Calls `listener` with every key change applied from now on, on whichever path it came
   * (this replica's write or the topic), so access that lasts can be ended where it is held.
   * Returns the unsubscribe.
   */
  onKeyChange(listener: KeyChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls `listener` with every account record applied from now on, on whichever path it came,
   * so what an open stream took from the account (its commission rate) can follow it. Returns
   * the unsubscribe.
   */
  onAccountChange(listener: AccountChangeListener): () => void {
    this.accountListeners.add(listener);
    return () => this.accountListeners.delete(listener);
  }

  /** The key a secret names, if it may be used now: not revoked, not past its grace period. */
  lookup(secret: string): AuthenticatedKey | undefined {
    const id = this.idByHash.get(hashSecret(secret));
    return id === undefined ? undefined : this.lookupId(id);
  }

  /** The key of an id, if it may be used now (a browser session holds the id, never the secret). */
  lookupId(id: string): AuthenticatedKey | undefined {
    return isUsable(this.keysById.get(id), this.now()) ? this.authById.get(id) : undefined;
  }

  key(id: string): ApiKeyRecord | undefined {
    return this.keysById.get(id);
  }

  /** A key's state now, by this store's clock (undefined: no such key). */
  status(id: string): KeyStatus | undefined {
    const record = this.keysById.get(id);
    return record ? keyStatus(record, this.now()) : undefined;
  }

  /** The key record a secret names, whatever its state (operator tooling). */
  keyBySecret(secret: string): ApiKeyRecord | undefined {
    const id = this.idByHash.get(hashSecret(secret));
    return id === undefined ? undefined : this.keysById.get(id);
  }

  account(id: string): AccountRecord | undefined {
    return this.accountsById.get(id);
  }

  /** An account's keys, oldest first. */
  keysOf(accountId: string): ApiKeyRecord[] {
    const ids = this.keyIdsByAccount.get(accountId) ?? new Set<string>();
    return [...ids].flatMap((id) => this.keysById.get(id) ?? []).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  get size(): number {
    return this.keysById.size;
  }

  /**
   * Registers a key in this replica only, in no account store: for tests and benchmarks that
   * need many keys without the write path. Real keys go through `Accounts`.
   */
  add(secret: string, tier: TierName, overrides: { requestsPerMinute?: number } = {}): AuthenticatedKey {
    const now = this.now();
    const accountId = newId('acct');
    this.apply({ kind: 'account', account: { id: accountId, name: 'local', createdAt: now, version: 1, exchangeCommission: null } });
    const id = newId('key');
    this.apply({
      kind: 'key',
      key: {
        id,
        accountId,
        hash: hashSecret(secret),
        preview: previewOf(secret),
        tier,
        name: null,
        createdAt: now,
        updatedAt: now,
        active: true,
        expiresAt: null,
        revokedAt: null,
        requestsPerMinute: overrides.requestsPerMinute ?? null,
        replacedBy: null,
        version: 1,
      },
    });
    return this.authById.get(id) as AuthenticatedKey;
  }
}
