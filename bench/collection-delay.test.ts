import { describe, expect, it } from 'vitest';
import { DelayResampler, collectionDelays } from './collection-delay.js';

const AT = Date.UTC(2025, 10, 9, 18);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('collectionDelays', () => {
  it("is each book's lag behind the snapshot, live once the event has started", () => {
    const data = [
      {
        commence_time: iso(AT - 600_000),
        bookmakers: [
          { key: 'draftkings', last_update: iso(AT - 40_000) },
          { key: 'fanduel', last_update: iso(AT - 250_000) },
        ],
      },
      { commence_time: iso(AT + 3_600_000), bookmakers: [{ key: 'lowvig', last_update: iso(AT + 2_000) }] },
      { commence_time: 'soon', bookmakers: [{ key: 'bovada', last_update: iso(AT) }] },
    ];
    expect(collectionDelays({ timestamp: AT, data })).toEqual({ prematch: [0], live: [40_000, 250_000] });
  });
});

describe('DelayResampler', () => {
  it('draws only recorded delays of the phase, the same for the same seed and key', () => {
    const r = new DelayResampler({ prematch: [5_000, 1_000], live: [90_000] }, 42);
    const draws = ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => r.draw('prematch', k));
    expect(draws.every((d) => d === 1_000 || d === 5_000)).toBe(true);
    expect(new Set(draws).size).toBe(2);
    expect(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => new DelayResampler({ prematch: [1_000, 5_000], live: [90_000] }, 42).draw('prematch', k)),
    ).toEqual(draws);
    expect(r.draw('live', 'a')).toBe(90_000);
    expect(r.max).toBe(90_000);
  });

  it('refuses a phase with nothing recorded', () => {
    expect(() => new DelayResampler({ prematch: [], live: [1] }, 1)).toThrow(/prematch/);
  });
});
