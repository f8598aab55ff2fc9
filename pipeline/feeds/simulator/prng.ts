/**
 * Seeded randomness. The simulator must replay identically from a seed, so nothing here touches
 * Math.random. sfc32 passes PractRand far beyond what a simulation draws and costs a few integer
 * operations per number, which matters at hundreds of thousands of ticks per second.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    // sfc32 needs a few rounds before nearby seeds stop producing correlated first outputs.
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box-Muller, the second value kept for the next call). */
  normal(): number {
    const spare = this.spareNormal;
    if (spare !== null) {
      this.spareNormal = null;
      return spare;
    }
    let u = this.next();
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Number of Poisson arrivals with mean `lambda` (Knuth; the simulator's means are small). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  pick<T>(items: readonly T[]): T | undefined {
    return items[this.int(items.length)];
  }

  /** An independent generator, so that one consumer's draws do not shift another's. */
  fork(): Prng {
    return new Prng(this.nextUint32());
  }
}

/** murmur3's finalizer: a cheap, well-mixed 32-bit hash of a 32-bit value. */
export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of two integers, for choices that must not consume the generator (e.g. staleness windows). */
export function hash2(a: number, b: number): number {
  return mix32(Math.imul(mix32(a), 0x9e3779b1) ^ b);
}

/** FNV-1a over UTF-16 code units, finalized with mix32. */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A stable number in [0, 1) for a key: deterministic per-book, per-event choices. */
export function unitHash(key: string, seed = 0): number {
  return hashString(key, seed) / 4294967296;
}
