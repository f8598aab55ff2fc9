/**
 * Longest stretch a snapshot being sent holds the event loop before it lets everything else run
 * (other subscribers' frames, the pipeline): a Sharp key's unfiltered snapshot is tens of
 * megabytes, presented and written over many turns instead of one.
 */
export const SNAPSHOT_TURN_MS = 8;

/**
 * Calls `send(i)` for i = 0 .. count - 1 in order, yielding to the event loop whenever a turn's
 * budget is spent, and stops when `alive()` turns false (the client went). Small snapshots go
 * out in the caller's turn. Resolves true when every one was sent.
 */
export async function sendInTurns(count: number, send: (i: number) => void, alive: () => boolean, turnMs = SNAPSHOT_TURN_MS): Promise<boolean> {
  let since = performance.now();
  for (let i = 0; i < count; i++) {
    if (!alive()) return false;
    send(i);
    if (i + 1 < count && performance.now() - since >= turnMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return alive();
}

/** A value built on first use, then kept (snapshot frame bodies shared by members joining together). */
export function once(build: () => string): () => string {
  let value: string | undefined;
  return () => (value ??= build());
}

/**
 * Live frames that reach a connection while its snapshot is still being sent: kept in order and
 * written right after `snapshot:complete`, so the client sees exactly what it would have seen had
 * the snapshot gone out at once. Their bytes count against the connection's bound.
 */
export class HeldFrames<F> {
  private frames: F[] = [];
  bytes = 0;

  push(frame: F, size: number): void {
    this.frames.push(frame);
    this.bytes += size;
  }

  take(): F[] {
    const frames = this.frames;
    this.frames = [];
    this.bytes = 0;
    return frames;
  }
}
