import type { AlertDeliveryRecord } from '../../schemas/index.js';
import { clickHouseTime } from '../../pipeline/sinks/index.js';
import type { StoreRow } from '../../pipeline/store/index.js';

/** The `alert_deliveries` table (012_alert_rules.sql) to and from records. */

export function deliveryRow(d: AlertDeliveryRecord): StoreRow {
  return {
    rule_id: d.ruleId,
    account_id: d.accountId,
    alert_id: d.alertId,
    sequence: d.sequence,
    outcome: d.outcome,
    attempts: d.attempts,
    last_status: d.lastStatus,
    last_error: d.lastError,
    raised_at: clickHouseTime(d.raisedAt),
    finished_at: clickHouseTime(d.finishedAt),
    body: d.body,
  };
}

/** A rule's deliveries, newest first, optionally only one outcome; bound parameters only. */
export const DELIVERY_SELECT =
  'SELECT rule_id, account_id, alert_id, sequence, outcome, attempts, last_status, last_error, ' +
  'toUnixTimestamp64Milli(raised_at) AS raised_at, toUnixTimestamp64Milli(finished_at) AS finished_at, body ' +
  "FROM alert_deliveries FINAL WHERE rule_id = {rule:String} AND ({outcome:String} = '' OR outcome = {outcome:String}) " +
  'ORDER BY sequence DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}';

export function deliveryFromRow(r: StoreRow): AlertDeliveryRecord {
  const status = r['last_status'];
  const error = r['last_error'];
  return {
    ruleId: String(r['rule_id']),
    accountId: String(r['account_id']),
    alertId: String(r['alert_id']),
    sequence: Number(r['sequence']),
    outcome: r['outcome'] === 'delivered' ? 'delivered' : 'dead_letter',
    attempts: Number(r['attempts']),
    lastStatus: status === null || status === undefined ? null : Number(status),
    lastError: error === null || error === undefined ? null : String(error),
    raisedAt: Number(r['raised_at']),
    finishedAt: Number(r['finished_at']),
    body: String(r['body']),
  };
}
