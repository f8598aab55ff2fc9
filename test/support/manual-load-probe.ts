import type { LoadProbe } from '../../api/plugins/load-shedding.js';

/**
 * Load shedding's view of the process, set by the test: the clock moves only when told, the
 * event-loop delay is whatever the test says, and each turn runs when the test calls `turn()`
 * (or, with `autoTurns`, on the next real turn of the loop, the clock still standing still).
 */
export class ManualLoadProbe implements LoadProbe {
  private clock = 0;
  private readonly pending: (() => void)[] = [];
  /** Mean event-loop delay the sampler reports; undefined = no sample yet. */
  delayMs: number | undefined = 0;

  constructor(private readonly autoTurns = false) {}

  now(): number {
    return this.clock;
  }

  advance(ms: number): void {
    this.clock += ms;
  }

  nextTurn(step: () => void): void {
    if (this.autoTurns) setImmediate(step);
    else this.pending.push(step);
  }

  eventLoopDelayMs(): number | undefined {
    return this.delayMs;
  }

  /** Steps waiting for a turn. */
  get waitingSteps(): number {
    return this.pending.length;
  }

  /** Runs the steps scheduled for the next turn (those they schedule wait for the one after). */
  turn(): void {
    for (const step of this.pending.splice(0)) step();
  }
}
