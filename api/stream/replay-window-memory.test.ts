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
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamConnection, StreamHub } from './hub.js';
import type { Rendered } from './frames.js';
import { NumberedFrames, keepingHub } from './fixtures/numbered-frames.js';
import { gc } from '../../test/support/gc.js';

const FRAMES = 48;
const FRAME_CHARS = 1024 * 1024;

/** One frame per batch, each with its own megabyte of payload (no two share a string). */
function bigFrames(): NumberedFrames {
  return new NumberedFrames((n) => {
    const fill = String.fromCharCode(97 + (n % 26)).repeat(FRAME_CHARS);
    return { name: 'odds:update', sse: `{"n":${n},"fill":"${fill}"}`, ws: `"n":${n}` };
  });
}

/** A connection that keeps the SSE bytes it was handed, live or replayed, in order. */
function recorder(): StreamConnection & { got: Buffer[] } {
  const got: Buffer[] = [];
  return {
    keyId: 'k',
    accountId: 'a',
    got,
    deliver: (f: Rendered) => void got.push(f.sse),
    heartbeat: () => undefined,
    end: () => undefined,
  };
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
    const source = bigFrames();
    const made = keepingHub(source);
    hub = made.hub;
    const { group, start } = made;
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
