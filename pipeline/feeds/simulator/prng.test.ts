import { describe, expect, it } from 'vitest';
import { Prng, hash2, hashString, unitHash } from './prng.js';

describe('Prng', () => {
  it('produces the same sequence from the same seed', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    const xs = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xs);
    expect(new Prng(43).nextUint32()).not.toBe(xs[0]);
  });

  it('pins its first outputs, so a change of generator is a visible change', () => {
    const rng = new Prng(42);
    expect([rng.nextUint32(), rng.nextUint32(), rng.nextUint32()]).toEqual(PINNED);
  });

  it('draws uniform, normal and Poisson values with the right moments', () => {
    const rng = new Prng(7);
    const n = 50_000;
    let sum = 0;
    let sumNormal = 0;
    let sumSquares = 0;
    let arrivals = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      const z = rng.normal();
      sumNormal += z;
      sumSquares += z * z;
      arrivals += rng.poisson(0.5);
    }
    expect(sum / n).toBeCloseTo(0.5, 2);
    expect(sumNormal / n).toBeCloseTo(0, 1);
    expect(sumSquares / n).toBeCloseTo(1, 1);
    expect(arrivals / n).toBeCloseTo(0.5, 1);
  });

  it('forks independent generators deterministically', () => {
    const a = new Prng(1).fork();
    const b = new Prng(1).fork();
    expect(a.nextUint32()).toBe(b.nextUint32());
  });
});

describe('hashes', () => {
  it('are stable and spread', () => {
    expect(hashString('pinnacle')).toBe(hashString('pinnacle'));
    expect(hashString('pinnacle')).not.toBe(hashString('pinnacle', 1));
    expect(hash2(1, 2)).not.toBe(hash2(2, 1));
    const u = unitHash('draftkings');
    expect(u >= 0 && u < 1).toBe(true);
  });
});

const PINNED = [2_852_766_471, 4_136_168_353, 1_126_838_629];
