import type { SoakSample } from './soak-trend.js';

/**
 * A reading at `t` seconds of a server that holds still (tests of the soak's verdict): each test
 * overrides the series it is about.
 */
export function steadySample(t: number, over: Partial<SoakSample> = {}): SoakSample {
  return {
    t,
    rssBytes: 800e6,
    heapUsedBytes: 400e6,
    heapAfterGcBytes: 300e6,
    externalBytes: 10e6,
    fds: 600,
    threadFds: 0,
    threads: 160,
    eventLoopP99Ms: 20,
    streamLagP99Ms: 150,
    storeParts: 40,
    pipelineLag: 0,
    boardRows: 0,
    boardEvents: 0,
    boardRowsTakenIn: 0,
    ...over,
  };
}
