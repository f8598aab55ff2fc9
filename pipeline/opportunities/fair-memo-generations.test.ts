/**
 * What went wrong: the +EV engine's de-vig memo (`FAIR` in ev.ts) kept every price set until it
 * held 20,000 and then started over, so at 2,000 ticks/s it grew for some 45 minutes (about
 * 10 MB) whether or not those prices came back. It now keeps what was asked for within the last
 * two generations of five minutes (`GenerationalMemo`).
 */
import { describe, expect, it } from 'vitest';
import { GenerationalMemo } from './memo.js';

const MIN = 60_000;

describe('GenerationalMemo', () => {
  it('keeps only the keys asked for within the last two generations, computing each again after that', () => {
    const memo = new GenerationalMemo<string>(5 * MIN, 100);
    const computed: string[] = [];
    const ask = (key: string, now: number): string => memo.get(key, now, () => (computed.push(key), key.toUpperCase()));
    for (const k of ['a', 'b', 'c']) ask(k, 0);
    expect(memo.size).toBe(3);
    // Next generation: `a` is asked again (moved, not computed), `d` is new.
    expect(ask('a', 5 * MIN)).toBe('A');
    ask('d', 5 * MIN);
    expect(memo.size).toBe(4);
    // One generation later `b` and `c` (not asked since) are gone: `b` is computed again.
    ask('b', 10 * MIN);
    expect(memo.size).toBe(3);
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('makes a full generation the older one at once, so it never holds more than twice its capacity', () => {
    const memo = new GenerationalMemo<number | null>(5 * MIN, 2);
    let computes = 0;
    const ask = (key: string): number | null => memo.get(key, 0, () => (computes++, key === 'z' ? null : key.length));
    for (const k of ['a', 'b', 'c', 'd', 'e']) ask(k);
    expect(memo.size).toBe(3);
    // A null result is remembered like any other.
    expect(ask('z')).toBeNull();
    expect(ask('z')).toBeNull();
    expect(computes).toBe(6);
    expect(memo.size).toBe(4);
  });
});
