import type { Logger } from 'pino';
import { TOPICS } from '../../schemas/index.js';
import type { AlertRuleRecord } from '../../schemas/index.js';
import type { Bus } from '../../pipeline/bus/index.js';
import { startStage } from '../../pipeline/runner.js';
import type { StageFailureHandler } from '../../pipeline/runner.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import type { AlertRuleBook, SecretSeal } from '../accounts/index.js';
import type { LinesOf, RowContext } from '../contract/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import type { OpportunityBoard } from '../views/index.js';
import type { Alert } from './alert.js';
import { WebhookDelivery } from './delivery.js';
import type { DeliveryOptions, WebhookPoster } from './delivery.js';
import { deliveryRow } from '../accounts/index.js';
import { AlertDetector } from './detector.js';
import { LineMoveDetector } from './line-move-detector.js';

/** Consumer group every API replica joins to elect the one that delivers (see `startAlerting`). */
export const DELIVERY_GROUP = 'api-alert-delivery';

export interface Alerting {
  detector: AlertDetector;
  /** Line-move rules' detector; null without the boards it reads. */
  lineMoves: LineMoveDetector | null;
  delivery: WebhookDelivery;
  /** Whether this replica delivers webhooks now. */
  delivering(): boolean;
  /** Every alert this replica raises, delivering or not (where a stream channel would listen); returns the unsubscribe. */
  onAlert(listener: (alert: Alert) => void): () => void;
  stop(): Promise<void>;
}

/**
 * Alert rules at work on one API replica. Every replica detects (any can take over delivery,
 * and `onAlert` hands every alert to listeners on this replica), but only one posts webhooks, so a rule fires once and not once per
 * replica: the member of the `api-alert-delivery` consumer group that holds the `accounts`
 * topic's one partition. Kafka's group protocol makes that exactly one live replica and moves
 * the partition when it leaves; in process the single replica holds it. Alert ids are derived
 * from the rule and the opportunity, so an alert a new deliverer sends again after a failover
 * carries the same idempotency key.
 */
export function startAlerting(options: {
  bus: Bus;
  store: OlapStore;
  rules: AlertRuleBook;
  board: OpportunityBoard;
  /** The live odds and the splits, for the line-move rules (`key_number`, `reverse_line_move`); without both they raise nothing. */
  odds?: LiveBoard;
  splits?: SplitsBoard;
  catalog: Catalog;
  /** The data clock. */
  now: () => number;
  lines: LinesOf;
  context?: RowContext;
  logger: Logger;
  delivery?: Partial<DeliveryOptions>;
  post?: WebhookPoster;
  /** Opens the rules' sealed signing secrets (the accounts' seal). */
  seal: SecretSeal;
  /** The runtime's failure policy for the delivery lease's consumer. */
  onFailure?: StageFailureHandler;
}): Alerting {
  const { logger } = options;
  // A lease whose consumer stopped would leave this replica out of the group for good: it would
  // never deliver again, or never hand delivery over. So it runs as a stage under the runtime's
  // failure policy (a new consumer after a lost connection, else the process stops), like the
  // views and the accounts consumer.
  const lease = startStage(
    options.bus,
    'alerts:delivery-lease',
    { groupId: DELIVERY_GROUP, topic: TOPICS.accounts, fromBeginning: false, commit: false },
    async () => {},
    logger,
    options.onFailure,
  );
  const delivering = (): boolean => lease.consumer.assignment().length > 0;

  const delivery = new WebhookDelivery({
    now: Date.now,
    openSecret: (sealed) => options.seal.open(sealed),
    ...(options.post ? { post: options.post } : {}),
    ...(options.delivery ? { options: options.delivery } : {}),
    onFinished: (record) => {
      options.store.insert('alert_deliveries', [deliveryRow(record)]).catch((err: unknown) => {
        logger.error({ err, rule: record.ruleId, alert: record.alertId }, 'alert delivery log row not stored');
      });
    },
  });
  const listeners = new Set<(alert: Alert) => void>();
  const onAlert = (rule: AlertRuleRecord, alert: Alert): void => {
    for (const listener of listeners) listener(alert);
    if (delivering()) delivery.enqueue(rule, alert);
  };
  const onBadRule = (rule: AlertRuleRecord, err: unknown): void =>
    logger.warn({ err, rule: rule.id }, 'alert rule cannot be parsed any more: it raises nothing');
  const detector = new AlertDetector({
    board: options.board,
    rules: options.rules,
    catalog: options.catalog,
    now: options.now,
    lines: options.lines,
    ...(options.context ? { context: options.context } : {}),
    onAlert,
    onBadRule,
  });
  const lineMoves =
    options.odds && options.splits
      ? new LineMoveDetector({
          odds: options.odds,
          splits: options.splits,
          rules: options.rules,
          catalog: options.catalog,
          now: options.now,
          onAlert,
          onBadRule,
        })
      : null;
  const unfollow = options.rules.onChange((_before, after) => {
    if (!after.active) delivery.drop(after.id);
  });
  return {
    detector,
    lineMoves,
    delivery,
    delivering,
    onAlert: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      unfollow();
      lineMoves?.stop();
      delivery.stop();
      await lease.stop();
    },
  };
}
