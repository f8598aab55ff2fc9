import { settingDefault } from '../../schemas/index.js';
import type { OddsRow } from '../../schemas/index.js';
import { SUBS_PER_MS, compareLogTime } from './log-time.js';
import type { LogTime } from './log-time.js';

export interface ChangeLogOptions {
  /** Most changes kept; the oldest are dropped first. */
  maxChanges: number;
  /** Changes older than this (by log time) are dropped on the next append. */
  maxAgeMs: number;
}

export const DEFAULT_CHANGE_LOG: ChangeLogOptions = {
  maxChanges: settingDefault('DELTA_WINDOW_CHANGES'),
  maxAgeMs: settingDefault('DELTA_WINDOW_MINUTES') * 60_000,
};

/** What a scan hands its visitor: the change that is the row's latest, and its place in the log. */
export interface EffectiveChange {
  key: string;
  /** The row as it is now; null when the latest change removed it. */
  row: OddsRow | null;
  /** The row the removal took away (for its id and filter attributes); null for upserts. */
  removed: OddsRow | null;
  time: LogTime;
}

/**
 * The recent changes of a board in apply order, each stamped with a strictly increasing log time,
 * in a bounded ring (by count and by age). A delta since a time walks the ring from that time on
 * and keeps only the entries that are still their row's latest: a row changed five times since
 * appears once, in its current state, at the place of its last change. Superseded entries are
 * compacted away as they pile up, so a scan walks at most about twice the distinct rows changed
 * since its start. Cost: O(log n) to find the start, then O(rows changed since).
 */
export class ChangeLog {
  private cap = 1024;
  private start = 0;
  private size = 0;
  /** Sequence number of the oldest kept entry; entry i of the ring has sequence firstSeq + i. */
  private firstSeq = 1;
  private ms = new Float64Array(this.cap);
  private sub = new Int32Array(this.cap);
  private keys: (string | undefined)[] = new Array<string | undefined>(this.cap);
  private rows: (OddsRow | null)[] = new Array<OddsRow | null>(this.cap).fill(null);
  private removedRows: (OddsRow | null)[] = new Array<OddsRow | null>(this.cap).fill(null);
  /** Row key -> sequence of its latest kept entry. */
  private readonly latest = new Map<string, number>();
  private last: LogTime;
  /** Everything after this time is in the ring; a delta from before it cannot be answered. */
  private floorTime: LogTime;

  constructor(
    private readonly now: () => number,
    private readonly options: ChangeLogOptions = DEFAULT_CHANGE_LOG,
  ) {
    this.floorTime = { ms: now(), sub: 0 };
    this.last = this.floorTime;
  }

  get length(): number {
    return this.size;
  }

  /** The earliest `since` the log can answer exactly. */
  get floor(): LogTime {
    return this.floorTime;
  }

  /**
   * Where the log stands now: every change at or before it is in the log, every later one will
   * have a greater time. What a delta hands back as `next_since`.
   */
  head(): LogTime {
    const now = this.now();
    return now > this.last.ms ? { ms: now, sub: 0 } : this.last;
  }

  append(key: string, row: OddsRow | null, removed: OddsRow | null): LogTime {
    const now = this.now();
    let time: LogTime;
    if (now > this.last.ms) time = { ms: now, sub: 1 };
    else if (this.last.sub + 1 < SUBS_PER_MS) time = { ms: this.last.ms, sub: this.last.sub + 1 };
    else time = { ms: this.last.ms + 1, sub: 1 };
    this.last = time;
    this.evict(time.ms - this.options.maxAgeMs);
    if (this.size === this.cap) this.grow();
    const previous = this.latest.get(key);
    if (previous !== undefined) {
      // The entry this one supersedes is skipped by every scan from now on: let go of its row
      // (and key) now rather than at the next compaction, which waits until dead entries are as
      // many as the distinct rows; until then every major GC would mark the old row.
      const at = (this.start + previous - this.firstSeq) % this.cap;
      this.keys[at] = undefined;
      this.rows[at] = null;
      this.removedRows[at] = null;
    }
    const i = (this.start + this.size) % this.cap;
    this.ms[i] = time.ms;
    this.sub[i] = time.sub;
    this.keys[i] = key;
    this.rows[i] = row;
    this.removedRows[i] = removed;
    this.latest.set(key, this.firstSeq + this.size);
    this.size++;
    const dead = this.size - this.latest.size;
    if (dead >= 1024 && dead >= this.latest.size) this.compact();
    return time;
  }

  /**
   * Drops the entries a later change of their row superseded, keeping the order and times of
   * the rest: a row changed a thousand times inside the window then costs a scan one entry, and
   * the ring holds at most twice the distinct rows changed. Run when superseded entries are at
   * least half the ring, so its O(ring) cost is O(1) per append. The floor does not move: a change
   * dropped here has a later change of its row still in the log.
   */
  private compact(): void {
    let kept = 0;
    for (let i = 0; i < this.size; i++) {
      const at = (this.start + i) % this.cap;
      const key = this.keys[at] as string;
      if (this.latest.get(key) !== this.firstSeq + i) continue;
      const to = (this.start + kept) % this.cap;
      if (to !== at) {
        this.ms[to] = this.ms[at] ?? 0;
        this.sub[to] = this.sub[at] ?? 0;
        this.keys[to] = key;
        this.rows[to] = this.rows[at] ?? null;
        this.removedRows[to] = this.removedRows[at] ?? null;
      }
      this.latest.set(key, this.firstSeq + kept);
      kept++;
    }
    for (let i = kept; i < this.size; i++) {
      const at = (this.start + i) % this.cap;
      this.keys[at] = undefined;
      this.rows[at] = null;
      this.removedRows[at] = null;
    }
    this.size = kept;
  }

  /**
   * Visits, in log order, the entries after `since` that are still their row's latest, until the
   * visitor returns false. Returns the number of entries walked.
   */
  scan(since: LogTime, visit: (change: EffectiveChange) => boolean): number {
    let i = this.firstAfter(since);
    let walked = 0;
    for (; i < this.size; i++) {
      walked++;
      const at = (this.start + i) % this.cap;
      const key = this.keys[at] as string;
      if (this.latest.get(key) !== this.firstSeq + i) continue;
      const more = visit({
        key,
        row: this.rows[at] ?? null,
        removed: this.removedRows[at] ?? null,
        time: { ms: this.ms[at] ?? 0, sub: this.sub[at] ?? 0 },
      });
      if (!more) break;
    }
    return walked;
  }

  /** Entries after `since`, superseded ones included: an upper bound of a delta's size. */
  countAfter(since: LogTime): number {
    return this.size - this.firstAfter(since);
  }

  /** Ring index of the first entry whose time is after `since` (binary search). */
  private firstAfter(since: LogTime): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = (this.start + mid) % this.cap;
      const c = (this.ms[at] ?? 0) - since.ms || (this.sub[at] ?? 0) - since.sub;
      if (c > 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private evict(olderThanMs: number): void {
    while (this.size > 0 && (this.size >= this.options.maxChanges || (this.ms[this.start] ?? 0) < olderThanMs)) {
      const at = this.start;
      const key = this.keys[at] as string;
      if (this.latest.get(key) === this.firstSeq) this.latest.delete(key);
      this.floorTime = { ms: this.ms[at] ?? 0, sub: this.sub[at] ?? 0 };
      this.keys[at] = undefined;
      this.rows[at] = null;
      this.removedRows[at] = null;
      this.start = (this.start + 1) % this.cap;
      this.size--;
      this.firstSeq++;
    }
  }

  private grow(): void {
    const cap = Math.min(this.cap * 2, Math.max(this.options.maxChanges, 1024));
    if (cap <= this.cap) return;
    const ms = new Float64Array(cap);
    const sub = new Int32Array(cap);
    const keys = new Array<string | undefined>(cap);
    const rows = new Array<OddsRow | null>(cap).fill(null);
    const removed = new Array<OddsRow | null>(cap).fill(null);
    for (let i = 0; i < this.size; i++) {
      const at = (this.start + i) % this.cap;
      ms[i] = this.ms[at] ?? 0;
      sub[i] = this.sub[at] ?? 0;
      keys[i] = this.keys[at];
      rows[i] = this.rows[at] ?? null;
      removed[i] = this.removedRows[at] ?? null;
    }
    this.ms = ms;
    this.sub = sub;
    this.keys = keys;
    this.rows = rows;
    this.removedRows = removed;
    this.cap = cap;
    this.start = 0;
  }

  /** True when a delta from `since` can be answered exactly from the log. */
  covers(since: LogTime): boolean {
    return compareLogTime(since, this.floorTime) >= 0;
  }
}
