/**
 * Request limits over a sliding one-minute window, per account (or per client address, keyless):
 * a limit of N per minute admits at most N requests in any 60 s span, whatever the clock's minute boundaries (a fixed
 * window let a 12/min key make 24 requests in under a second across a boundary). Only admitted
 * requests are counted, so a client that keeps knocking while refused recovers on time.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests still allowed right now (after this one, when admitted). */
  remaining: number;
  /** When the oldest counted request leaves the window, freeing a slot (epoch seconds, rounded up). */
  resetAt: number;
  /** Whole seconds until a slot frees (at least 1); meaningful when refused. */
  retryAfter: number;
}

export interface RateLimitStore {
  /** Counts one request of `subject` (an account id, or `address:<ip>`) at `now` (epoch ms) against `limit` per window, atomically. */
  hit(subject: string, limit: number, now: number): Promise<RateLimitDecision>;
  /** Health of the shared store, when there is one: round-trip ms, or a reason it is not serving. */
  check?(): Promise<{ ok: boolean; latencyMs?: number; message: string }>;
  close(): Promise<void>;
}

export const WINDOW_MS = 60_000;

/** The decision from the window's state after the request was (or was not) counted. */
export function decision(allowed: boolean, limit: number, counted: number, oldest: number, now: number): RateLimitDecision {
  const frees = oldest + WINDOW_MS;
  return {
    allowed,
    remaining: Math.max(0, limit - counted),
    resetAt: Math.ceil(frees / 1000),
    retryAfter: Math.max(1, Math.ceil((frees - now) / 1000)),
  };
}

/** The admitted request times of one key inside the window, oldest first, in a ring. */
class Window {
  private times: Float64Array;
  private start = 0;
  size = 0;

  constructor(capacity: number) {
    this.times = new Float64Array(Math.max(1, capacity));
  }

  get newest(): number {
    return this.size === 0 ? -Infinity : (this.times[(this.start + this.size - 1) % this.times.length] ?? -Infinity);
  }

  get oldest(): number {
    return this.size === 0 ? Infinity : (this.times[this.start] ?? Infinity);
  }

  /** Forgets requests at or before `cutoff`. */
  expire(cutoff: number): void {
    while (this.size > 0 && this.oldest <= cutoff) {
      this.start = (this.start + 1) % this.times.length;
      this.size--;
    }
  }

  /** Adds a time; the caller has checked that fewer than `limit` are held. */
  push(t: number, limit: number): void {
    // Grow by doubling, never beyond the limit: a key of a million a minute holds what it uses.
    if (this.size === this.times.length) this.grow(Math.min(limit, this.times.length * 2));
    this.times[(this.start + this.size) % this.times.length] = t;
    this.size++;
  }

  private grow(capacity: number): void {
    const next = new Float64Array(capacity);
    for (let i = 0; i < this.size; i++) next[i] = this.times[(this.start + i) % this.times.length] ?? 0;
    this.times = next;
    this.start = 0;
  }
}

/**
 * The in-process store. JavaScript runs one hit at a time, so concurrent requests of one key
 * are counted exactly. Memory is one slot per admitted request inside the window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private hitsSinceSweep = 0;

  async hit(keyId: string, limit: number, now: number): Promise<RateLimitDecision> {
    return this.hitNow(keyId, limit, now);
  }

  /** The same decision, synchronously (the Redis store's fallback shares it). */
  hitNow(keyId: string, limit: number, now: number): RateLimitDecision {
    if (++this.hitsSinceSweep >= 10_000) this.sweep(now);
    let w = this.windows.get(keyId);
    if (!w) {
      w = new Window(Math.min(limit, 16));
      this.windows.set(keyId, w);
    }
    w.expire(now - WINDOW_MS);
    if (w.size >= limit) return decision(false, limit, w.size, w.oldest, now);
    w.push(now, limit);
    return decision(true, limit, w.size, w.oldest, now);
  }

  /** Drops keys with nothing left in their window. */
  private sweep(now: number): void {
    this.hitsSinceSweep = 0;
    for (const [k, w] of this.windows) if (w.newest <= now - WINDOW_MS) this.windows.delete(k);
  }

  async close(): Promise<void> {}
}

/** A store that admits everything: for benchmarks that measure serving, not the limiter. */
export const unlimitedRateLimits: RateLimitStore = {
  hit: async (_keyId, limit, now) => decision(true, limit, 1, now, now),
  close: async () => {},
};
