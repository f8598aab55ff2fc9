import type { AlertRuleRecord } from '../../schemas/index.js';

/** Told every rule record this replica applies (its own writes and the topic's), with the one it replaced. */
export type RuleChangeListener = (before: AlertRuleRecord | undefined, after: AlertRuleRecord) => void;

/**
 * One replica's view of every alert rule, kept like the keys: loaded from the store at start,
 * then by the `accounts` topic, applied by version (a change seen twice or late is harmless) and
 * a deleted rule never comes back.
 */
export class AlertRuleBook {
  private readonly byId = new Map<string, AlertRuleRecord>();
  private readonly idsByAccount = new Map<string, Set<string>>();
  private readonly listeners = new Set<RuleChangeListener>();

  apply(next: AlertRuleRecord): void {
    const current = this.byId.get(next.id);
    if (current && next.version < current.version) return;
    const record = current && !current.active ? { ...next, active: false, deletedAt: current.deletedAt ?? next.deletedAt } : next;
    this.byId.set(record.id, record);
    let ids = this.idsByAccount.get(record.accountId);
    if (!ids) this.idsByAccount.set(record.accountId, (ids = new Set()));
    ids.add(record.id);
    for (const listener of this.listeners) listener(current, record);
  }

  /** Calls `listener` with every rule change applied from now on; returns the unsubscribe. */
  onChange(listener: RuleChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  rule(id: string): AlertRuleRecord | undefined {
    return this.byId.get(id);
  }

  /** An account's rules that are not deleted, oldest first. */
  activeOf(accountId: string): AlertRuleRecord[] {
    const ids = this.idsByAccount.get(accountId) ?? new Set<string>();
    return [...ids]
      .flatMap((id) => this.byId.get(id) ?? [])
      .filter((r) => r.active)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  /** Every rule that is not deleted. */
  active(): AlertRuleRecord[] {
    return [...this.byId.values()].filter((r) => r.active);
  }
}
