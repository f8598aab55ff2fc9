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
