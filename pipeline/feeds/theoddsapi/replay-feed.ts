import type { RawTick } from '../../../schemas/index.js';
import type { ManualClock } from '../../clock.js';
import type { Feed } from '../feed.js';
import { ReplayRun, checkReplaySpeed, recordedGapMs } from '../replay-run.js';
import type { ReplaySpeed } from '../replay-run.js';
import type { PriceFormat } from './mapping.js';
import { parseRecordingLine } from './recording.js';
import { readLines } from '../read-lines.js';
import { RepeatedWarning, consoleLogger, errorMessage, realSleep } from '../feed-runtime.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';
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
  speed: ReplaySpeed;
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
  private readonly run: ReplayRun<ReplayStats>;
  private diffState: DiffState = EMPTY_STATE;
  private readonly events = new Set<string>();
  private current: ReplayStats;

  constructor(private readonly options: ReplayFeedOptions) {
    checkReplaySpeed(options.speed);
    this.logger = options.logger ?? consoleLogger;
    this.sleep = options.sleep ?? realSleep;
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
    this.run = new ReplayRun('ReplayFeed', this.current, () => this.stats);
    this.done = this.run.done;
  }

  /** The counters so far (a copy). */
  get stats(): ReplayStats {
    return { ...this.current, mapping: mergeStats(emptyStats(), this.current.mapping) };
  }

  async start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    await this.run.start(this.options.file, (signal) => this.replay(emit, signal));
  }

  async stop(): Promise<void> {
    await this.run.stop();
  }

  private async replay(emit: (ticks: RawTick[]) => Promise<void>, signal: AbortSignal): Promise<void> {
    const { file, speed, clock } = this.options;
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
        const wait = recordedGapMs(previousTimestamp, snapshot.timestamp, speed);
        if (wait > 0) {
          await this.sleep(wait, signal);
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
