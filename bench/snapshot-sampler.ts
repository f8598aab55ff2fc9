import type { RawTick } from '../schemas/index.js';
import type { Phase } from './market-stats.js';

/**
 * The simulator seen the way the recordings saw the real market: through snapshots of the whole
 * board, some minutes apart, rather than tick by tick. Between two snapshots of a phase a row may
 * have changed many times; the snapshot shows only where it stood, observed at the snapshot, as a
 * poller of The Odds API would have. And as in the recordings, each book's listing of an event is
 * shown as the source collected it, a collection delay before the snapshot: the price the book had
 * then (`delay`; none by default). Pure: ticks in, a phase's changed prices out at each of its
 * snapshot times.
 */

/** One line of one book's market: what a snapshot shows one price for. */
const rawKey = (t: RawTick): string =>
  `${t.book}|${t.bookEventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}|${t.outcome}|${t.line ?? ''}`;

/** How long before a snapshot of `phase` at `at` the source collected a book's listing of an event, ms. */
export type CollectionDelay = (phase: Phase, at: number, book: string, bookEventId: string) => number;

export interface SnapshotSamplerOptions {
  delay?: CollectionDelay;
  /** The longest delay `delay` gives: ticks superseded before that can be forgotten. */
  maxDelayMs?: number;
  /**
   * Time prices as The Odds API does: a price's `ts` is when the source collected the book (its
   * `last_update`), not when the book last stood behind it, and every open line collected is shown
   * again at each snapshot of its phase, a confirmation. The recordings' `last_update` is never more
   * than about 15 minutes before its snapshot, and moves on without a price change in most
   * revisits (docs/simulator.md). Off by default: a snapshot then shows only what changed.
   */
  collectionTimes?: boolean;
}

interface Line {
  /** The line's ticks in the order the book sent them, from the last one any snapshot may still show. */
  ticks: RawTick[];
  /** The tick the last snapshot showed, if any: a snapshot shows only what changed since. */
  shown: RawTick | null;
  /** When the source collected the line for that snapshot (with `collectionTimes`). */
  collectedAt: number;
}

export class SnapshotSampler {
  private readonly lines = new Map<string, Line>();
  private readonly delay: CollectionDelay;
  private readonly maxDelayMs: number;
  private readonly collectionTimes: boolean;

  constructor(options: SnapshotSamplerOptions = {}) {
    this.delay = options.delay ?? (() => 0);
    this.maxDelayMs = options.maxDelayMs ?? 0;
    this.collectionTimes = options.collectionTimes ?? false;
  }

  /** The book's ticks as they come (each at its own `ts`). */
  add(ticks: readonly RawTick[]): void {
    for (const t of ticks) {
      const key = rawKey(t);
      const line = this.lines.get(key);
      if (line === undefined) this.lines.set(key, { ticks: [t], shown: null, collectedAt: -Infinity });
      else line.ticks.push(t);
    }
  }

  /**
   * The snapshot of a phase at `at`: every price whose book, as collected (its delay before `at`),
   * was of this phase and had changed it since the last snapshot that showed the line, observed at `at`.
   */
  take(phase: Phase, at: number): RawTick[] {
    const delays = new Map<string, number>();
    const out: RawTick[] = [];
    for (const line of this.lines.values()) {
      const first = line.ticks[0];
      if (first === undefined) continue;
      const listing = `${first.book}|${first.bookEventId}`;
      let delay = delays.get(listing);
      if (delay === undefined) {
        delay = this.delay(phase, at, first.book, first.bookEventId);
        delays.set(listing, delay);
      }
      const asOf = latestBy(line.ticks, at - delay);
      // The phase is the price's as collected: a price that went live leaves the pre-match snapshot.
      if (asOf === null || asOf.isLive !== (phase === 'live')) continue;
      // A source collects a book later each time: a longer delay than last time does not take the line back.
      if (line.shown !== null && asOf.ts < line.shown.ts) continue;
      const collectedAt = Math.max(at - delay, line.collectedAt);
      if (asOf === line.shown) {
        // Unchanged: with collection times, an open line is confirmed at its new collection.
        if (!this.collectionTimes || asOf.status !== 'open' || collectedAt <= line.collectedAt) continue;
      }
      line.shown = asOf;
      line.collectedAt = collectedAt;
      out.push(this.collectionTimes ? { ...asOf, ts: Math.max(asOf.ts, collectedAt), observedAt: at } : { ...asOf, observedAt: at });
    }
    this.forget(at - this.maxDelayMs);
    return out;
  }

  /** Drops the ticks no snapshot from now on can show: those superseded by `before`. */
  private forget(before: number): void {
    for (const line of this.lines.values()) {
      let keep = 0;
      for (let i = line.ticks.length - 1; i >= 0; i--)
        if ((line.ticks[i]?.ts ?? Infinity) <= before) {
          keep = i;
          break;
        }
      if (keep > 0) line.ticks.splice(0, keep);
    }
  }
}

/** The last tick sent at or before `cutoff`, or null when the line had none yet. */
function latestBy(ticks: readonly RawTick[], cutoff: number): RawTick | null {
  for (let i = ticks.length - 1; i >= 0; i--) {
    const t = ticks[i];
    if (t !== undefined && t.ts <= cutoff) return t;
  }
  return null;
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
