/**
 * A binary min-heap of timed items. Ties pop in insertion order, so that a replay with the same
 * seed and times pops the same items in the same order.
 */
export class TimedHeap<T> {
  private readonly at: number[] = [];
  private readonly seq: number[] = [];
  private readonly items: T[] = [];
  private counter = 0;

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    this.at.push(at);
    this.seq.push(this.counter++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Drops every item (the tie counter goes on). */
  clear(): void {
    this.at.length = 0;
    this.seq.length = 0;
    this.items.length = 0;
  }

  /**
   * Keeps only the items `keep` accepts, in one pass and a heapify. What is left pops in the same
   * order as before: the order follows each item's time and push order alone.
   */
  retain(keep: (at: number, item: T) => boolean): void {
    let n = 0;
    for (let i = 0; i < this.items.length; i++) {
      const at = this.at[i] ?? 0;
      const item = this.items[i] as T;
      if (!keep(at, item)) continue;
      this.at[n] = at;
      this.seq[n] = this.seq[i] ?? 0;
      this.items[n] = item;
      n++;
    }
    this.at.length = n;
    this.seq.length = n;
    this.items.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** Time of the earliest item, or Infinity when empty. */
  peekTime(): number {
    return this.at[0] ?? Infinity;
  }

  pop(): T | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    const top = this.items[0];
    this.swap(0, n - 1);
    this.at.pop();
    this.seq.pop();
    this.items.pop();
    if (n > 1) this.down(0);
    return top;
  }

  private less(i: number, j: number): boolean {
    const a = this.at[i] ?? 0;
    const b = this.at[j] ?? 0;
    return a < b || (a === b && (this.seq[i] ?? 0) < (this.seq[j] ?? 0));
  }

  private swap(i: number, j: number): void {
    const at = this.at;
    const seq = this.seq;
    const items = this.items;
    [at[i], at[j]] = [at[j] ?? 0, at[i] ?? 0];
    [seq[i], seq[j]] = [seq[j] ?? 0, seq[i] ?? 0];
    const t = items[i];
    const u = items[j];
    if (t === undefined || u === undefined) return;
    items[i] = u;
    items[j] = t;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
