import { describe, expect, it } from 'vitest';
import { WANDER_HOURS, wanderOn } from './board.js';
import { Prng } from './prng.js';

const HOUR = 3_600_000;
const SD = 0.0045;

describe("a soft book's wandering lean", () => {
  it('opens at a draw from its own spread', () => {
    const expected = SD * new Prng(7).normal();
    expect(wanderOn(0, -Infinity, 0, SD, new Prng(7))).toBe(expected);
  });

  it('stays where it was when no time has passed', () => {
    expect(wanderOn(0.004, 10 * HOUR, 10 * HOUR, SD, new Prng(7))).toBe(0.004);
  });

  it(`keeps 1/e of where it was after ${WANDER_HOURS} hours, the rest a fresh draw scaled to keep its spread`, () => {
    const keep = Math.exp(-1);
    const expected = 0.004 * keep + SD * Math.sqrt(1 - keep * keep) * new Prng(7).normal();
    expect(wanderOn(0.004, 0, WANDER_HOURS * HOUR, SD, new Prng(7))).toBe(expected);
  });

  it('does not wander, nor draw, for a book without a wander (the sharp books)', () => {
    const rng = new Prng(7);
    expect(wanderOn(0.004, 0, HOUR, 0, rng)).toBe(0);
    expect(rng.normal()).toBe(new Prng(7).normal());
  });
});
