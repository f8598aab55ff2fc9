import { describe, expect, it } from 'vitest';
import { clickHouseTime } from './rows.js';

// clickHouseTime formats by arithmetic (issue 16: Date formatting was the pipeline's largest
// self time); it must write exactly what the Date path writes.
const viaDate = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

describe('clickHouseTime', () => {
  it('writes DateTime64(3) text in UTC', () => {
    expect(clickHouseTime(Date.UTC(2026, 10, 21, 9, 5, 7, 42))).toBe('2026-11-21 09:05:07.042');
  });

  it('equals the Date path at the edges of days, years and the four-digit range', () => {
    const edges = [
      0,
      -1,
      1,
      999,
      1000,
      86_399_999,
      86_400_000,
      -86_400_001,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
      1e15,
      0.5,
      -0.5,
    ];
    for (const ms of edges) expect(clickHouseTime(ms), String(ms)).toBe(viaDate(ms));
  });

  it('equals the Date path on 100,000 seeded times from 1900 to 2100', () => {
    let a = 12345;
    const next = (): number => {
      a = (Math.imul(a, 1_103_515_245) + 12_345) >>> 0;
      return a / 4_294_967_296;
    };
    const differing: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.floor(-2_208_988_800_000 + (next() + next() * 2 ** -32) * 6_311_433_600_000);
      if (clickHouseTime(ms) !== viaDate(ms)) differing.push(ms);
    }
    expect(differing).toEqual([]);
  });
});
