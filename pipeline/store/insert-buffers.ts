/** What a batch's buffer starts at, at least. */
const MIN_BUFFER_BYTES = 64 * 1024;

/** Bytes of idle buffers kept for the next batches, at most (the largest batch at full speed is about 20 MB). */
export const KEPT_BUFFER_BYTES = 64 * 1024 * 1024;

/**
 * Insert buffers kept from one batch to the next. chDB reads a batch's bytes where they are (no
 * copy) until the insert settles; from then on the buffer can take another batch.
 *
 * Allocated afresh for every batch, each buffer was memory outside the V8 heap, and one still
 * held by an insert when a scavenge came was promoted and freed only by the next full GC. V8
 * starts a full mark whenever memory outside the heap has grown by about 64 MB since the last
 * one: at full speed half of the pipeline's major GCs started that way ("external memory
 * pressure" in `--trace-incremental-marking`), with the heap at a third of its own limit.
 */
export class InsertBuffers {
  /** Idle buffers, shortest first. */
  private readonly idle: Buffer[] = [];
  private idleBytes = 0;

  constructor(private readonly keptBytes = KEPT_BUFFER_BYTES) {}

  /** The shortest idle buffer of at least `bytes`, else a new one. Its contents are garbage. */
  take(bytes: number): Buffer {
    const i = this.idle.findIndex((b) => b.length >= bytes);
    if (i >= 0) {
      const [buffer] = this.idle.splice(i, 1) as [Buffer];
      this.idleBytes -= buffer.length;
      return buffer;
    }
    // Its own memory, never a slice of Node's shared pool: the whole of it is ours to keep.
    return Buffer.allocUnsafeSlow(Math.max(MIN_BUFFER_BYTES, bytes));
  }

  /** Back to the idle list once nothing reads it; the shortest go first when the list is over its bound. */
  give(buffer: Buffer): void {
    if (buffer.length > this.keptBytes) return;
    let at = this.idle.findIndex((b) => b.length >= buffer.length);
    if (at < 0) at = this.idle.length;
    this.idle.splice(at, 0, buffer);
    this.idleBytes += buffer.length;
    while (this.idleBytes > this.keptBytes) this.idleBytes -= (this.idle.shift() as Buffer).length;
  }

  /** Idle buffers and their bytes (for tests and metrics). */
  get idleCount(): number {
    return this.idle.length;
  }

  get idleByteCount(): number {
    return this.idleBytes;
  }
}
