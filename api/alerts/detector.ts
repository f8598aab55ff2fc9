import type { AlertFilters, AlertRuleRecord, OpportunityKind } from '../../schemas/index.js';
import type { AlertRuleBook } from '../accounts/index.js';
import type { LinesOf, RowContext } from '../contract/index.js';
import { OPPORTUNITY_LISTS, alertList, alertListQuery, listMatches } from '../queries/index.js';
import type { ListQuery, OpportunityList } from '../queries/index.js';
import { presentListRow } from '../stream/index.js';
import type { Catalog } from '../views/index.js';
import type { OpportunityBoard } from '../views/index.js';
import { alertId } from './alert.js';
import type { Alert } from './alert.js';

/** What one rule holds: its parsed query and the opportunities it already alerted on, by situation. */
interface Watch {
  rule: AlertRuleRecord;
  list: OpportunityList;
  query: ListQuery;
  held: Map<string, Set<string>>;
  sequence: number;
}

export interface DetectorDeps {
  board: OpportunityBoard;
  rules: AlertRuleBook;
  catalog: Catalog;
  /** The data clock: filters that read ages and the alerts' times. */
  now: () => number;
  lines: LinesOf;
  context?: RowContext;
  /** Told every alert, in the order each rule raised them. */
  onAlert: (rule: AlertRuleRecord, alert: Alert) => void;
  /** A stored rule this build cannot parse any more (a sport gone from the catalog): it stays quiet. */
  onBadRule?: (rule: AlertRuleRecord, error: unknown) => void;
}

/**
 * Raises opportunity alerts: a rule fires when an opportunity enters its list (the list its REST
 * endpoint would answer with the rule's filters), once per opportunity and detection; updates of
 * a held one are not new alerts. A rule starts from the board as it is when it is applied, so
 * what already showed is not announced. Changes are taken off the board's call stack and
 * recomputed per changed situation with the lists' own match functions.
 */
export class AlertDetector {
  private readonly watches = new Map<string, Watch>();
  private pending = new Map<OpportunityKind, Set<string>>();
  private scheduled = false;
  private readonly firstSequence = Date.now() * 1000;

  constructor(private readonly deps: DetectorDeps) {
    for (const rule of deps.rules.active()) this.watch(rule);
    deps.rules.onChange((_before, after) => {
      this.watches.delete(after.id);
      if (after.active) this.watch(after);
    });
    deps.board.subscribe((kind, situation) => {
      let set = this.pending.get(kind);
      if (!set) this.pending.set(kind, (set = new Set()));
      set.add(situation);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Rules being watched (rules of line-move kinds are not this detector's). */
  get size(): number {
    return this.watches.size;
  }

  /** Recomputes the changed situations for every rule on their list; also callable directly (tests). */
  flush(): void {
    this.scheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    const now = this.deps.now();
    for (const [kind, situations] of pending) {
      for (const w of this.watches.values()) {
        if (OPPORTUNITY_LISTS[w.list] !== kind) continue;
        for (const situation of situations) this.recompute(w, kind, situation, now);
      }
    }
  }

  private watch(rule: AlertRuleRecord): void {
    const list = alertList(rule.kind);
    if (list === null) return;
    let query: ListQuery;
    try {
      query = alertListQuery(
        list,
        JSON.parse(rule.filtersJson) as AlertFilters,
        this.deps.catalog,
        rule.tier,
        this.deps.now(),
        this.deps.lines,
        this.deps.board.phantom,
      );
    } catch (e) {
      this.deps.onBadRule?.(rule, e);
      return;
    }
    const w: Watch = { rule, list, query, held: new Map(), sequence: this.firstSequence };
    for (const e of listMatches(list, this.deps.board.list(OPPORTUNITY_LISTS[list]), query, this.deps.catalog, this.deps.now()))
      hold(w, e.o.situation, e.o.id);
    this.watches.set(rule.id, w);
  }

  private recompute(w: Watch, kind: OpportunityKind, situation: string, now: number): void {
    const candidates = [...this.deps.board.situation(kind, situation)].sort((a, b) => (a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0));
    const before = w.held.get(situation) ?? new Set<string>();
    const after = new Set<string>();
    for (const e of listMatches(w.list, candidates, w.query, this.deps.catalog, now)) {
      after.add(e.o.id);
      if (before.has(e.o.id)) continue;
      w.sequence++;
      const alert: Alert = {
        id: alertId(w.rule.id, `${e.o.id}@${e.o.detectedAt}`),
        ruleId: w.rule.id,
        accountId: w.rule.accountId,
        kind: w.rule.kind,
        sequence: w.sequence,
        raisedAt: now,
        data: presentListRow(this.deps.catalog, w.list, e.o, w.query, now, this.deps.board.phantom, this.deps.lines, this.deps.context),
      };
      this.deps.onAlert(w.rule, alert);
    }
    if (after.size === 0) w.held.delete(situation);
    else w.held.set(situation, after);
  }
}

function hold(w: Watch, situation: string, id: string): void {
  let ids = w.held.get(situation);
  if (!ids) w.held.set(situation, (ids = new Set()));
  ids.add(id);
}
