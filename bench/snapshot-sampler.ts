import type { RawTick } from '../schemas/index.js';
import type { Phase } from './market-stats.js';

/**
 * The simulator seen the way the recordings saw the real market: through snapshots of the whole
 * board, some minutes apart, rather than tick by tick. Between two snapshots of a phase a row may
 * have changed many times; the snapshot shows only where it ended up (its last tick), observed at
 * the snapshot, as a poller of The Odds API would have. Pure: ticks in, the pending ticks of a
 * phase out at each of its snapshot times.
 */

/** One line of one book's market: what a snapshot shows one price for. */
const rawKey = (t: RawTick): string =>
  `${t.book}|${t.bookEventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}|${t.outcome}|${t.line ?? ''}`;

export class SnapshotSampler {
  private readonly pending: Record<Phase, Map<string, RawTick>> = { prematch: new Map(), live: new Map() };

  /** The book's latest word on each price since the last snapshot of its phase (the tick's own phase). */
  add(ticks: readonly RawTick[]): void {
    for (const t of ticks) {
      const key = rawKey(t);
      // A price that went live leaves the pre-match snapshot: the live one shows it from now on.
      if (t.isLive) this.pending.prematch.delete(key);
      this.pending[t.isLive ? 'live' : 'prematch'].set(key, t);
    }
  }

  /** The snapshot of a phase at `at`: every price of it that changed since the last one, as it stands now. */
  take(phase: Phase, at: number): RawTick[] {
    const out = [...this.pending[phase].values()].map((t) => ({ ...t, observedAt: at }));
    this.pending[phase].clear();
    return out;
  }
}

/** The gaps before each snapshot that carried prices of a phase, ms: how far apart a recording saw that phase. */
export function snapshotGaps(snapshots: readonly { at: number; phases: ReadonlySet<Phase> }[], phase: Phase): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < snapshots.length; i++) {
    const s = snapshots[i];
    const before = snapshots[i - 1];
    if (s !== undefined && before !== undefined && s.phases.has(phase)) gaps.push(s.at - before.at);
  }
  return gaps;
}
