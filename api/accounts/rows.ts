import { ALERT_KINDS, TIER_NAMES } from '../../schemas/index.js';
import type { AccountRecord, AlertKind, AlertRuleRecord, ApiKeyRecord, TierName } from '../../schemas/index.js';
import { clickHouseTime } from '../../pipeline/sinks/index.js';
import type { StoreRow } from '../../pipeline/store/index.js';

/** The `accounts` and `api_keys` tables (004_accounts.sql) and `alert_rules` (012_alert_rules.sql) to and from records. */

export function accountRow(a: AccountRecord): StoreRow {
  return { id: a.id, name: a.name, created_at: clickHouseTime(a.createdAt), exchange_commission: a.exchangeCommission, version: a.version };
}

export function keyRow(k: ApiKeyRecord): StoreRow {
  return {
    id: k.id,
    account_id: k.accountId,
    key_hash: k.hash,
    preview: k.preview,
    tier: k.tier,
    name: k.name,
    created_at: clickHouseTime(k.createdAt),
    updated_at: clickHouseTime(k.updatedAt),
    active: k.active,
    expires_at: k.expiresAt === null ? null : clickHouseTime(k.expiresAt),
    revoked_at: k.revokedAt === null ? null : clickHouseTime(k.revokedAt),
    requests_per_minute: k.requestsPerMinute,
    replaced_by: k.replacedBy,
    version: k.version,
  };
}

/** Times come back as epoch ms so both adapters agree (`toUnixTimestamp64Milli`). */
export const ACCOUNT_SELECT =
  'SELECT id, name, toUnixTimestamp64Milli(created_at) AS created_at, exchange_commission, version FROM accounts FINAL';
export const KEY_SELECT =
  'SELECT id, account_id, key_hash, preview, tier, name, toUnixTimestamp64Milli(created_at) AS created_at, ' +
  'toUnixTimestamp64Milli(updated_at) AS updated_at, active, toUnixTimestamp64Milli(expires_at) AS expires_at, ' +
  'toUnixTimestamp64Milli(revoked_at) AS revoked_at, requests_per_minute, replaced_by, version FROM api_keys FINAL';

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** Bool columns come back as true, 1 or 'true' depending on the adapter. */
const isTrue = (v: unknown): boolean => v === true || v === 1 || v === 'true';

export function accountFromRow(r: StoreRow): AccountRecord {
  return {
    id: String(r['id']),
    name: String(r['name']),
    createdAt: num(r['created_at']),
    version: num(r['version']),
    exchangeCommission: numOrNull(r['exchange_commission']),
  };
}

/** Null for a row whose tier this build does not know (kept in the table, not served). */
export function keyFromRow(r: StoreRow): ApiKeyRecord | null {
  const tier = String(r['tier']);
  if (!(TIER_NAMES as readonly string[]).includes(tier)) return null;
  return {
    id: String(r['id']),
    accountId: String(r['account_id']),
    hash: String(r['key_hash']),
    preview: String(r['preview']),
    tier: tier as TierName,
    name: strOrNull(r['name']),
    createdAt: num(r['created_at']),
    updatedAt: num(r['updated_at']),
    active: isTrue(r['active']),
    expiresAt: numOrNull(r['expires_at']),
    revokedAt: numOrNull(r['revoked_at']),
    requestsPerMinute: numOrNull(r['requests_per_minute']),
    replacedBy: strOrNull(r['replaced_by']),
    version: num(r['version']),
  };
}

export function ruleRow(r: AlertRuleRecord): StoreRow {
  return {
    id: r.id,
    account_id: r.accountId,
    key_id: r.keyId,
    tier: r.tier,
    name: r.name,
    kind: r.kind,
    filters_json: r.filtersJson,
    webhook_url: r.webhookUrl,
    secret: r.secret,
    created_at: clickHouseTime(r.createdAt),
    updated_at: clickHouseTime(r.updatedAt),
    active: r.active,
    deleted_at: r.deletedAt === null ? null : clickHouseTime(r.deletedAt),
    version: r.version,
  };
}

export const RULE_SELECT =
  'SELECT id, account_id, key_id, tier, name, kind, filters_json, webhook_url, secret, ' +
  'toUnixTimestamp64Milli(created_at) AS created_at, toUnixTimestamp64Milli(updated_at) AS updated_at, active, ' +
  'toUnixTimestamp64Milli(deleted_at) AS deleted_at, version FROM alert_rules FINAL';

/** Null for a row whose tier or kind this build does not know (kept in the table, not served). */
export function ruleFromRow(r: StoreRow): AlertRuleRecord | null {
  const tier = String(r['tier']);
  const kind = String(r['kind']);
  if (!(TIER_NAMES as readonly string[]).includes(tier) || !(ALERT_KINDS as readonly string[]).includes(kind)) return null;
  return {
    id: String(r['id']),
    accountId: String(r['account_id']),
    keyId: String(r['key_id']),
    tier: tier as TierName,
    name: strOrNull(r['name']),
    kind: kind as AlertKind,
    filtersJson: String(r['filters_json']),
    webhookUrl: String(r['webhook_url']),
    secret: String(r['secret']),
    createdAt: num(r['created_at']),
    updatedAt: num(r['updated_at']),
    active: isTrue(r['active']),
    deletedAt: numOrNull(r['deleted_at']),
    version: num(r['version']),
  };
}
