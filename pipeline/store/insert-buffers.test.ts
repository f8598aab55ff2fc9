import { describe, expect, it } from 'vitest';
import { InsertBuffers } from './insert-buffers.js';

describe('InsertBuffers (insert buffers kept from one batch to the next)', () => {
  it('hands out a new buffer of at least 64 KB when none is idle', () => {
    const buffers = new InsertBuffers();
    expect(buffers.take(10).length).toBe(65_536);
    expect(buffers.take(100_000).length).toBe(100_000);
    expect(buffers.idleCount).toBe(0);
  });

  it('hands a buffer given back to the next batch that fits in it', () => {
    const buffers = new InsertBuffers();
    const first = buffers.take(200_000);
    buffers.give(first);
    expect(buffers.idleCount).toBe(1);
    expect(buffers.idleByteCount).toBe(200_000);
    expect(buffers.take(150_000)).toBe(first);
    expect(buffers.idleCount).toBe(0);
  });

  it('picks the shortest idle buffer that fits, and allocates when none does', () => {
    const buffers = new InsertBuffers();
    const big = buffers.take(1_000_000);
    const small = buffers.take(100_000);
    const middle = buffers.take(300_000);
    buffers.give(big);
    buffers.give(small);
    buffers.give(middle);
    expect(buffers.take(200_000)).toBe(middle);
    expect(buffers.take(50_000)).toBe(small);
    const larger = buffers.take(2_000_000);
    expect(larger).not.toBe(big);
    expect(larger.length).toBe(2_000_000);
    expect(buffers.idleCount).toBe(1);
  });

  it('keeps at most its bound of idle bytes, dropping the shortest buffers first', () => {
    const buffers = new InsertBuffers(1_000_000);
    const a = buffers.take(400_000);
    const b = buffers.take(500_000);
    const c = buffers.take(300_000);
    buffers.give(a);
    buffers.give(b);
    buffers.give(c);
    // 1.2 MB idle is over the bound: the 300 KB buffer goes, then the total is 900 KB.
    expect(buffers.idleCount).toBe(2);
    expect(buffers.idleByteCount).toBe(900_000);
    expect(buffers.take(250_000)).toBe(a);
    expect(buffers.take(250_000)).toBe(b);
  });

  it('does not keep a buffer larger than its bound', () => {
    const buffers = new InsertBuffers(1_000_000);
    buffers.give(buffers.take(2_000_000));
    expect(buffers.idleCount).toBe(0);
    expect(buffers.idleByteCount).toBe(0);
  });

  it('never hands out a slice of a shared allocation', () => {
    const buffer = new InsertBuffers().take(10);
    expect(buffer.byteOffset).toBe(0);
    expect(buffer.buffer.byteLength).toBe(buffer.length);
  });
});
