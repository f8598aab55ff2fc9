import { createHash, randomBytes } from 'node:crypto';

/** Secrets look like the reference's (`sk_live_…`), so clients that check the prefix accept them. */
export const SECRET_PREFIX = 'sk_live_';

/** A new secret: 32 random bytes, base64url (43 characters) after the prefix. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are kept and looked up only as this digest. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * What a listing shows of a secret: its prefix (up to the last `_`) and its last four characters,
 * enough to tell keys apart, never enough to use one.
 */
export function previewOf(secret: string): string {
  const first = secret.indexOf('_');
  const prefix = secret.startsWith(SECRET_PREFIX) ? SECRET_PREFIX : first > 0 && first <= 12 ? secret.slice(0, first + 1) : '';
  return `${prefix}...${secret.slice(-4)}`;
}

/** A webhook signing secret (`whsec_` and 32 random bytes, base64url): an HMAC key, shown once. */
export function newWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}

/** Opaque record ids: `key_`, `acct_` or `alert_` and 16 hex digits. */
export function newId(prefix: 'key' | 'acct' | 'alert'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
