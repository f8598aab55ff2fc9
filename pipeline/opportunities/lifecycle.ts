import { foundBelowBoardRate } from '../../schemas/index.js';
import type { DevigMethodName, ExpireReason, Opportunity, OpportunityChange, OpportunityPrice } from '../../schemas/index.js';
import { sameInputs } from './inputs.js';
import type { Candidate } from './context.js';
import { rowAt } from './line-group.js';
import { canonicalLine, lineKey } from './state.js';
import type { FamilyState } from './state.js';

/**
 * Create / update / expire: the candidates of a recompute against what the family had. A
 * candidate whose inputs are unchanged emits nothing and is not even built; a changed one keeps
 * its `detectedAt` and its peak; one that is gone expires, `leg_removed` when a price it used is
 * no longer on the board.
 */

/** Fields that only lifecycle or the passing of time change (tests compare the rest). */
const VOLATILE = new Set([
  'detectedAt',
  'lastSeenAt',
  'expiredAt',
  'expireReason',
  'peakValue',
  'peakEvPercent',
  'oldestOddsAgeSeconds',
  'possiblyStale',
  'warnings',
  'confidenceScore',
]);

const fingerprints = new WeakMap<Opportunity, string>();

export function fingerprint(o: Opportunity): string {
  let f = fingerprints.get(o);
  if (f === undefined) {
    f = JSON.stringify(o, (key, value: unknown) => (VOLATILE.has(key) ? undefined : value));
    fingerprints.set(o, f);
  }
  return f;
}

/** Carries detection time and peak into a freshly built version (which nothing else holds yet). */
export function carry(prev: Opportunity, next: Opportunity): Opportunity {
  next.detectedAt = prev.detectedAt;
  if (next.kind === 'ev' && prev.kind === 'ev') {
    for (const m of Object.keys(next.peakEvPercent) as DevigMethodName[]) {
      next.peakEvPercent[m] = Math.max(prev.peakEvPercent[m], next.peakEvPercent[m]);
    }
  }
  next.peakValue = next.kind === 'low_hold' ? Math.min(prev.peakValue, next.value) : Math.max(prev.peakValue, next.value);
  return next;
}

export function expire(o: Opportunity, now: number, reason: ExpireReason): Opportunity {
  return { ...o, expiredAt: now, expireReason: reason };
}

/**
 * Whether a price an opportunity used is still on the board: its row (found by canonical line,
 * book and selection in the family's line groups) is still the one with its row id.
 */
function onBoard(family: FamilyState, p: OpportunityPrice): boolean {
  const group = family.lines.get(lineKey(canonicalLine(p)));
  return group !== undefined && rowAt(group, p.book, p.selection)?.id === p.rowId;
}

function usesOnlyBoardRows(family: FamilyState, o: Opportunity): boolean {
  for (const l of o.legs) if (!onBoard(family, l)) return false;
  if (o.kind === 'ev') for (const r of o.references) if (!onBoard(family, r)) return false;
  return true;
}

/** Today's stale thresholds, as far as an unchanged candidate's record needs them. */
export interface Thresholds {
  /** Moves whenever some book's threshold moves: a clock computed in the same generation is today's. */
  generation: number;
  /** The record on today's thresholds: itself when its clock is today's already. */
  restamp(o: Opportunity): Opportunity;
}

/** Numbers recomputes, so that `seen` marks what the current one produced without a set. */
let recomputes = 0;

/**
 * `scope`: what the recompute looked at, `all` lines of the family or the listed line keys
 * (middles always); active opportunities in scope that it did not produce are gone. An unchanged
 * candidate's record is restamped on today's stale thresholds (`thresholds`; itself when they
 * have not moved for it): a batch that changed a candidate's inputs and changed them back skips
 * the versions between, and one input at a time would have built it on today's thresholds. Only
 * when some threshold moved since its clock was computed: most recomputes fall between two moves.
 */
export function advance(
  family: FamilyState,
  fresh: readonly Candidate[],
  scope: 'all' | ReadonlySet<string>,
  now: number,
  out: OpportunityChange[],
  thresholds: Thresholds,
): void {
  const stamp = ++recomputes;
  const generation = thresholds.generation;
  for (const c of fresh) {
    const prev = family.active.get(c.id);
    const inputs = family.inputs.get(c.id);
    if (inputs) inputs.seen = stamp;
    if (prev && inputs !== undefined && sameInputs(inputs, c)) {
      if (inputs.clockedAt === generation) continue;
      inputs.clockedAt = generation;
      const next = thresholds.restamp(prev);
      if (next !== prev) {
        family.active.set(c.id, next);
        out.push({ type: 'update', opportunity: next });
      }
      continue;
    }
    const f = c.build();
    if (inputs) {
      inputs.rows = c.rows;
      inputs.refRows = c.refRows;
      inputs.values = c.values;
      inputs.clockedAt = generation;
    } else
      family.inputs.set(c.id, { rows: c.rows, refRows: c.refRows, values: c.values, scope: c.scope, seen: stamp, clockedAt: generation });
    if (!prev) {
      family.active.set(c.id, f);
      out.push({ type: 'create', opportunity: f });
      continue;
    }
    if (foundBelowBoardRate(prev) !== foundBelowBoardRate(f)) {
      // Found at the board's rates before and only at the search rate now, or the other way round:
      // to callers at the board's rates (and the store) it left or came, so it ends and starts again.
      family.active.set(c.id, f);
      out.push({ type: 'expire', opportunity: expire(prev, now, 'condition') }, { type: 'create', opportunity: f });
      continue;
    }
    const next = carry(prev, f);
    family.active.set(c.id, next);
    out.push({ type: 'update', opportunity: next });
  }
  // `inputs` holds exactly the ids of `active` (both are set and dropped together): walking it
  // spares a lookup per active opportunity, and only the gone ones are looked up.
  let gone: Opportunity[] | null = null;
  for (const [id, inputs] of family.inputs) {
    if (inputs.seen === stamp) continue;
    if (scope !== 'all' && inputs.scope !== 'middle' && !scope.has(inputs.scope)) continue;
    const o = family.active.get(id);
    if (o) (gone ??= []).push(o);
  }
  if (gone === null) return;
  gone.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const o of gone) {
    const reason: ExpireReason = usesOnlyBoardRows(family, o) ? 'condition' : 'leg_removed';
    family.active.delete(o.id);
    family.inputs.delete(o.id);
    out.push({ type: 'expire', opportunity: expire(o, now, reason) });
  }
}
