import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIER_NAMES } from '../schemas/index.js';
import type { TierName } from '../schemas/index.js';

export interface ApiKeyRecord {
  /** A label for logs and usage: never the key itself. */
  keyId: string;
  tier: TierName;
  /** A per-key request limit (Enterprise's "custom"); the tier's when absent. */
  requestsPerMinute?: number;
}

/** Keys are kept only as SHA-256 digests; the plaintext exists in the caller's hands. */
export class KeyStore {
  private readonly byHash = new Map<string, ApiKeyRecord>();

  add(key: string, tier: TierName, overrides: { requestsPerMinute?: number } = {}): ApiKeyRecord {
    const hash = hashKey(key);
    const record: ApiKeyRecord = { keyId: hash.slice(0, 12), tier, ...overrides };
    this.byHash.set(hash, record);
    return record;
  }

  lookup(key: string): ApiKeyRecord | undefined {
    return this.byHash.get(hashKey(key));
  }
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * One demo key per tier, made on first start and kept in the data directory (mode 0600) so
 * that restarts print the same keys.
 */
export function loadOrCreateDemoKeys(dataDir: string): Record<TierName, string> {
  const file = join(dataDir, 'demo-keys.json');
  if (existsSync(file)) {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isKeyMap(parsed)) return parsed;
  }
  const keys = Object.fromEntries(
    TIER_NAMES.map((tier) => [tier, `${tier}_${randomBytes(18).toString('base64url')}`]),
  ) as Record<TierName, string>;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

function isKeyMap(x: unknown): x is Record<TierName, string> {
  if (typeof x !== 'object' || x === null) return false;
  return TIER_NAMES.every((t) => typeof (x as Record<string, unknown>)[t] === 'string');
}

/** `API_KEYS=pro:abc123,free:xyz`: operator-issued keys. */
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
