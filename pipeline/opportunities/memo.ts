/**
 * A bounded memo for pure functions of a string key: cleared when full, so memory stays bounded
 * whatever the feed sends. Results never depend on it, only the time they take.
 */
export class Memo<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => V): V {
    let v = this.values.get(key);
    if (v === undefined) {
      if (this.values.size >= this.capacity) this.values.clear();
      v = compute();
      this.values.set(key, v);
    }
    return v;
  }
}

/**
 * A memo for pure functions of a string key that keeps what was asked for within the last one or
 * two generations of `generationMs` by the callers' clock, at most `capacity` entries in a
 * generation (one that fills becomes the older one at once). A key asked for again moves into
 * the current generation. Unlike `Memo`, what it holds settles within two generations instead
 * of filling until full and starting over, so its memory says what is in use. Results never
 * depend on it, only the time they take.
 */
export class GenerationalMemo<V> {
  private current = new Map<string, V>();
  private older = new Map<string, V>();
  private since = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly generationMs: number,
    private readonly capacity: number,
  ) {}

  /** Entries held over both generations (tests, diagnostics). */
  get size(): number {
    return this.current.size + this.older.size;
  }

  get(key: string, now: number, compute: () => V): V {
    if (now - this.since >= this.generationMs) this.age(now);
    let v = this.current.get(key);
    if (v !== undefined) return v;
    v = this.older.get(key);
    if (v === undefined) v = compute();
    else this.older.delete(key);
    if (this.current.size >= this.capacity) this.age(now);
    this.current.set(key, v);
    return v;
  }

  private age(now: number): void {
    this.older = this.current;
    this.current = new Map();
    this.since = now;
  }
}
