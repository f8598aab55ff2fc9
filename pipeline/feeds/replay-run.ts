import { access } from 'node:fs/promises';
// The generic feed helpers still live in theoddsapi/ (its index would close a cycle through its replay feed).
import { errorMessage } from './feed-runtime.js';

/** What every replay's stats say about how it ended. */
export interface ReplayOutcome {
  stopped: boolean;
  error: string | null;
}

/** Replayed time per real time, or `max`: no waiting. */
export type ReplaySpeed = number | 'max';

export function checkReplaySpeed(speed: ReplaySpeed): void {
  if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0)) {
    throw new RangeError(`replay speed must be a positive number or 'max', got ${String(speed)}`);
  }
}

/** How long to wait before the item recorded at `next`: the recorded gap from `previous` divided by `speed` (0 at `max`, for the first, or backwards). */
export function recordedGapMs(previous: number | null, next: number, speed: ReplaySpeed): number {
  if (previous === null || speed === 'max') return 0;
  return Math.max(0, next - previous) / speed;
}

/**
 * The life of one replay of a recording, the same for every recorded feed: started once (after
 * the file is found), stopped by aborting its signal, and `done` resolving with the stats when it
 * ends: end of file, stop(), or an error written into the stats (it never rejects).
 */
export class ReplayRun<S extends ReplayOutcome> {
  readonly done: Promise<S>;
  private readonly abort = new AbortController();
  private resolveDone: (stats: S) => void = () => undefined;
  private run: Promise<void> | null = null;

  /** `outcome` is the live stats the run writes; `snapshot` the copy `done` resolves with. */
  constructor(
    private readonly feedName: string,
    private readonly outcome: ReplayOutcome,
    private readonly snapshot: () => S,
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  async start(file: string, replay: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.run !== null) throw new Error(`${this.feedName} already started`);
    await access(file);
    this.run = replay(this.abort.signal).then(
      () => this.resolveDone(this.snapshot()),
      (err: unknown) => {
        this.outcome.error = errorMessage(err);
        this.resolveDone(this.snapshot());
      },
    );
  }

  async stop(): Promise<void> {
    if (!this.abort.signal.aborted) {
      this.abort.abort();
      if (this.run === null) {
        this.outcome.stopped = true;
        this.resolveDone(this.snapshot());
      }
    }
    await this.run;
  }
}
