import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/**
 * Rule secrets must be kept as they are (the delivering replica signs with them), and the tables
 * and topics that carry rules are readable by analysts and brokers. So a rule's secret is stored
 * sealed with AES-256-GCM under a key only API processes hold: what is stored cannot sign.
 */
export class SecretSeal {
  private static readonly PREFIX = 'sealed:v1:';

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError(`a seal key is 32 bytes, got ${key.length}`);
  }

  /** A key from `ALERT_SECRET_KEY` (64 hex digits), else from `<dataDir>/alert-secret.key`, made on first use. */
  static load(hexKey: string | null, dataDir: string): SecretSeal {
    if (hexKey !== null) return new SecretSeal(Buffer.from(hexKey, 'hex'));
    const file = join(dataDir, 'alert-secret.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    }
    const text = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is not a key of 64 hex digits (delete it to make a new one)`);
    return new SecretSeal(Buffer.from(text, 'hex'));
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SecretSeal.PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The secret, or null when `sealed` was sealed under another key or is damaged. */
  open(sealed: string): string | null {
    if (!sealed.startsWith(SecretSeal.PREFIX)) return null;
    const raw = Buffer.from(sealed.slice(SecretSeal.PREFIX.length), 'base64url');
    if (raw.length < 28) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
