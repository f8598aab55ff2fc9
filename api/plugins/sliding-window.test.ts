/**
 * What went wrong: the limit was counted per fixed clock minute, so a 12/min key made 24
 * successful requests in 709 ms, 12 just before a minute boundary and 12 just after. The window
 * now slides: at most `limit` admitted requests in any 60 s span, exact when requests race.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, WINDOW_MS } from './rate-limit.js';

const T = Date.UTC(2026, 10, 22, 12, 0, 59, 500);

describe('sliding one-minute window (in process)', () => {
  it('refuses the 13th request of a 12/min key across a minute boundary (the 709 ms burst)', async () => {
    const s = new MemoryRateLimitStore();
    const answers: boolean[] = [];
    for (let i = 0; i < 12; i++) answers.push((await s.hit('k', 12, T + i)).allowed);
    for (let i = 0; i < 12; i++) answers.push((await s.hit('k', 12, T + 709 + i)).allowed);
    expect(answers.filter(Boolean)).toHaveLength(12);
    expect(answers.slice(0, 12).every(Boolean)).toBe(true);
  });

  it('frees a slot exactly when the oldest admitted request is 60 s old, not a millisecond sooner', async () => {
    const s = new MemoryRateLimitStore();
    for (let i = 0; i < 3; i++) await s.hit('k', 3, T + i * 1000);
    expect(await s.hit('k', 3, T + WINDOW_MS - 1)).toEqual({
      allowed: false,
      remaining: 0,
      resetAt: Math.ceil((T + WINDOW_MS) / 1000),
      retryAfter: 1,
    });
    expect(await s.hit('k', 3, T + WINDOW_MS)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await s.hit('k', 3, T + WINDOW_MS + 999)).allowed).toBe(false);
    expect(await s.hit('k', 3, T + WINDOW_MS + 1000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports remaining, the reset as the time the oldest request leaves, and Retry-After in whole seconds', async () => {
    const s = new MemoryRateLimitStore();
    expect(await s.hit('k', 5, T)).toEqual({ allowed: true, remaining: 4, resetAt: Math.ceil((T + WINDOW_MS) / 1000), retryAfter: 60 });
    expect(await s.hit('k', 5, T + 20_000)).toMatchObject({ allowed: true, remaining: 3, resetAt: Math.ceil((T + WINDOW_MS) / 1000) });
    for (let i = 0; i < 3; i++) await s.hit('k', 5, T + 30_000);
    expect(await s.hit('k', 5, T + 45_000)).toEqual({
      allowed: false,
      remaining: 0,
      resetAt: Math.ceil((T + WINDOW_MS) / 1000),
      retryAfter: 15,
    });
  });

  it('does not count refused requests: a client knocking while refused recovers on time', async () => {
    const s = new MemoryRateLimitStore();
    await s.hit('k', 2, T);
    await s.hit('k', 2, T + 1);
    for (let t = 2; t < WINDOW_MS; t += 500) expect((await s.hit('k', 2, T + t)).allowed).toBe(false);
    expect((await s.hit('k', 2, T + WINDOW_MS)).allowed).toBe(true);
    expect((await s.hit('k', 2, T + WINDOW_MS + 1)).allowed).toBe(true);
  });

  it('admits exactly the limit when 50 requests of one key race', async () => {
    const s = new MemoryRateLimitStore();
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.hit('k', 12, T)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(12);
    expect(answers.map((a) => a.remaining).slice(0, 13)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
  });

  it('keeps keys apart and follows a key whose limit is raised', async () => {
    const s = new MemoryRateLimitStore();
    for (let i = 0; i < 2; i++) await s.hit('a', 2, T);
    expect((await s.hit('a', 2, T)).allowed).toBe(false);
    expect((await s.hit('b', 2, T)).allowed).toBe(true);
    expect(await s.hit('a', 3000, T + 1)).toMatchObject({ allowed: true, remaining: 2997 });
    for (let i = 0; i < 2997; i++) await s.hit('a', 3000, T + 2);
    expect((await s.hit('a', 3000, T + 3)).allowed).toBe(false);
  });
});

describe('sliding window memory', () => {
  it('holds what a key uses, not its limit: a key of 10^12 a minute costs a few slots', async () => {
    const s = new MemoryRateLimitStore();
    for (let i = 0; i < 100; i++) expect((await s.hit('huge', 1e12, T + i)).allowed).toBe(true);
    expect(await s.hit('huge', 1e12, T + 100)).toMatchObject({ allowed: true, remaining: 1e12 - 101 });
  });
});
