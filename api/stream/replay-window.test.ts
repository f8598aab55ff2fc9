import { describe, expect, it } from 'vitest';
import { frameChars, frameText } from './frames.js';
import { ReplayWindow } from './replay-window.js';

const frame = (seq: number, size = 10) =>
  frameText(String(seq), seq, { name: 'odds:update', sse: `"${'x'.repeat(size)}"`, ws: '' }, '2026-11-22T12:00:00.000Z');

describe('ReplayWindow', () => {
  it("replays a group's frames after a position, in order, skipping sequence numbers it did not get", () => {
    const w = new ReplayWindow<string>(100, { maxFrames: 10, maxAgeMs: 60_000, maxBytes: 1e9 }, () => 0);
    w.append(101, new Map([['a', frame(101)]]));
    w.append(102, new Map([['b', frame(102)]]));
    w.append(103, null);
    w.append(
      104,
      new Map([
        ['a', frame(104)],
        ['b', frame(104)],
      ]),
    );
    const seen: number[] = [];
    w.forEachAfter(101, 'a', (seq) => seen.push(seq));
    expect(seen).toEqual([104]);
    w.forEachAfter(100, 'b', (seq) => seen.push(seq));
    expect(seen).toEqual([104, 102, 104]);
  });

  it('moves its floor as frames leave by count, age and bytes', () => {
    let now = 0;
    const w = new ReplayWindow<string>(0, { maxFrames: 3, maxAgeMs: 1000, maxBytes: 1e9 }, () => now);
    for (let s = 1; s <= 5; s++) w.append(s, new Map([['a', frame(s)]]));
    expect([w.floor, w.size]).toEqual([2, 3]);
    now = 5000;
    w.append(6, null);
    expect([w.floor, w.size]).toEqual([5, 1]);
    const bytes = frameChars(frame(7, 1000));
    const small = new ReplayWindow<string>(0, { maxFrames: 100, maxAgeMs: 1e9, maxBytes: 2 * bytes }, () => 0);
    for (let s = 1; s <= 4; s++) small.append(s, new Map([['a', frame(s, 1000)]]));
    expect([small.floor, small.size]).toEqual([2, 2]);
  });
});
