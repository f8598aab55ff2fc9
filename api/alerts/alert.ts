import { createHash } from 'node:crypto';
import type { AlertKind } from '../../schemas/index.js';

/** One alert a rule raised: what is posted to its webhook and sent on the `alerts` stream channel. */
export interface Alert {
  /** The idempotency key (see `alertId`). */
  id: string;
  ruleId: string;
  accountId: string;
  kind: AlertKind;
  /** Per rule, increasing in the order the rule raised its alerts. */
  sequence: number;
  /** Data clock, epoch ms. */
  raisedAt: number;
  /** The row that matched, as the list's REST endpoint presents it. */
  data: object;
}

/**
 * The id of the alert a rule raises for a subject (an opportunity at its detection time, a line
 * move at its time). Derived, not drawn: every replica computes the same one for the same
 * alert, so a receiver that sees it twice (a retry, a failover) can drop the second.
 */
export function alertId(ruleId: string, subject: string): string {
  return 'alt_' + createHash('sha256').update(`${ruleId}|${subject}`).digest('hex').slice(0, 32);
}

/** The JSON body posted to the webhook (the stream frame carries the same object). */
export function alertBody(alert: Alert): string {
  return JSON.stringify({
    id: alert.id,
    rule_id: alert.ruleId,
    kind: alert.kind,
    sequence: alert.sequence,
    raised_at: new Date(alert.raisedAt).toISOString(),
    data: alert.data,
  });
}
