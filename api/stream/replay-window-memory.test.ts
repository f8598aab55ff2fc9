/**
 * What went wrong: the replay window kept every frame as the Buffers the connections were sent.
 * Buffers live outside the V8 heap, and V8 starts a full mark of the heap each time the memory
 * held outside it has grown by 64 MB since the last one. The window keeps frames for minutes, so
 * at 1,000 SSE + 1,000 WebSocket subscribers (stream bench) it grew that much every 15-20 s: a
 * major GC each time ("external memory pressure" in `--trace-incremental-marking`), and each one
 * a 300-450 ms stall of the event loop on two cores.
 *
 * The window must keep frames as text on the heap, and a replay must still send exactly the
 * bytes the live connections got.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamHub } from './hub.js';
import type { SourceBatch, StreamConnection, StreamSource, StreamSpec } from './hub.js';
import type { FramePayload, Rendered } from './frames.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const FRAMES = 48;
const FRAME_CHARS = 1024 * 1024;

/** One frame per batch, each with its own megabyte of payload (no two share a string). */
class BigFrames implements StreamSource {
  readonly channel = 'odds';
  readonly feed = 'live';
  private next = 0;
  private pending = 0;

  /** One more batch for the next flush. */
  more(): void {
    this.pending++;
  }

  take(): SourceBatch[] {
    const out = Array.from({ length: this.pending }, () => ({ slots: 1, data: this.next++ }));
    this.pending = 0;
    return out;
  }

  render(batch: SourceBatch): { slot: number; payload: FramePayload }[] {
    const n = batch.data as number;
    const fill = String.fromCharCode(97 + (n % 26)).repeat(FRAME_CHARS);
    return [{ slot: 0, payload: { name: 'odds:update', sse: `{"n":${n},"fill":"${fill}"}`, ws: `"n":${n}` } }];
  }

  discard(): void {
    this.pending = 0;
  }
}

/** A connection that keeps the SSE bytes it was handed, live or replayed, in order. */
function recorder(): StreamConnection & { got: Buffer[] } {
  const got: Buffer[] = [];
  return { keyId: 'k', got, deliver: (f: Rendered) => void got.push(f.sse), heartbeat: () => undefined, end: () => undefined };
}

/** Full GCs, with a turn of the event loop between for what V8 frees after one (array buffers). */
async function collect(): Promise<void> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

let hub: StreamHub | null = null;
afterEach(() => {
  hub?.close();
  hub = null;
});

describe('replay window memory', () => {
  it('keeps frames on the V8 heap, not as Buffers outside it, and replays the bytes the live connections got', async () => {
    hub = new StreamHub({ window: { maxFrames: 1000, maxAgeMs: 3_600_000, maxBytes: 1e12 }, heartbeatMs: 0, now: () => 0, maxStreams: () => 10 });
    const source = new BigFrames();
    hub.addSource(source);
    const spec: StreamSpec = { feed: 'live', tier: 'enterprise', channels: new Map([['odds', {}]]), signature: 'all' };
    const group = hub.group(spec);
    const start = hub.head;
    const live = recorder();
    hub.join(live, group);
    await collect();
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < FRAMES; i++) {
      source.more();
      hub.flush();
      // Written and gone, as a socket would: only the window may still hold the frame.
      if (i < FRAMES - 1) live.got.length = 0;
    }
    const last = live.got[0] as Buffer;
    await collect();
    // 48 frames of over 1 MB each are in the window; outside the heap, next to nothing is held.
    expect(hub.window.size).toBe(FRAMES);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * FRAME_CHARS);

    const replayed = recorder();
    expect(hub.replay(replayed, group, start)).toBe(FRAMES);
    expect(replayed.got.map((b) => b.subarray(0, b.indexOf('"fill"')).toString())).toEqual(
      Array.from({ length: FRAMES }, (_, i) => `id: ${start + i + 1}\nevent: odds:update\ndata: {"n":${i},`),
    );
    expect((replayed.got[FRAMES - 1] as Buffer).equals(last)).toBe(true);
  });
});
