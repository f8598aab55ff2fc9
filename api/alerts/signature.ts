import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers of a webhook delivery (lower case, as Node hands them to a receiver). */
export const WEBHOOK_HEADERS = {
  /** `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the rule's secret. */
  signature: 'x-signature',
  /** Unix seconds when this attempt was signed: a receiver refuses old ones (replay protection). */
  timestamp: 'x-signature-timestamp',
  /** The alert's id: the same on every attempt and every replica, so a receiver can drop repeats. */
  idempotencyKey: 'idempotency-key',
} as const;

/** How old a signed timestamp a receiver should accept, by default (seconds). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The signature of one attempt: the timestamp is signed with the body, so neither can be swapped. */
export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

/**
 * A receiver's check, as `docs/alerts.md` shows it: the signature matches (compared in constant
 * time) and the timestamp is within the tolerance of the receiver's clock.
 */
export function verifyWebhook(options: {
  secret: string;
  body: string;
  signature: string;
  timestamp: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): boolean {
  const ts = Number(options.timestamp);
  if (!Number.isInteger(ts) || Math.abs(options.nowSeconds - ts) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signWebhook(options.secret, ts, options.body));
  const given = Buffer.from(options.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
