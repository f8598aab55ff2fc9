import { describe, expect, it } from 'vitest';
import { SseFrameOrder } from './chaos-frame-order.js';

describe('an SSE client’s frame order, ids kept opaque', () => {
  it('accepts a delivery’s frames and a heartbeat repeating the id just before them', () => {
    const order = new SseFrameOrder();
    order.connected('9-s0');
    expect(order.frame('9.r.AA', false)).toBeNull();
    expect(order.frame('10.r.AA', true)).toBeNull();
    expect(order.frame('11.r.AB', true)).toBeNull();
    expect(order.frame('11.r.AB', false)).toBeNull();
  });

  it('accepts catch-up frames carrying the id the connection resumed from, then the new one', () => {
    const order = new SseFrameOrder();
    order.connected('3-s0');
    expect(order.frame('4.a.AA', true)).toBeNull();
    order.connected('4.a.AA');
    expect(order.frame('4.a.AA', true)).toBeNull();
    expect(order.frame('4.a.AA', true)).toBeNull();
    expect(order.frame('70.b.AC', true)).toBeNull();
  });

  it('flags an id coming back on one connection after it was left', () => {
    const order = new SseFrameOrder();
    order.connected('1.a.AA');
    expect(order.frame('2.a.AB', false)).toBeNull();
    expect(order.frame('3.a.AC', true)).toBeNull();
    expect(order.frame('2.a.AB', false)).toBe('id 2.a.AB again after 3.a.AC');
  });

  it('flags a data frame a resumed connection sends again after the resume point', () => {
    const order = new SseFrameOrder();
    order.connected('1-s0');
    expect(order.frame('5.a.AA', true)).toBeNull();
    expect(order.frame('6.a.AB', true)).toBeNull();
    order.connected('5.a.AA');
    expect(order.frame('6.a.AB', true)).toBe('data frame 6.a.AB delivered twice');
  });
});
