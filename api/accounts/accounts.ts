import type { Logger } from 'pino';
import { TOPICS } from '../../schemas/index.js';
import type { AccountChange, AccountRecord, AlertRuleRecord, ApiKeyRecord, TierName } from '../../schemas/index.js';
import { NO_BATCH } from '../../pipeline/bus/index.js';
import type { Bus, Producer } from '../../pipeline/bus/index.js';
import { startStage } from '../../pipeline/runner.js';
import type { StageFailureHandler } from '../../pipeline/runner.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { KeyStore, isUsable, keyStatus } from './key-store.js';
import { ACCOUNT_SELECT, KEY_SELECT, RULE_SELECT, accountFromRow, accountRow, keyFromRow, keyRow, ruleFromRow, ruleRow } from './rows.js';
import { randomBytes } from 'node:crypto';
import { SecretSeal, hashSecret, newId, newSecret, previewOf } from './secrets.js';

export interface NewKey {
  record: ApiKeyRecord;
  /** The secret: returned once, to be shown once, never stored or logged. */
  secret: string;
}

export interface KeyOptions {
  tier: TierName;
  name?: string | null;
  requestsPerMinute?: number | null;
  /** An operator-chosen secret (`API_KEYS`, demo keys); a new random one otherwise. */
  secret?: string;
}

export interface Rotation {
  next: NewKey;
  old: ApiKeyRecord;
}

/** A key change refused by the state it would change (the API answers 409 conflict with the message). */
export class KeyConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyConflict';
  }
}

/**
 * Why a rotation may not happen, if it may not. A key is rotated once: its successor carries on
 * (a second rotation of the same key would leave two successors, each a working key). And a
 * grace period keeps the old key working beside the new one, so an account holds at most one key
 * in a grace period per active key: every usable key then has a slot, and rotating the newest
 * key again and again mints nothing. Rotating without a grace period is always possible.
 */
export function rotationConflict(key: ApiKeyRecord, accountKeys: readonly ApiKeyRecord[], graceHours: number, now: number): string | null {
  if (key.replacedBy !== null) return `Key '${key.id}' was already rotated: its successor is '${key.replacedBy}'; rotate that key instead`;
  if (graceHours === 0) return null;
  const grace = accountKeys.filter((k) => keyStatus(k, now) === 'grace');
  const active = accountKeys.filter((k) => keyStatus(k, now) === 'active').length;
  if (grace.length < active) return null;
  const held = grace.map((k) => `'${k.id}' until ${new Date(k.expiresAt ?? now).toISOString()}`).join(', ');
  return `This account already holds ${grace.length} key(s) in a rotation grace period (${held}) for ${active} active key(s): revoke ${grace.length === 1 ? 'it' : 'one'} or wait for its grace period to end, or rotate with gracePeriodHours 0`;
}

const HOUR_MS = 3_600_000;

/**
 * The write side of accounts and keys. A change is written to the store (so an acknowledged key
 * survives any restart: a replica loads the store when it starts) and published on the compacted
 * `accounts` topic (which every running replica follows) at once, then applied to this replica's
 * view, so the caller's next request sees it; the caller answers only after all of it.
 */
export class Accounts {
  /** Per account, the key change in progress: checks and writes of one account's keys run one at a time. */
  private readonly inProgress = new Map<string, Promise<unknown>>();

  constructor(
    readonly keys: KeyStore,
    private readonly store: OlapStore,
    private readonly producer: Producer | null,
    private readonly now: () => number,
    /** Seals alert rules' signing secrets before they are stored (a key of this process's own when none is given). */
    readonly seal: SecretSeal = new SecretSeal(randomBytes(32)),
  ) {}

  /**
   * Runs `op` after the account's earlier key changes on this replica have finished: a cap
   * checked and then written across an await would otherwise let concurrent requests all pass
   * the check. (Two replicas can still race; each key change is one durable write either way.)
   */
  async serially<T>(accountId: string, op: () => Promise<T>): Promise<T> {
    const before = this.inProgress.get(accountId) ?? Promise.resolve();
    const run = before.then(op, op);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.inProgress.set(accountId, settled);
    try {
      return await run;
    } finally {
      if (this.inProgress.get(accountId) === settled) this.inProgress.delete(accountId);
    }
  }

  async createAccount(name: string): Promise<AccountRecord> {
    const account = this.newAccount(name);
    await this.commit([account], []);
    return account;
  }

  /** A new key in an account. `secret` is for operator-supplied keys (`API_KEYS`, demo keys). */
  async createKey(accountId: string, options: KeyOptions): Promise<NewKey> {
    const created = this.newKey(accountId, options);
    await this.commit([], [created.record]);
    return created;
  }

  /** Accounts with one key each, in one write per table (start-up registration of many keys). */
  async createAccountsWithKeys(entries: readonly { account: string; key: KeyOptions }[]): Promise<NewKey[]> {
    const accounts = entries.map((e) => this.newAccount(e.account));
    const keys = entries.map((e, i) => this.newKey((accounts[i] as AccountRecord).id, e.key));
    await this.commit(
      accounts,
      keys.map((k) => k.record),
    );
    return keys;
  }

  private newAccount(name: string): AccountRecord {
    const now = this.now();
    return { id: newId('acct'), name, createdAt: now, version: now, exchangeCommission: null };
  }

  /**
   * Sets (or, with null, clears) the account's own exchange commission rate, written and
   * replicated as every account change is. Undefined for an account this replica does not know.
   */
  async setExchangeCommission(accountId: string, rate: number | null): Promise<AccountRecord | undefined> {
    const current = this.keys.account(accountId);
    if (!current) return undefined;
    const now = this.now();
    const next = { ...current, exchangeCommission: rate, version: this.nextVersion(current, now) };
    await this.commit([next], []);
    return next;
  }

  private newKey(accountId: string, options: KeyOptions): NewKey {
    const now = this.now();
    const secret = options.secret ?? newSecret();
    const record: ApiKeyRecord = {
      id: newId('key'),
      accountId,
      hash: hashSecret(secret),
      preview: previewOf(secret),
      tier: options.tier,
      name: options.name ?? null,
      createdAt: now,
      updatedAt: now,
      active: true,
      expiresAt: null,
      revokedAt: null,
      requestsPerMinute: options.requestsPerMinute ?? null,
      replacedBy: null,
      version: now,
    };
    return { record, secret };
  }

  /**
   * Revokes at once. Revoking a revoked key changes nothing, but writes its record again: when
   * one of a revocation's two writes failed (the request answered 503, "retry shortly"), the
   * retry completes it instead of finding the key revoked here and writing nothing.
   */
  async revokeKey(id: string): Promise<ApiKeyRecord | undefined> {
    const current = this.keys.key(id);
    if (!current) return undefined;
    if (!current.active) return this.writeKey(current);
    const now = this.now();
    return this.writeKey({ ...current, active: false, revokedAt: now, updatedAt: now, version: this.nextVersion(current, now) });
  }

  /** Moves a key to another tier (operator tooling: `API_KEYS` entries follow their tier). */
  async setTier(id: string, tier: TierName): Promise<ApiKeyRecord | undefined> {
    const current = this.keys.key(id);
    if (!current || !current.active || current.tier === tier) return current;
    const now = this.now();
    return this.writeKey({ ...current, tier, updatedAt: now, version: this.nextVersion(current, now) });
  }

  /**
   * A new key with the old one's account, tier and limit (and name unless given); the old key
   * keeps working for `graceHours` (0 revokes it at once), then is refused. Throws KeyConflict
   * when `rotationConflict` refuses it.
   */
  async rotateKey(id: string, options: { graceHours: number; name?: string | null }): Promise<Rotation | undefined> {
    const current = this.keys.key(id);
    if (!current || !current.active) return undefined;
    const conflict = rotationConflict(current, this.keys.keysOf(current.accountId), options.graceHours, this.now());
    if (conflict !== null) throw new KeyConflict(conflict);
    const next = this.newKey(current.accountId, {
      tier: current.tier,
      name: options.name === undefined ? current.name : options.name,
      requestsPerMinute: current.requestsPerMinute,
    });
    const now = this.now();
    const base = { ...current, replacedBy: next.record.id, updatedAt: now, version: this.nextVersion(current, now) };
    const old =
      options.graceHours === 0
        ? { ...base, active: false, revokedAt: now }
        : { ...base, expiresAt: Math.min(current.expiresAt ?? Infinity, now + options.graceHours * HOUR_MS) };
    // One write: the new key and the old one's end arrive together everywhere.
    await this.commit([], [next.record, old]);
    return { next, old };
  }

  /** Keys of an account that count against its tier's cap: every usable one, a rotated key in its grace period too. */
  countedKeys(accountId: string): number {
    const now = this.now();
    return this.keys.keysOf(accountId).filter((k) => isUsable(k, now)).length;
  }

  private nextVersion(current: { version: number }, now: number): number {
    return Math.max(current.version + 1, now);
  }

  private async writeKey(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    await this.commit([], [record]);
    return record;
  }

  /**
   * Writes an alert rule (new, or a later version of one) the way keys are written: the table and
   * the topic, then this replica's view. Callers check the tier's cap inside `serially`.
   */
  async writeRule(rule: AlertRuleRecord): Promise<AlertRuleRecord> {
    await this.commit([], [], [rule]);
    return rule;
  }

  /**
   * The store and the topic at once, then this replica's view. The topic is what makes a change
   * reach the other replicas, the store what a replica restarted later loads: written one after
   * the other (store first, until issue 36's chaos run), the others learned of a revocation only
   * once the store's insert had returned (that run measured a loaded answer at 975 ms and the
   * other replica's streams ending 200 ms after it). Nothing accepted is lost
   * either way: the caller answers only once both writes are done. When one of them failed the
   * caller answers the failure and the change is applied here anyway (it went somewhere, and the
   * topic brings it back to this replica too); when both failed nothing changed.
   */
  private async commit(
    accounts: readonly AccountRecord[],
    keys: readonly ApiKeyRecord[],
    rules: readonly AlertRuleRecord[] = [],
  ): Promise<void> {
    const changes: AccountChange[] = [
      ...accounts.map((account): AccountChange => ({ kind: 'account', account })),
      ...keys.map((key): AccountChange => ({ kind: 'key', key })),
      ...rules.map((rule): AccountChange => ({ kind: 'alert_rule', rule })),
    ];
    const publishing =
      this.producer?.send(
        TOPICS.accounts,
        changes.map((change) => ({ key: changeKey(change), value: change })),
        NO_BATCH,
      ) ?? null;
    const [stored, published] = await Promise.allSettled([
      (async () => {
        if (accounts.length > 0) await this.store.insert('accounts', accounts.map(accountRow));
        if (keys.length > 0) await this.store.insert('api_keys', keys.map(keyRow));
        if (rules.length > 0) await this.store.insert('alert_rules', rules.map(ruleRow));
      })(),
      publishing,
    ]);
    const wentSomewhere = stored.status === 'fulfilled' || (publishing !== null && published.status === 'fulfilled');
    if (wentSomewhere) for (const change of changes) this.keys.apply(change);
    if (stored.status === 'rejected') throw stored.reason;
    if (published.status === 'rejected') throw published.reason;
  }
}

/** The compacted topic's key of a change: the latest change of each record survives compaction. */
function changeKey(change: AccountChange): string {
  switch (change.kind) {
    case 'account':
      return `account:${change.account.id}`;
    case 'key':
      return `key:${change.key.id}`;
    case 'alert_rule':
      return `alert:${change.rule.id}`;
  }
}

/** Every account, key and alert rule in the store, as changes to apply. */
export async function loadAccountChanges(store: OlapStore): Promise<AccountChange[]> {
  const accounts = await store.query(ACCOUNT_SELECT);
  const keys = await store.query(KEY_SELECT);
  const rules = await store.query(RULE_SELECT);
  return [
    ...accounts.map((r): AccountChange => ({ kind: 'account', account: accountFromRow(r) })),
    ...keys.flatMap((r): AccountChange[] => {
      const key = keyFromRow(r);
      return key ? [{ kind: 'key', key }] : [];
    }),
    ...rules.flatMap((r): AccountChange[] => {
      const rule = ruleFromRow(r);
      return rule ? [{ kind: 'alert_rule', rule }] : [];
    }),
  ];
}

export interface AccountsReplica {
  keys: KeyStore;
  accounts: Accounts;
  /** Stops following the topic. */
  stop(): Promise<void>;
}

/**
 * One API replica's accounts: the view loaded from the store, then kept current by its own
 * consumer group on the `accounts` topic (from the beginning: on Kafka the compacted topic
 * replays every key; in process it holds what this run changed).
 */
export async function startAccounts(options: {
  bus: Bus;
  store: OlapStore;
  now?: () => number;
  replicaId: string;
  logger: Logger;
  /** The seal every API replica shares (ALERT_SECRET_KEY), so that any of them can sign. */
  seal?: SecretSeal;
  /** The runtime's failure policy for the topic's consumer. */
  onFailure?: StageFailureHandler;
}): Promise<AccountsReplica> {
  const now = options.now ?? Date.now;
  const keys = new KeyStore(now);
  for (const change of await loadAccountChanges(options.store)) keys.apply(change);
  // A consumer that stopped would freeze this replica's keys: a key revoked on another replica
  // would go on working here. So it runs as a stage under the runtime's failure policy (started
  // again after a lost connection, else the process stops), like the board's views.
  const stage = startStage(
    options.bus,
    'view:accounts',
    { groupId: `api-accounts-${options.replicaId}`, topic: TOPICS.accounts, fromBeginning: true, shared: false },
    async (records) => {
      for (const r of records) if (r.value !== null) keys.apply(r.value);
    },
    options.logger,
    options.onFailure,
  );
  options.logger.info({ keys: keys.size }, 'accounts loaded');
  return { keys, accounts: new Accounts(keys, options.store, options.bus.producer(), now, options.seal), stop: () => stage.stop() };
}
