import type { StoreRow } from './store.js';
import { InsertBuffers } from './insert-buffers.js';

/** Bytes a line may take per UTF-16 unit of its text, at most (UTF-8). */
const UTF8_MAX_PER_UNIT = 3;

/**
 * A batch as JSONCompactEachRow bytes, written line by line. Built as one string, a second's batch
 * was a rope of a line per row, and encoding it flattened the whole text at once: hundreds of KB,
 * too large for the young generation, so allocated straight into V8's large-object space, where
 * it counts towards the next major GC. Here only short-lived line strings touch the heap, and
 * chDB takes the bytes as they are.
 */
export class CompactLines {
  private out: Buffer;
  private used = 0;

  /** Its buffer comes from `buffers` and goes back there on `release` (a fresh pool by default). */
  constructor(
    readonly columns: readonly string[],
    expectedRows: number,
    private readonly buffers = new InsertBuffers(),
  ) {
    this.out = buffers.take(expectedRows * 256);
  }

  add(row: StoreRow): void {
    const line = JSON.stringify(this.columns.map((c) => row[c] ?? null));
    const need = this.used + line.length * UTF8_MAX_PER_UNIT + 1;
    if (need > this.out.length) {
      const bigger = this.buffers.take(Math.max(need, this.out.length * 2));
      this.out.copy(bigger, 0, 0, this.used);
      this.buffers.give(this.out);
      this.out = bigger;
    }
    this.used += this.out.write(line, this.used);
    this.out[this.used++] = 0x0a;
  }

  /** The lines so far (a view of the buffer: add nothing after taking it, and read it only until `release`). */
  bytes(): Buffer {
    return this.out.subarray(0, this.used);
  }

  /** Hands the buffer back for another batch: call once nothing reads `bytes()` any more. */
  release(): void {
    if (this.out === EMPTY) return;
    this.buffers.give(this.out);
    this.out = EMPTY;
    this.used = 0;
  }
}

const EMPTY = Buffer.alloc(0);
