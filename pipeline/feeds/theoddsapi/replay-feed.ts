import { access } from 'node:fs/promises';
import type { RawTick } from '../../../schemas/index.js';
import type { ManualClock } from '../../clock.js';
import type { Feed } from '../feed.js';
import type { PriceFormat } from './mapping.js';
import { parseRecordingLine, readLines } from './recording.js';
import { RepeatedWarning, consoleLogger, errorMessage, realSleep } from './runtime.js';
import type { FeedLogger, Sleep } from './runtime.js';
import { EMPTY_STATE, mapSnapshot } from './snapshot-diff.js';
import type { DiffState } from './snapshot-diff.js';
import { emptyStats, mergeStats } from './stats.js';
import type { MappingStats } from './stats.js';

export interface ReplayProgress {
  snapshots: number;
  ticks: number;
  /** The snapshot just emitted, epoch ms (the clock's time). */
  timestamp: number;
}

export interface ReplayStats {
  file: string;
  /** Snapshots replayed (valid lines). */
  snapshots: number;
  /** Lines that were not a snapshot envelope; skipped. */
  malformedLines: number;
  ticks: number;
  distinctEvents: number;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  mapping: MappingStats;
  /** The whole file was replayed. */
  completed: boolean;
  /** stop() ended the replay early. */
  stopped: boolean;
  /** Why the replay ended early (unreadable file, rejected emit); null otherwise. */
  error: string | null;
}

export interface ReplayFeedOptions {
  /** A recording, `.jsonl` or `.jsonl.gz`. */
  file: string;
  /** Replayed time per real time (60: a recorded hour in a minute), or `max`: no waiting. */
  speed: number | 'max';
  /** Set to each snapshot's timestamp before its ticks are emitted. */
  clock: ManualClock;
  onProgress?: (progress: ReplayProgress) => void;
  logger?: FeedLogger;
  sleep?: Sleep;
  priceFormat?: PriceFormat;
}

/**
 * Replays a recording of The Odds API: each snapshot moves the clock to its timestamp, is
 * diffed against the previous one, and its ticks are emitted (awaited: back-pressure); then the
 * feed waits the recorded gap to the next snapshot divided by `speed`.
 *
 * `start` resolves once the file is found and the replay runs; `done` resolves when it ends
 * (end of file, stop(), or an error, reported in the stats; it never rejects).
 */
export class ReplayFeed implements Feed {
  readonly name = 'theoddsapi-replay';
  readonly done: Promise<ReplayStats>;

  private readonly logger: FeedLogger;
  private readonly sleep: Sleep;
  private readonly abort = new AbortController();
  private resolveDone: (stats: ReplayStats) => void = () => undefined;
  private run: Promise<void> | null = null;
  private diffState: DiffState = EMPTY_STATE;
  private readonly events = new Set<string>();
  private current: ReplayStats;

  constructor(private readonly options: ReplayFeedOptions) {
    const { speed } = options;
    if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0)) {
      throw new RangeError(`replay speed must be a positive number or 'max', got ${String(speed)}`);
    }
    this.logger = options.logger ?? consoleLogger;
    this.sleep = options.sleep ?? realSleep;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.current = {
      file: options.file,
      snapshots: 0,
      malformedLines: 0,
      ticks: 0,
      distinctEvents: 0,
      firstTimestamp: null,
      lastTimestamp: null,
      mapping: emptyStats(),
      completed: false,
      stopped: false,
      error: null,
    };
  }

  /** The counters so far (a copy). */
  get stats(): ReplayStats {
    return { ...this.current, mapping: mergeStats(emptyStats(), this.current.mapping) };
  }

  async start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    if (this.run !== null) throw new Error('ReplayFeed already started');
    await access(this.options.file);
    this.run = this.replay(emit).then(
      () => this.resolveDone(this.stats),
      (err: unknown) => {
        this.current.error = errorMessage(err);
        this.resolveDone(this.stats);
      },
    );
  }

  async stop(): Promise<void> {
    if (!this.abort.signal.aborted) {
      this.abort.abort();
      if (this.run === null) {
        this.current.stopped = true;
        this.resolveDone(this.stats);
      }
    }
    await this.run;
  }

  private async replay(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    const { file, speed, clock } = this.options;
    const signal = this.abort.signal;
    const stats = this.current;
    let previousTimestamp: number | null = null;
    const malformed = new RepeatedWarning(this.logger, 'replay: malformed line skipped');
    this.logger.info({ file, speed }, 'replay started');
    try {
      for await (const line of readLines(file)) {
        if (signal.aborted) break;
        if (line.trim() === '') continue;
        const snapshot = parseRecordingLine(line);
        if (snapshot === null) {
          stats.malformedLines += 1;
          malformed.note({ file, line: stats.snapshots + stats.malformedLines });
          continue;
        }
        if (previousTimestamp !== null && speed !== 'max') {
          const gap = snapshot.timestamp - previousTimestamp;
          if (gap > 0) await this.sleep(gap / speed, signal);
          if (signal.aborted) break;
        }
        previousTimestamp = Math.max(previousTimestamp ?? snapshot.timestamp, snapshot.timestamp);

        clock.set(snapshot.timestamp);
        const result = mapSnapshot(snapshot.data, snapshot.timestamp, this.diffState, {
          priceFormat: this.options.priceFormat ?? 'auto',
        });
        if (result.ticks.length > 0) {
          try {
            await emit(result.ticks);
          } catch (err) {
            stats.error = `emit failed: ${errorMessage(err)}`;
            malformed.flush();
            this.logger.error({ file, error: stats.error }, 'replay stopped: emit failed');
            return;
          }
        }
        this.diffState = result.state;
        for (const id of result.eventIds) this.events.add(id);
        stats.snapshots += 1;
        stats.ticks += result.ticks.length;
        stats.distinctEvents = this.events.size;
        stats.firstTimestamp ??= snapshot.timestamp;
        stats.lastTimestamp = snapshot.timestamp;
        stats.mapping = mergeStats(stats.mapping, result.stats);
        this.progress({ snapshots: stats.snapshots, ticks: stats.ticks, timestamp: snapshot.timestamp });
      }
    } catch (err) {
      malformed.flush();
      stats.error = `read failed: ${errorMessage(err)}`;
      this.logger.error({ file, error: stats.error }, 'replay stopped: recording unreadable');
      return;
    }
    malformed.flush();
    stats.stopped = signal.aborted;
    stats.completed = !signal.aborted;
    this.logger.info(
      { file, snapshots: stats.snapshots, ticks: stats.ticks, malformedLines: stats.malformedLines },
      stats.completed ? 'replay completed' : 'replay stopped',
    );
  }

  private progress(progress: ReplayProgress): void {
    try {
      this.options.onProgress?.(progress);
    } catch (err) {
      this.logger.warn({ error: errorMessage(err) }, 'replay: onProgress threw');
    }
  }
}
