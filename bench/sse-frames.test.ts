import { describe, expect, it } from 'vitest';
import { sseFrames } from './sse-frames.js';

describe('sseFrames', () => {
  it('hands over each named frame once, whole, however the chunks cut its lines', () => {
    const frames: [string, string, string][] = [];
    const feed = sseFrames((event, id, data) => frames.push([event, id, data]));
    const text =
      'retry: 3000\n\nevent: connected\nid: 7-s0\ndata: {"a":1}\n\nevent: odds:update\nid: 8\ndata: {"odds":[]}\n\n: comment\n\n';
    for (let i = 0; i < text.length; i += 5) feed(text.slice(i, i + 5));
    expect(frames).toEqual([
      ['connected', '7-s0', '{"a":1}'],
      ['odds:update', '8', '{"odds":[]}'],
    ]);
  });

  it("does not carry one frame's id into the next frame that has none", () => {
    const frames: [string, string, string][] = [];
    const feed = sseFrames((event, id, data) => frames.push([event, id, data]));
    feed('event: a\nid: 1\ndata: x\n\nevent: heartbeat\ndata: y\n\n');
    expect(frames).toEqual([
      ['a', '1', 'x'],
      ['heartbeat', '', 'y'],
    ]);
  });
});
