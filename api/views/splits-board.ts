import type { SplitsSnapshot } from '../../schemas/index.js';
import type { Clock } from '../../pipeline/clock.js';

/** Splits older than this are gone, as from the history table. */
export const SPLITS_RETENTION_MS = 48 * 3_600_000;

/** Gets each snapshot once it is visible at the listener's delay. */
export type SplitsListener = (snapshot: SplitsSnapshot) => void;

interface DelayedListener {
  delayMs: number;
  listener: SplitsListener;
  /** Snapshots waiting until they are `delayMs` old. */
  queue: SplitsSnapshot[];
}

/**
 * The latest splits per event and book, kept by the `splits` changelog. A snapshot is visible to
 * a reader delayed by `d` once it is `d` old by its own time (the free tier reads splits 60 s
 * late, like its odds), so each key keeps the few snapshots still inside the longest delay next
 * to the newest one every delay can see. Listeners (streams) get every snapshot as it becomes
 * visible at their delay; `sync()` releases the delayed ones and runs on a timer.
 */
export class SplitsBoard {
  /** Per key, oldest first: the newest snapshot every reader can see, then the newer ones. */
  private readonly byKey = new Map<string, SplitsSnapshot[]>();
  private readonly listeners = new Set<DelayedListener>();
  private readonly maxDelayMs: number;
  private timer: NodeJS.Timeout | null = null;
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    options: { maxDelayMs?: number; syncEveryMs?: number } = {},
  ) {
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    const every = options.syncEveryMs ?? 500;
    if (every > 0) {
      this.timer = setInterval(() => this.sync(), every);
      this.timer.unref();
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** One changelog record: a snapshot, or a tombstone (null) that removes the key. */
  apply(key: string, snapshot: SplitsSnapshot | null): void {
    if (snapshot === null) {
      this.byKey.delete(key);
      return;
    }
    const list = this.byKey.get(key);
    if (!list) this.byKey.set(key, [snapshot]);
    else {
      // An older snapshot never overwrites a newer one (a redelivered batch).
      if (list.length > 0 && (list[list.length - 1] as SplitsSnapshot).ts >= snapshot.ts) return;
      list.push(snapshot);
      this.prune(list);
    }
    for (const l of this.listeners) {
      if (l.delayMs === 0) l.listener(snapshot);
      else l.queue.push(snapshot);
    }
    if (this.listeners.size > 0) this.sync();
  }

  /** The newest snapshot of every event and book visible at `delayMs`, within the retention. */
  latest(delayMs = 0): SplitsSnapshot[] {
    const cutoff = this.clock.now() - delayMs;
    const oldest = this.clock.now() - SPLITS_RETENTION_MS;
    const out: SplitsSnapshot[] = [];
    for (const list of this.byKey.values()) {
      const s = newestAtOrBefore(list, cutoff);
      if (s && s.ts >= oldest) out.push(s);
    }
    return out;
  }

  /** The newest visible snapshot of each book for one event. */
  latestOf(eventId: string, books: readonly string[], delayMs = 0): SplitsSnapshot[] {
    const cutoff = this.clock.now() - delayMs;
    const out: SplitsSnapshot[] = [];
    for (const book of books) {
      const list = this.byKey.get(`${eventId}|${book}`);
      const s = list && newestAtOrBefore(list, cutoff);
      if (s) out.push(s);
    }
    return out;
  }

  /**
   * Calls `listener` with every snapshot applied from now on, once it is `delayMs` old (the
   * `splits` stream channel subscribes here). Returns the unsubscribe function.
   */
  subscribe(listener: SplitsListener, delayMs = 0): () => void {
    const entry: DelayedListener = { delayMs, listener, queue: [] };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Releases queued snapshots to delayed listeners once they are old enough. */
  sync(): void {
    const now = this.clock.now();
    for (const l of this.listeners) {
      if (l.queue.length === 0) continue;
      const due = now - l.delayMs;
      let n = 0;
      while (n < l.queue.length && (l.queue[n] as SplitsSnapshot).ts <= due) n++;
      if (n === 0) continue;
      for (const s of l.queue.splice(0, n)) l.listener(s);
    }
    // Games past the retention leave memory; once a minute is plenty at 5-minute snapshots.
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, list] of this.byKey) {
      const last = list[list.length - 1];
      if (last && last.ts < now - SPLITS_RETENTION_MS) this.byKey.delete(key);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Drops snapshots no reader can see any more: older than the newest one past the longest delay. */
  private prune(list: SplitsSnapshot[]): void {
    const cutoff = this.clock.now() - this.maxDelayMs;
    let keepFrom = 0;
    for (let i = 0; i < list.length; i++) if ((list[i] as SplitsSnapshot).ts <= cutoff) keepFrom = i;
    if (keepFrom > 0) list.splice(0, keepFrom);
  }
}

function newestAtOrBefore(list: readonly SplitsSnapshot[], cutoff: number): SplitsSnapshot | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const s = list[i] as SplitsSnapshot;
    if (s.ts <= cutoff) return s;
  }
  return undefined;
}
