import type { Opportunity, OpportunityChange } from '../../schemas/index.js';
import { TimedHeap } from '../timed-heap.js';
import { staleClockOf, staleClockOfRecord, staleness } from './staleness.js';
import type { StaleClock } from './staleness.js';
import { veryStaleAt } from './phantom.js';
import type { FamilyState } from './state.js';

/**
 * Stale verdicts that follow each book's current threshold.
 *
 * A record carries its stale clock (`freshUntil`, `staleAfterSeconds`) from the moment it was
 * built, and the API judges it by that clock until its inputs change. A book's threshold moves
 * meanwhile (during the ledger's warm-up it is the 60-s floor, minutes later several times that),
 * so a quiet line's record would stay stale against a threshold nobody holds any more. Rebuilding
 * every record of a book whose threshold moved nearly doubled the opportunity changes; what a
 * user sees is only the verdict, so a record is re-timed (one `update`, its inputs unchanged)
 * only when its verdict differs from the verdict under today's thresholds. It is judged when the
 * freshness ledger enters a step (thresholds move only then), at the step's start: observed time,
 * not the wall clock, so a replay of the same changelog in other batches re-times the same
 * records to the same clocks (the processor's `enterStep`). Re-timed:
 *
 * - when its own clock runs out while its books' thresholds say it is still fresh (they rose),
 *   found by a queue of records by `freshUntil`;
 * - when a threshold rises while it is stale, found among the stale records (at most those);
 * - when a threshold falls below its age, found by a pass over the active records after a fall,
 *   and one that will go stale sooner than its record says is looked at again then.
 *
 * The API also judges `VERY_STALE_ODDS` by the record's clock (`veryStaleFactor` of its
 * thresholds past `freshUntil`), which leaves the record out of default lists: a record stale by
 * both clocks is re-timed too when the two disagree on that, looked at again when the earlier
 * of the two very-stale moments comes, and after a rise or a fall.
 */

/** An active record and where it lives (its version is current while its family holds it). */
export interface HeldRecord {
  o: Opportunity;
  family: FamilyState;
}

const current = (h: HeldRecord): boolean => h.family.active.get(h.o.id) === h.o;

/** The record's clock under the thresholds `limitSeconds` gives now: its prices as it was built from them. */
export function clockNow(o: Opportunity, limitSeconds: (book: string, isLive: boolean) => number): StaleClock {
  const limit = (book: string): number => limitSeconds(book, o.event.isLive);
  const legs = staleClockOf(o.legs, limit);
  if (o.kind !== 'ev') return legs;
  // The bet first, then its references, as the engine built it: the bet's clock wins a tie.
  const refs = staleClockOf(o.references, limit);
  return refs.freshUntil < legs.freshUntil ? refs : legs;
}

const isStaleWarning = (w: string): boolean => w === 'POTENTIALLY_STALE_ODDS' || w === 'LIVE_STALE_ODDS';

/**
 * A new version of `o` on `clock` at `now`: the clock, the stale flag and warning and the age;
 * every other field as it was (the confidence score does not read the clock).
 */
export function retimed(o: Opportunity, clock: StaleClock, now: number): Opportunity {
  const stale = staleness(o.oldestOddsTs, now, o.event.isLive, clock);
  const kept = o.warnings.filter((w) => !isStaleWarning(w));
  // Copied field by field, not spread: V8 gives a spread copy of an object this large a map of
  // its own, which makes every later access of it slow (context.ts, withKind). `for...in` walks
  // the same own fields in the same order as `Object.entries` without building a pair per field
  // (that was 90 % of this function's time in the engines' profile).
  const from = o as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const k in from) copy[k] = from[k];
  const next = copy as unknown as Opportunity;
  next.oldestOddsAgeSeconds = stale.ageSeconds;
  next.freshUntil = clock.freshUntil;
  next.staleAfterSeconds = clock.limitSeconds;
  next.possiblyStale = stale.possiblyStale;
  next.warnings = stale.warning ? [stale.warning, ...kept] : kept;
  next.lastSeenAt = now;
  return next;
}

export class StaleVerdicts {
  /** Records to look at again, by the time their verdict may change. Superseded versions are skipped when they come up. */
  private readonly due = new TimedHeap<HeldRecord>();
  /** Records stale by their own clock and by today's thresholds, by id: a rise may make them fresh. */
  private readonly stale = new Map<string, HeldRecord>();
  private rises: number;
  private falls: number;

  /**
   * @param veryStaleFactor the API's `VERY_STALE_FACTOR`: the pipeline takes the same setting, so
   *   a record's very-stale verdict is kept true to today's thresholds like its stale one.
   */
  constructor(
    private readonly thresholds: {
      staleAfterSeconds(book: string, isLive: boolean): number;
      readonly thresholdRises: number;
      readonly thresholdFalls: number;
    },
    private readonly veryStaleFactor: number,
  ) {
    this.rises = thresholds.thresholdRises;
    this.falls = thresholds.thresholdFalls;
  }

  /** Records held for a later look (tests: bounded by the active records). */
  get held(): number {
    return this.due.size + this.stale.size;
  }

  /** A version just published: looked at again when its own clock runs out. */
  track(o: Opportunity, family: FamilyState): void {
    this.due.push(staleClockOfRecord(o).freshUntil, { o, family });
  }

  /**
   * When the thresholds may have moved, judged at `at`: every record whose verdict they changed
   * is re-timed, its new version (stamped `now`) in `out` as an update. `active` lists every
   * active record (read after a fall, and to rebuild the queue once superseded versions
   * outnumber the active ones).
   */
  settle(at: number, now: number, out: OpportunityChange[], activeCount: number, active: () => Iterable<HeldRecord>): void {
    this.bound(activeCount, active);
    while (this.due.peekTime() < at) {
      const h = this.due.pop();
      if (h !== undefined && current(h)) this.look(h, this.today(h.o), at, now, out);
    }
    const rises = this.thresholds.thresholdRises;
    if (rises !== this.rises) {
      this.rises = rises;
      for (const [id, h] of [...this.stale]) {
        this.stale.delete(id);
        if (current(h)) this.look(h, this.today(h.o), at, now, out);
      }
    }
    const falls = this.thresholds.thresholdFalls;
    if (falls !== this.falls) {
      this.falls = falls;
      // Only a record whose clock today ends sooner than its own can have a verdict to change:
      // a fresh one may go stale, a stale one not yet very stale may go very stale.
      for (const h of active()) {
        const own = staleClockOfRecord(h.o);
        const today = this.today(h.o);
        const sooner =
          at <= own.freshUntil
            ? today.freshUntil < own.freshUntil
            : at <= this.veryStaleAt(own) && this.veryStaleAt(today) < this.veryStaleAt(own);
        if (sooner) this.look(h, today, at, now, out);
      }
    }
  }

  private today(o: Opportunity): StaleClock {
    return clockNow(o, (book, isLive) => this.thresholds.staleAfterSeconds(book, isLive));
  }

  /**
   * One record at `at`, with its clock under today's thresholds: re-timed (stamped `now`) when
   * that clock and its own disagree on whether it is stale; then kept among the stale, or queued
   * for the earlier of the two clocks' ends.
   */
  private look(h: HeldRecord, today: StaleClock, at: number, now: number, out: OpportunityChange[]): void {
    const staleToday = at > today.freshUntil;
    const veryStaleToday = at > this.veryStaleAt(today);
    const own = staleClockOfRecord(h.o);
    if (at > own.freshUntil !== staleToday || at > this.veryStaleAt(own) !== veryStaleToday) {
      h = { o: retimed(h.o, today, now), family: h.family };
      h.family.active.set(h.o.id, h.o);
      out.push({ type: 'update', opportunity: h.o });
    }
    const kept = staleClockOfRecord(h.o);
    if (!staleToday) this.due.push(Math.min(kept.freshUntil, today.freshUntil), h);
    else {
      this.stale.set(h.o.id, h);
      if (!veryStaleToday) this.due.push(Math.min(this.veryStaleAt(kept), this.veryStaleAt(today)), h);
    }
  }

  /**
   * Rebuilds the queue once superseded versions outnumber the active records (after each batch,
   * as versions are published between steps too). Every record stays queued for the first
   * moment its verdict can change, so a rebuild changes no later verdict.
   */
  bound(activeCount: number, active: () => Iterable<HeldRecord>): void {
    if (this.due.size > 2 * activeCount + 1024) this.rebuild(active());
  }

  private veryStaleAt(clock: StaleClock): number {
    return veryStaleAt(clock, this.veryStaleFactor);
  }

  /** The queue again from the active records alone, each at the earlier of its two clocks' ends (the stale come out of it at once). */
  private rebuild(active: Iterable<HeldRecord>): void {
    this.due.clear();
    this.stale.clear();
    for (const h of active) this.due.push(Math.min(staleClockOfRecord(h.o).freshUntil, this.today(h.o).freshUntil), h);
  }
}
