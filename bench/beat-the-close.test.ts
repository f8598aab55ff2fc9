import { describe, expect, it } from 'vitest';
import { bucketRow, confidenceBands, confidenceThirds, wilsonInterval } from './beat-the-close.js';

const grade = (confidence: number, clvPercent: number): { confidence: number; clvPercent: number } => ({ confidence, clvPercent });

describe('wilsonInterval', () => {
  it('gives the textbook 95 % interval: 5 of 10 is 23.7-76.3 %, 0 of 10 is 0-27.8 %', () => {
    const [lo, hi] = wilsonInterval(5, 10);
    expect(lo).toBeCloseTo(0.2366, 4);
    expect(hi).toBeCloseTo(0.7634, 4);
    const [zeroLo, zeroHi] = wilsonInterval(0, 10);
    expect(zeroLo).toBe(0);
    expect(zeroHi).toBeCloseTo(0.2775, 4);
  });

  it('says nothing is known of an empty sample', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});

describe('beat-the-close buckets', () => {
  it('counts a CLV strictly above 0 as beating the close; a push at the close does not', () => {
    const row = bucketRow('all', [grade(70, 1.5), grade(72, 0), grade(75, -2)]);
    expect([row.count, row.beat, row.min, row.max]).toEqual([3, 1, 70, 75]);
    expect(row.share).toBeCloseTo(1 / 3, 9);
  });

  it('cuts thirds at scores, so that tied scores stay in one third', () => {
    const grades = [grade(50, 1), grade(60, -1), grade(60, 1), grade(70, 1), grade(80, -1), grade(80, 1), grade(90, 1)];
    const [bottom, middle, top] = confidenceThirds(grades);
    expect([bottom.min, bottom.max, bottom.count, bottom.beat]).toEqual([50, 60, 3, 2]);
    expect([middle.min, middle.max, middle.count]).toEqual([70, 70, 1]);
    expect([top.min, top.max, top.count, top.beat]).toEqual([80, 90, 3, 2]);
  });

  it('puts each score in the band from its edge to the next, the last band open-ended', () => {
    const rows = confidenceBands([grade(59, 1), grade(60, 1), grade(95, -1)], [0, 60, 90]);
    expect(rows.map((r) => [r.label, r.count])).toEqual([
      ['0-59', 1],
      ['60-89', 1],
      ['90+', 1],
    ]);
  });
});
