import { describe, expect, it } from 'vitest';
import { staleShareArgs } from './stale-share-args.js';

describe("the stale bench's command line", () => {
  it("runs make run's defaults with seed 42 when given nothing, and takes `-` for a default", () => {
    const defaults = { minutes: 5, staleCadenceFactor: undefined, partitions: 1, ticksPerSecond: 1000, splitsSeconds: 300, seed: 42 };
    expect(staleShareArgs([])).toEqual(defaults);
    expect(staleShareArgs(['-', '-', '-', '-', '-', '-'])).toEqual(defaults);
  });

  it('takes the seed as its sixth argument, after the ones the documented commands give', () => {
    expect(staleShareArgs(['5', '-', '4', '-', '-', '7'])).toEqual({
      minutes: 5,
      staleCadenceFactor: undefined,
      partitions: 4,
      ticksPerSecond: 1000,
      splitsSeconds: 300,
      seed: 7,
    });
    expect(staleShareArgs(['20', '2.5', '1', '200', '0', '0'])).toEqual({
      minutes: 20,
      staleCadenceFactor: 2.5,
      partitions: 1,
      ticksPerSecond: 200,
      splitsSeconds: 0,
      seed: 0,
    });
  });

  it('names the argument it cannot run with', () => {
    expect(() => staleShareArgs(['5', '-', '4', '-', '-', 'x'])).toThrow('seed must be a whole number from 0 to 2147483647');
    expect(() => staleShareArgs(['5', '-', '4', '-', '-', '1.5'])).toThrow(/^seed/);
    expect(() => staleShareArgs(['5', '-', '4', '-', '-', '-1'])).toThrow(/^seed/);
    expect(() => staleShareArgs(['5', '-', '4', '-', '-', '2147483648'])).toThrow(/^seed/);
    expect(() => staleShareArgs(['five'])).toThrow('minutes must be a positive number, got "five"');
    expect(() => staleShareArgs(['5', '0'])).toThrow(/^staleCadenceFactor/);
    expect(() => staleShareArgs(['5', '-', '0'])).toThrow(/^partitions/);
    expect(() => staleShareArgs(['5', '-', '2.5'])).toThrow(/^partitions/);
    expect(() => staleShareArgs(['5', '-', '4', '-', '-1'])).toThrow(/^splitsSeconds/);
    expect(() => staleShareArgs(['5', '-', '4', '', '-'])).toThrow(/^ticksPerSecond/);
    expect(() => staleShareArgs(['5', '-', '4', '-', '-', '42', 'extra'])).toThrow('at most 6 arguments');
  });
});
