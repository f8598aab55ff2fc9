import type { AlertRuleRecord } from './alerts.js';
import type { TierName } from './reference/index.js';

/** An account: who owns keys and whose usage is summed. */
export interface AccountRecord {
  id: string;
  name: string;
  createdAt: number;
  /** Monotonic per record: a replica keeps the highest version it has seen. */
  version: number;
  /**
   * The account's own exchange commission rate, percent: what its answers price exchange legs
   * at when a request gives no `commission=`. Null: the exchange's base rate.
   */
  exchangeCommission: number | null;
}

/**
 * One API key as every replica materialises it. The secret itself is never stored: only its
 * SHA-256 (`hash`) and a short `preview` (prefix and last four characters) for listings.
 */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  hash: string;
  preview: string;
  tier: TierName;
  name: string | null;
  createdAt: number;
  updatedAt: number;
  /** False once revoked; a revoked key never comes back. */
  active: boolean;
  /** End of a rotation's grace period (epoch ms): the key is refused from then on. */
  expiresAt: number | null;
  revokedAt: number | null;
  /** A per-key request limit (Enterprise's "custom"); the tier's when null. */
  requestsPerMinute: number | null;
  /** Set when a rotation replaced this key. */
  replacedBy: string | null;
  version: number;
}

/** A record of the compacted `accounts` topic, keyed `account:<id>`, `key:<id>` or `alert:<id>`. */
export type AccountChange =
  { kind: 'account'; account: AccountRecord } | { kind: 'key'; key: ApiKeyRecord } | { kind: 'alert_rule'; rule: AlertRuleRecord };
