import type { TierName } from '../../schemas/index.js';
import type { Clock } from '../../pipeline/clock.js';
import { TIERS } from '../../schemas/index.js';
import type { LiveBoard } from './board.js';
import type { ChangeLogOptions } from './change-log.js';
import { DelayedBoard } from './delayed-board.js';

/**
 * The board each tier reads: the live board for real-time tiers, one delayed board per distinct
 * data delay in the tier table (today one, 60 s, for free). Delayed boards follow the live one
 * and are brought up to date on every read and by a timer between reads.
 */
export class TierViews {
  private readonly delayed = new Map<number, DelayedBoard>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly live: LiveBoard,
    clock: Clock,
    options: { log?: ChangeLogOptions; syncEveryMs?: number } = {},
  ) {
    for (const limits of Object.values(TIERS)) {
      const delayMs = limits.dataDelaySeconds * 1000;
      if (delayMs === 0 || this.delayed.has(delayMs)) continue;
      const view = new DelayedBoard(delayMs, clock, options.log ? { log: options.log } : {});
      view.follow(live);
      this.delayed.set(delayMs, view);
    }
    const every = options.syncEveryMs ?? 500;
    if (this.delayed.size > 0 && every > 0) {
      this.timer = setInterval(() => this.sync(), every);
      this.timer.unref();
    }
  }

  /** Which board a tier reads, as a name: `live`, or `delayed-<ms>`. Streams keep one sequence per board. */
  feedFor(tier: TierName): string {
    const delayMs = TIERS[tier].dataDelaySeconds * 1000;
    return this.delayed.has(delayMs) ? `delayed-${delayMs}` : 'live';
  }

  /** Every board with its feed name: the live one first, then each delayed one. */
  feeds(): { feed: string; board: LiveBoard }[] {
    return [{ feed: 'live', board: this.live }, ...[...this.delayed].map(([ms, view]) => ({ feed: `delayed-${ms}`, board: view.board }))];
  }

  /** The board a tier reads, current for its delay. */
  boardFor(tier: TierName): LiveBoard {
    const delayMs = TIERS[tier].dataDelaySeconds * 1000;
    return this.delayed.get(delayMs)?.sync() ?? this.live;
  }

  sync(): void {
    for (const view of this.delayed.values()) view.sync();
  }

  /** Changes waiting in delay lines (for health and tests). */
  pending(): number {
    let n = 0;
    for (const view of this.delayed.values()) n += view.pending;
    return n;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
