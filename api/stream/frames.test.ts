import { describe, expect, it } from 'vitest';
import { type FramePayload, render, wsMessage } from './frames.js';

/** A payload that counts how often each form's text is read. */
function countedPayload(name: string, sse: string, ws: string): { payload: FramePayload; reads: { sse: number; ws: number } } {
  const reads = { sse: 0, ws: 0 };
  const payload = {
    name,
    get sse() {
      reads.sse++;
      return sse;
    },
    get ws() {
      reads.ws++;
      return ws;
    },
  };
  return { payload, reads };
}

describe('an encoded frame', () => {
  it('has the exact SSE bytes and WebSocket tail of its payload', () => {
    const frame = render('42', 42, { name: 'odds:update', sse: '[{"id":"a"}]', ws: '"odds":[{"id":"a"}]' }, '2026-11-24T04:00:00.000Z');
    expect(frame.seq).toBe(42);
    expect(frame.sse.toString()).toBe('id: 42\nevent: odds:update\ndata: [{"id":"a"}]\n\n');
    expect(frame.wsTail.toString()).toBe(
      '"type":"odds:update","odds":[{"id":"a"}],"global_seq":42,"timestamp":"2026-11-24T04:00:00.000Z"}',
    );
    expect(wsMessage(7, frame.wsTail).toString()).toBe(
      '{"seq":7,"type":"odds:update","odds":[{"id":"a"}],"global_seq":42,"timestamp":"2026-11-24T04:00:00.000Z"}',
    );
  });

  it('leaves out an empty WebSocket fragment', () => {
    const frame = render('5-s0', 5, { name: 'heartbeat', sse: '{}', ws: '' }, '2026-11-24T04:00:00.000Z');
    expect(frame.sse.toString()).toBe('id: 5-s0\nevent: heartbeat\ndata: {}\n\n');
    expect(frame.wsTail.toString()).toBe('"type":"heartbeat","global_seq":5,"timestamp":"2026-11-24T04:00:00.000Z"}');
  });

  it('builds a form only when a connection of that kind asks for it, and then once', () => {
    const sseOnly = countedPayload('snapshot', '{"odds":[]}', '"odds":[]');
    const a = render('1-s1', 1, sseOnly.payload, '2026-11-24T04:00:00.000Z');
    expect(sseOnly.reads).toEqual({ sse: 0, ws: 0 });
    const first = a.sse;
    expect(a.sse).toBe(first);
    expect(sseOnly.reads).toEqual({ sse: 1, ws: 0 });

    const wsOnly = countedPayload('odds:update', '[]', '"odds":[]');
    const b = render('2', 2, wsOnly.payload, '2026-11-24T04:00:00.000Z');
    const tail = b.wsTail;
    expect(b.wsTail).toBe(tail);
    expect(wsOnly.reads).toEqual({ sse: 0, ws: 2 });
  });
});
