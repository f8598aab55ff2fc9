import { backOff } from 'exponential-backoff';
import type { AlertDeliveryRecord, AlertRuleRecord } from '../../schemas/index.js';
import { alertBody } from './alert.js';
import type { Alert } from './alert.js';
import { WEBHOOK_HEADERS, signWebhook } from './signature.js';

/** Posts a body; resolves to the response status, rejects on a timeout or a network failure. */
export type WebhookPoster = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<number>;

/** The default poster: `fetch`, never following a redirect (a 3xx is the receiver's answer, not a new address). */
export const fetchPoster: WebhookPoster = async (url, headers, body, timeoutMs) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  // The body is not read: drop it so the connection can be reused.
  await response.body?.cancel();
  return response.status;
};

export interface DeliveryOptions {
  /** Attempts per alert, the first included: the retry budget. */
  attempts: number;
  /** Delay before the first retry (ms); each later one doubles, with full jitter, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** One attempt's limit (ms): no answer by then counts as a failure to retry. */
  timeoutMs: number;
  /** Alerts waiting per rule; one more goes straight to the dead letter, recorded, never dropped. */
  queueLimit: number;
  /** Finished deliveries kept per rule in memory (the store keeps them all). */
  recentLimit: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  attempts: 8,
  firstDelayMs: 1000,
  maxDelayMs: 60_000,
  timeoutMs: 10_000,
  queueLimit: 1000,
  recentLimit: 200,
};

/** Why one attempt failed, and whether another may succeed. */
class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * Whether a status is worth another attempt: server errors, 408 and 429 are passing states of the
 * receiver; any other 4xx says the request itself is refused, and repeating it changes nothing.
 */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

interface Queued {
  rule: AlertRuleRecord;
  alert: Alert;
  body: string;
}

interface RuleQueue {
  items: Queued[];
  running: boolean;
}

/**
 * Delivers alerts to their rules' webhooks: one queue per rule, worked one alert at a time so a
 * rule's alerts arrive in the order it raised them; each alert retried with exponential backoff
 * and full jitter (`exponential-backoff`) on 5xx, 408, 429, timeouts and network failures, then
 * dead-lettered. Every alert ends in the log exactly once, delivered or dead-lettered (a full
 * queue and a deleted rule dead-letter what they cannot send).
 */
export class WebhookDelivery {
  private readonly queues = new Map<string, RuleQueue>();
  private readonly recent = new Map<string, AlertDeliveryRecord[]>();
  private readonly idle = new Set<() => void>();
  private stopped = false;
  readonly options: DeliveryOptions;

  constructor(
    private readonly deps: {
      /** Wall clock (ms): signatures and the log. */
      now: () => number;
      post?: WebhookPoster;
      /** A rule's signing secret from its stored (sealed) form; null when this process cannot open it. */
      openSecret: (sealed: string) => string | null;
      /** Told every finished delivery (the store's log); its failure is the sink's to handle. */
      onFinished?: (record: AlertDeliveryRecord) => void;
      options?: Partial<DeliveryOptions>;
    },
  ) {
    this.options = { ...DEFAULT_DELIVERY, ...deps.options };
  }

  enqueue(rule: AlertRuleRecord, alert: Alert): void {
    const body = alertBody(alert);
    let queue = this.queues.get(rule.id);
    if (!queue) this.queues.set(rule.id, (queue = { items: [], running: false }));
    if (this.stopped || queue.items.length >= this.options.queueLimit) {
      const why = this.stopped ? 'delivery stopped' : `queue full (${this.options.queueLimit} alerts waiting for this rule)`;
      this.finish({ rule, alert, body }, 'dead_letter', 0, null, why);
      return;
    }
    queue.items.push({ rule, alert, body });
    if (!queue.running) void this.work(rule.id, queue);
  }

  /** A deleted rule: what waits for it is dead-lettered (the attempt in flight finishes). */
  drop(ruleId: string): void {
    const queue = this.queues.get(ruleId);
    if (!queue) return;
    for (const item of queue.items.splice(0)) this.finish(item, 'dead_letter', 0, null, 'rule deleted');
  }

  /** The rule's latest finished deliveries on this replica, newest first. */
  recentOf(ruleId: string): readonly AlertDeliveryRecord[] {
    return [...(this.recent.get(ruleId) ?? [])].reverse();
  }

  /** Alerts waiting or in flight, over all rules. */
  get pending(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.items.length;
    return n;
  }

  /** Resolves once no alert waits or is in flight. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Stops taking alerts; those waiting are still worked off (call `settled` to wait for them). */
  stop(): void {
    this.stopped = true;
  }

  private async work(ruleId: string, queue: RuleQueue): Promise<void> {
    queue.running = true;
    // The head stays queued while in flight, so `pending` and the queue bound count it.
    for (let item = queue.items[0]; item; item = queue.items[0]) {
      await this.deliver(item);
      queue.items.shift();
    }
    queue.running = false;
    this.queues.delete(ruleId);
    if (this.pending > 0) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private async deliver(item: Queued): Promise<void> {
    const post = this.deps.post ?? fetchPoster;
    const o = this.options;
    let attempts = 0;
    let lastStatus: number | null = null;
    const secret = this.deps.openSecret(item.rule.secret);
    if (secret === null) {
      // Retrying cannot help: the rule was sealed under another key (replicas must share ALERT_SECRET_KEY).
      this.finish(
        item,
        'dead_letter',
        0,
        null,
        "the rule's signing secret cannot be opened here: every API replica needs the same ALERT_SECRET_KEY",
      );
      return;
    }
    try {
      await backOff(
        async () => {
          attempts++;
          const ts = Math.floor(this.deps.now() / 1000);
          const headers = {
            [WEBHOOK_HEADERS.signature]: signWebhook(secret, ts, item.body),
            [WEBHOOK_HEADERS.timestamp]: String(ts),
            [WEBHOOK_HEADERS.idempotencyKey]: item.alert.id,
          };
          let status: number;
          try {
            status = await post(item.rule.webhookUrl, headers, item.body, o.timeoutMs);
          } catch (e) {
            lastStatus = null;
            throw new AttemptFailure(e instanceof Error ? `${e.name}: ${e.message}` : String(e), null, true);
          }
          lastStatus = status;
          if (status < 200 || status >= 300) throw new AttemptFailure(`HTTP ${status}`, status, retryableStatus(status));
        },
        {
          numOfAttempts: o.attempts,
          startingDelay: o.firstDelayMs,
          timeMultiple: 2,
          maxDelay: o.maxDelayMs,
          jitter: 'full',
          retry: (e: unknown) => !(e instanceof AttemptFailure) || e.retryable,
        },
      );
      this.finish(item, 'delivered', attempts, lastStatus, null);
    } catch (e) {
      const failure = e instanceof AttemptFailure ? e : null;
      this.finish(item, 'dead_letter', attempts, lastStatus, failure?.message ?? String(e));
    }
  }

  private finish(
    item: Queued,
    outcome: AlertDeliveryRecord['outcome'],
    attempts: number,
    status: number | null,
    error: string | null,
  ): void {
    const record: AlertDeliveryRecord = {
      ruleId: item.rule.id,
      accountId: item.rule.accountId,
      alertId: item.alert.id,
      sequence: item.alert.sequence,
      outcome,
      attempts,
      lastStatus: status,
      lastError: error,
      raisedAt: item.alert.raisedAt,
      finishedAt: this.deps.now(),
      body: item.body,
    };
    let list = this.recent.get(item.rule.id);
    if (!list) this.recent.set(item.rule.id, (list = []));
    list.push(record);
    if (list.length > this.options.recentLimit) list.shift();
    this.deps.onFinished?.(record);
  }
}
