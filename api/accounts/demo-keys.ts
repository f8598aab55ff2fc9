import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIER_NAMES } from '../../schemas/index.js';
import type { TierName } from '../../schemas/index.js';
import type { Accounts } from './accounts.js';

/**
 * The secrets of `make run`'s demo keys, one per tier, made on first start and kept in the data
 * directory (mode 0600) so that every start can print them. The key store itself holds only
 * their hashes, like any other key's.
 */
export function loadOrCreateDemoSecrets(dataDir: string): Record<TierName, string> {
  const file = join(dataDir, 'demo-keys.json');
  if (existsSync(file)) {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isKeyMap(parsed)) return parsed;
  }
  const keys = Object.fromEntries(TIER_NAMES.map((tier) => [tier, `${tier}_${randomBytes(18).toString('base64url')}`])) as Record<
    TierName,
    string
  >;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

function isKeyMap(x: unknown): x is Record<TierName, string> {
  if (typeof x !== 'object' || x === null) return false;
  return TIER_NAMES.every((t) => typeof (x as Record<string, unknown>)[t] === 'string');
}

/** `API_KEYS=pro:abc123,free:xyz`: operator-chosen secrets. */
export function parseApiKeys(spec: string): { key: string; tier: TierName }[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((entry) => {
      const i = entry.indexOf(':');
      const tier = entry.slice(0, i);
      const key = entry.slice(i + 1);
      if (i <= 0 || key.length < 8 || !(TIER_NAMES as readonly string[]).includes(tier)) {
        throw new Error(`API_KEYS entry must be tier:key with a tier of ${TIER_NAMES.join('|')} and a key of 8+ characters`);
      }
      return { key, tier: tier as TierName };
    });
}

/**
 * Makes sure each secret is a key of the store: a missing one gets its own account
 * (`<label> <tier>`) and key, made the ordinary way. A known one follows its configured tier;
 * a revoked one stays revoked across restarts.
 */
export async function ensureKeys(accounts: Accounts, label: string, secrets: readonly { key: string; tier: TierName }[]): Promise<void> {
  const missing: { key: string; tier: TierName }[] = [];
  for (const s of secrets) {
    const known = accounts.keys.keyBySecret(s.key);
    if (known === undefined) missing.push(s);
    else await accounts.setTier(known.id, s.tier);
  }
  if (missing.length === 0) return;
  await accounts.createAccountsWithKeys(
    missing.map((s) => ({ account: `${label} ${s.tier}`, key: { tier: s.tier, name: label, secret: s.key } })),
  );
}
