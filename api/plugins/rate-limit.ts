/** Per-key request counters over fixed one-minute windows. Redis-backed when replicas share. */
export interface RateLimitStore {
  /** Counts one request; returns the count in the current window and its reset (epoch s). */
  hit(keyId: string, now: number): Promise<{ count: number; resetAt: number }>;
  /** Health of the shared store, when there is one: round-trip ms, or a reason it is not serving. */
  check?(): Promise<{ ok: boolean; latencyMs?: number; message: string }>;
  close(): Promise<void>;
}

export const WINDOW_MS = 60_000;

/** The window a time falls in: its start (epoch ms) and its reset (epoch s). */
export function windowOf(now: number): { start: number; resetAt: number } {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { start, resetAt: (start + WINDOW_MS) / 1000 };
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async hit(keyId: string, now: number): Promise<{ count: number; resetAt: number }> {
    const { start, resetAt } = windowOf(now);
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(keyId, w);
      if (this.windows.size > 100_000) this.sweep(start);
    }
    w.count++;
    return { count: w.count, resetAt };
  }

  private sweep(current: number): void {
    for (const [k, w] of this.windows) if (w.start !== current) this.windows.delete(k);
  }

  async close(): Promise<void> {}
}
