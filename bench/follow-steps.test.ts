import { describe, expect, it } from 'vitest';
import { SoftSteps, followedWithin } from './follow-steps.js';
import { MINUTE, book, snapshot } from './moneyline-snapshot-fixture.js';

/** A kickoff the next day: the six hours LowVig stands still before a soft step is its own fit before it. */
const KICKOFF = '2025-11-10T18:00:00Z';

/** The home-share logit of a moneyline: the log of the home side's implied probability over the away side's. */
const z = (home: number, away: number): number => {
  const implied = (a: number): number => (a < 0 ? -a / (100 - a) : 100 / (100 + a));
  return Math.log(implied(home) / implied(away));
};

/**
 * LowVig steps from -110 / -110 to -120 / +100 between minutes 0 and 15; DraftKings has moved as
 * far by minute 15, FanDuel by minute 75, BetMGM never; long after, DraftKings steps on its own.
 */
function recorded(): SoftSteps {
  const steps = new SoftSteps();
  const at = (minutes: number, dk: [number, number], fd: [number, number], lead: [number, number]): void =>
    steps.add(
      snapshot(minutes, [book('lowvig', ...lead), book('draftkings', ...dk), book('fanduel', ...fd), book('betmgm', -110, -110)], KICKOFF),
    );
  at(0, [-110, -110], [-110, -110], [-110, -110]);
  at(15, [-120, 100], [-110, -110], [-120, 100]);
  at(75, [-120, 100], [-120, 100], [-120, 100]);
  at(390, [-120, 100], [-120, 100], [-120, 100]);
  at(405, [-130, 110], [-120, 100], [-120, 100]);
  return steps;
}

describe('soft books beside the lead book in a recording', () => {
  it('times each soft book from the snapshot that showed the lead step to the one that showed it half followed, and watches the rest', () => {
    const chances = recorded().followChances();
    expect(chances.map((c) => [c.book, c.followedMs, c.watchedMs])).toEqual([
      ['draftkings', 0, 0],
      ['fanduel', 60 * MINUTE, 60 * MINUTE],
      ['betmgm', null, 390 * MINUTE],
    ]);
    expect(chances[0]?.stepLogit).toBeCloseTo(z(-120, 100) - z(-110, -110), 12);
    expect(chances[0]?.stepPoints).toBeCloseTo(100 * (12 / 23 - 1 / 2), 9);
  });

  it('counts as its own only a soft step made while the lead book had stood still for six hours', () => {
    const own = recorded().ownPairs();
    expect(own.map((p) => [p.book, p.gapMs])).toEqual([
      ['draftkings', 15 * MINUTE],
      ['fanduel', 15 * MINUTE],
      ['betmgm', 15 * MINUTE],
    ]);
    expect(own[0]?.moveLogit).toBeCloseTo(z(-130, 110) - z(-120, 100), 12);
    expect(own[1]?.moveLogit).toBe(0);
  });

  it('reads the shares followed within each time as Kaplan-Meier, a book not seen to follow counted while it was watched', () => {
    const chances = recorded().followChances();
    // At 15 minutes one of three has followed; at an hour the second of the two still watched.
    const shares = followedWithin(chances, [15 * MINUTE, 60 * MINUTE, 360 * MINUTE, 400 * MINUTE]);
    expect(shares).toHaveLength(4);
    [1 / 3, 2 / 3, 2 / 3, 2 / 3].forEach((share, i) => expect(shares[i]).toBeCloseTo(share, 12));
    // Watched only until minute 30, BetMGM says nothing of the hour: both books seen there followed.
    const short = chances.map((c) => (c.followedMs === null ? { ...c, watchedMs: 30 * MINUTE } : c));
    expect(followedWithin(short, [60 * MINUTE])).toEqual([1]);
  });
});
