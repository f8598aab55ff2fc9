/**
 * What went wrong: the replay window kept each frame as its SSE text and its WebSocket text, both
 * built around the same string of rows. Encoding a string for a socket makes V8 flatten it in
 * place, so once a frame had gone out the window held two flat copies of its rows (one per text)
 * where the payload held one: twice the frame's bytes in the old generation for as long as the
 * window keeps it, and in the stream bench about a tenth of everything the server promoted.
 *
 * The window must keep one copy of a frame's rows, and still replay exactly the bytes the live
 * connections got, in both forms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamConnection, StreamHub } from './hub.js';
import type { Rendered } from './frames.js';
import { NumberedFrames, keepingHub } from './fixtures/numbered-frames.js';
import { heapAfterGc } from '../../test/support/gc.js';

const FRAMES = 32;
const ROW_CHARS = 1024 * 1024;

/** Like the odds source: each frame's SSE and WebSocket forms wrap one shared string of rows. */
function sharedRows(): NumberedFrames {
  return new NumberedFrames((n) => {
    // repeat() builds a rope; trim() hands back the flat string, as JSON of real rows would be.
    const rows = `[${JSON.stringify(String.fromCharCode(97 + (n % 26)).repeat(ROW_CHARS))}]`.trim();
    return { name: 'odds:update', sse: `{"odds":${rows},"n":${n}}`, ws: `"data":${rows},"n":${n}` };
  });
}

/** A connection that keeps both forms of what it was handed, in order. */
function recorder(): StreamConnection & { sse: Buffer[]; ws: Buffer[] } {
  const sse: Buffer[] = [];
  const ws: Buffer[] = [];
  return {
    keyId: 'k',
    accountId: 'a',
    sse,
    ws,
    deliver: (f: Rendered) => {
      sse.push(f.sse);
      ws.push(f.wsTail);
    },
    heartbeat: () => undefined,
    end: () => undefined,
  };
}

let hub: StreamHub | null = null;
afterEach(() => {
  hub?.close();
  hub = null;
});

describe('replay window: one copy of the rows per frame', () => {
  it("holds about one copy of each sent frame's rows on the heap, and replays both forms byte for byte", () => {
    const source = sharedRows();
    const made = keepingHub(source);
    hub = made.hub;
    const { group, start } = made;
    const live = recorder();
    hub.join(live, group);
    const liveSse: Buffer[] = [];
    const liveWs: Buffer[] = [];
    const before = heapAfterGc();
    for (let i = 0; i < FRAMES; i++) {
      source.more();
      hub.flush();
      // Written and gone, as a socket would (the bytes live outside the heap anyway).
      liveSse.push(...live.sse.splice(0));
      liveWs.push(...live.ws.splice(0));
    }
    const held = heapAfterGc() - before;
    expect(hub.window.size).toBe(FRAMES);
    // One copy is FRAMES * ROW_CHARS; the old window held two (a flat SSE text and a flat WebSocket text).
    expect(held).toBeGreaterThan(0.9 * FRAMES * ROW_CHARS);
    expect(held).toBeLessThan(1.25 * FRAMES * ROW_CHARS);

    const replayed = recorder();
    expect(hub.replay(replayed, group, start)).toBe(FRAMES);
    expect(replayed.sse.every((b, i) => b.equals(liveSse[i] as Buffer))).toBe(true);
    expect(replayed.ws.every((b, i) => b.equals(liveWs[i] as Buffer))).toBe(true);
    const head = `id: ${start + 4}\nevent: odds:update\ndata: {"odds":["dddd`;
    expect((replayed.sse[3] as Buffer).subarray(0, head.length).toString()).toBe(head);
    expect((replayed.ws[3] as Buffer).subarray(-80).toString()).toMatch(
      /d"\],"n":3,"global_seq":\d+,"timestamp":"1970-01-01T00:00:00.000Z"}$/,
    );
  });
});
