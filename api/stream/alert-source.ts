import type { FramePayload } from './frames.js';
import type { Group, SourceBatch, StreamSource } from './hub.js';

export const ALERTS_CHANNEL = 'alerts';
/** The frame name (SSE `event:`, WebSocket `type`) of one alert. */
export const ALERT_FRAME = 'alert:raised';

/**
 * An alert as the stream carries it: whose it is and the webhook's JSON body. A structural port,
 * so the streams need not know the alerting component (which itself presents rows through them).
 */
export interface StreamedAlert {
  accountId: string;
  /** The body posted to the rule's webhook; its `id` is the idempotency key. */
  body: string;
}

/** Follows every alert this replica raises; returns the unsubscribe. */
export type AlertFollower = (listener: (alert: StreamedAlert) => void) => () => void;

/** What a subscriber of the channel is: the account whose rules' alerts it gets. */
export interface AlertSpec {
  accountId: string;
}

/**
 * The `alerts` channel of one board's subscribers: every alert the rules of the subscriber's own
 * account raise, as the webhook gets it. The channel has no snapshot (an alert is an event, not
 * state); a subscriber resumes missed alerts through the replay window like any other frame.
 * Groups are per account (the account is in the subscription's signature), and a batch reaches
 * only the groups of the accounts it holds alerts of.
 */
export class AlertSource implements StreamSource {
  readonly channel = ALERTS_CHANNEL;
  private pending: StreamedAlert[] = [];
  private readonly groupsOf = new Map<string, Set<Group>>();

  constructor(
    readonly feed: string,
    private readonly notify: () => void,
  ) {}

  /** An alert raised on this replica (the service follows the alerting component once for every board). */
  receive(alert: StreamedAlert): void {
    this.pending.push(alert);
    this.notify();
  }

  take(): SourceBatch[] {
    if (this.pending.length === 0) return [];
    const alerts = this.pending;
    this.pending = [];
    // One slot per alert: each is a resume point of its own, in the order the rules raised them.
    return [{ slots: alerts.length, data: alerts }];
  }

  audience(batch: SourceBatch): Iterable<Group> {
    const out = new Set<Group>();
    for (const alert of batch.data as StreamedAlert[]) for (const g of this.groupsOf.get(alert.accountId) ?? []) out.add(g);
    return out;
  }

  render(batch: SourceBatch, group: Group): { slot: number; payload: FramePayload }[] {
    const { accountId } = group.spec.channels.get(ALERTS_CHANNEL) as AlertSpec;
    const out: { slot: number; payload: FramePayload }[] = [];
    (batch.data as StreamedAlert[]).forEach((alert, slot) => {
      if (alert.accountId === accountId) out.push({ slot, payload: { name: ALERT_FRAME, sse: alert.body, ws: `"data":${alert.body}` } });
    });
    return out;
  }

  openGroup(group: Group): void {
    const { accountId } = group.spec.channels.get(ALERTS_CHANNEL) as AlertSpec;
    let groups = this.groupsOf.get(accountId);
    if (!groups) this.groupsOf.set(accountId, (groups = new Set()));
    groups.add(group);
  }

  closeGroup(group: Group): void {
    const { accountId } = group.spec.channels.get(ALERTS_CHANNEL) as AlertSpec;
    const groups = this.groupsOf.get(accountId);
    groups?.delete(group);
    if (groups?.size === 0) this.groupsOf.delete(accountId);
  }

  discard(): void {
    this.pending = [];
  }
}
