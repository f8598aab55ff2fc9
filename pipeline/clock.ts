/**
 * Time as the system sees it. Live feeds run on the wall clock; a replay drives a manual clock
 * from the recorded timestamps so that staleness, data delay and opportunity times are right
 * in replayed time. Everything that asks "now" asks a Clock, never Date.now().
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  /** Moves time forward; a replayed timestamp earlier than now is ignored, time never runs back. */
  set(ms: number): void {
    if (ms > this.current) this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
