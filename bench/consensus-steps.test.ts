import { describe, expect, it } from 'vitest';
import { PregameSteps, poissonRate, stepStats } from './consensus-steps.js';
import { MINUTE, book, snapshot } from './moneyline-snapshot-fixture.js';

describe('pre-match consensus steps of a recording', () => {
  it('compares the median no-vig home share over the books priced in both snapshots, and the lead book alone, in logits', () => {
    const steps = new PregameSteps();
    const even = [book('draftkings', -110, -110), book('fanduel', -110, -110), book('betmgm', -110, -110), book('lowvig', -110, -110)];
    steps.add(snapshot(0, even));
    steps.add(snapshot(15, even));
    // Three of four books move the home side to -120 / +100, a no-vig share of 12/23; a fifth book
    // coming in at another price is in neither consensus of the pair.
    steps.add(
      snapshot(30, [
        book('draftkings', -110, -110),
        book('fanduel', -120, 100),
        book('betmgm', -120, 100),
        book('lowvig', -120, 100),
        book('bovada', -300, 250),
      ]),
    );
    expect(steps.consensus.map((p) => p.gapMs)).toEqual([15 * MINUTE, 15 * MINUTE]);
    expect(steps.consensus[0]?.moveLogit).toBe(0);
    expect(steps.consensus[1]?.moveLogit).toBeCloseTo(Math.log(12 / 11), 12);
    expect(steps.lead[1]?.moveLogit).toBeCloseTo(Math.log(12 / 11), 12);
    const stats = stepStats(steps.consensus);
    expect(stats.pairs).toBe(2);
    expect(stats.stepShare).toBe(50);
    expect(stats.sizedSteps).toBe(1);
    expect(stats.sizeP50).toBeCloseTo(Math.log(12 / 11), 12);
    // One step in two quarter-hours: e^(-r/4) = 1/2.
    expect(stats.stepsPerHour).toBeCloseTo(4 * Math.LN2, 9);
  });

  it('leaves out games that have started', () => {
    const steps = new PregameSteps();
    const books = [book('draftkings', -110, -110), book('fanduel', -110, -110), book('betmgm', -110, -110)];
    steps.add(snapshot(0, books, '2025-11-09T12:10:00Z'));
    steps.add(snapshot(15, books, '2025-11-09T12:10:00Z'));
    expect(steps.consensus).toEqual([]);
  });

  it('reads the step rate that best explains which intervals saw a step', () => {
    expect(
      poissonRate([
        { hours: 1, stepped: true },
        { hours: 1, stepped: false },
      ]),
    ).toBeCloseTo(Math.LN2, 9);
    expect(poissonRate([{ hours: 1, stepped: false }])).toBe(0);
    expect(poissonRate([])).toBe(null);
  });
});
