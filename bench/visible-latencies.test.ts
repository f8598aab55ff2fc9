import { describe, expect, it } from 'vitest';
import { visibleLatencies } from './visible.js';

// The tick-to-visible bench once matched a sighting only to a probe of the same price, with the
// prices reused every hundred probes: probes replaced before a poll caught them were left out
// (the slow ones), and a sighting of a later probe was taken for an earlier one's, which printed
// a p99 of 4,996 ms on a pipeline answering in tens of milliseconds.
describe('tick to visible: a probe is visible once its price or a later probe price shows', () => {
  const probes: [number, number][] = [
    [152, 1_000],
    [153, 1_050],
    [154, 1_100],
    [155, 1_150],
  ];

  it('gives a probe the poller never caught the sighting of the later probe that replaced it', () => {
    // 153 was replaced by 154 between two polls: it was visible (under 154) from 1,130.
    expect(
      visibleLatencies(probes, [
        [152, 1_020],
        [154, 1_130],
        [155, 1_190],
      ]),
    ).toEqual([20, 80, 30, 40]);
  });

  it('leaves out only the probes still in flight when the poller stopped', () => {
    expect(visibleLatencies(probes, [[153, 1_070]])).toEqual([70, 20]);
  });

  it('ignores sightings of prices no probe sent (the row before the probes)', () => {
    expect(
      visibleLatencies(probes, [
        [151, 990],
        [152, 1_004],
      ]),
    ).toEqual([4]);
  });
});
