import type { DeadLetter, RawTick } from '../../../schemas/index.js';
import type { ManualClock } from '../../clock.js';
import type { DeadLetterSource, Feed } from '../feed.js';
import { ReplayRun, checkReplaySpeed, recordedGapMs } from '../replay-run.js';
import type { ReplaySpeed } from '../replay-run.js';
import { RepeatedWarning, consoleLogger, errorMessage, realSleep } from '../feed-runtime.js';
import { readLines } from '../read-lines.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';
import type { Catalogue } from './catalogue.js';
import { streamDeadLetter } from './dead-letters.js';
import { StreamDecoder } from './decoder.js';
import { ExchangeTickMapper, countSkip, ticksOfChange } from './ticks.js';

export interface BetfairReplayStats {
  file: string;
  /** Lines read (blank ones aside). */
  messages: number;
  /** Whole changes applied. */
  changes: number;
  conflatedChanges: number;
  ticks: number;
  /** Lines sent to the dead-letter topic. */
  deadLetters: number;
  /** Markets not mapped to ticks, by reason, one count per change. */
  skipped: Record<string, number>;
  firstPublishTime: number | null;
  lastPublishTime: number | null;
  completed: boolean;
  stopped: boolean;
  error: string | null;
}

export interface BetfairReplayFeedOptions {
  /** A recording of stream messages, `.jsonl` or `.jsonl.gz`, one server message per line. */
  file: string;
  /** Runner and event names of the recorded markets. */
  catalogue: Catalogue;
  /** Our sportsbook id for the exchange. */
  book: string;
  /** The account's commission percent; unset or null: each market's base rate. */
  commissionPercent?: number | null;
  speed: ReplaySpeed;
  /** Set to each change's publish time before its ticks are emitted. */
  clock: ManualClock;
  logger?: FeedLogger;
  sleep?: Sleep;
}

/**
 * Replays a recording of the Exchange Stream through the same decoder and tick mapping as the
 * live connection. A line that cannot be read goes to the dead-letter topic and the replay goes on.
 * `done` resolves when it ends (end of file, stop(), or an error reported in the stats; it never rejects).
 */
export class BetfairReplayFeed implements Feed, DeadLetterSource {
  readonly name = 'betfair-replay';
  readonly done: Promise<BetfairReplayStats>;

  private readonly logger: FeedLogger;
  private readonly sleep: Sleep;
  private readonly decoder = new StreamDecoder();
  private readonly mapper: ExchangeTickMapper;
  private emitDeadLetters: (letters: DeadLetter[]) => Promise<void> = () => Promise.resolve();
  private readonly run: ReplayRun<BetfairReplayStats>;
  private readonly current: BetfairReplayStats;

  constructor(private readonly options: BetfairReplayFeedOptions) {
    checkReplaySpeed(options.speed);
    this.logger = options.logger ?? consoleLogger;
    this.sleep = options.sleep ?? realSleep;
    this.mapper = new ExchangeTickMapper(options.book, { commissionPercent: options.commissionPercent ?? null });
    this.current = {
      file: options.file,
      messages: 0,
      changes: 0,
      conflatedChanges: 0,
      ticks: 0,
      deadLetters: 0,
      skipped: Object.create(null) as Record<string, number>,
      firstPublishTime: null,
      lastPublishTime: null,
      completed: false,
      stopped: false,
      error: null,
    };
    this.run = new ReplayRun('BetfairReplayFeed', this.current, () => this.stats);
    this.done = this.run.done;
  }

  get stats(): BetfairReplayStats {
    return { ...this.current, skipped: Object.assign(Object.create(null) as Record<string, number>, this.current.skipped) };
  }

  onDeadLetter(emit: (letters: DeadLetter[]) => Promise<void>): void {
    this.emitDeadLetters = emit;
  }

  async start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    await this.run.start(this.options.file, (signal) => this.replay(emit, signal));
  }

  async stop(): Promise<void> {
    await this.run.stop();
  }

  private async replay(emit: (ticks: RawTick[]) => Promise<void>, signal: AbortSignal): Promise<void> {
    const { file, speed, clock, catalogue } = this.options;
    const stats = this.current;
    const unreadable = new RepeatedWarning(this.logger, 'betfair replay: unreadable message sent to dead-letter');
    const lookup = (id: string): ReturnType<Catalogue['get']> => catalogue.get(id);
    let lineNumber = 0;
    this.logger.info({ file, speed, markets: catalogue.size }, 'betfair replay started');
    try {
      for await (const line of readLines(file)) {
        lineNumber += 1;
        if (signal.aborted) break;
        if (line.trim() === '') continue;
        stats.messages += 1;
        const decoded = this.decoder.receive(line);
        if (decoded.kind === 'invalid') {
          stats.deadLetters += 1;
          unreadable.note({ file, line: lineNumber, reason: decoded.reason });
          await this.emitDeadLetters([streamDeadLetter(lineNumber, decoded.marketId, decoded.reason, line, clock.now())]).catch(
            (err: unknown) => this.logger.warn({ error: errorMessage(err) }, 'betfair replay: dead letter not sent'),
          );
          continue;
        }
        if (decoded.kind !== 'changes') continue;
        const publishTime = decoded.publishTime;
        const wait = recordedGapMs(stats.lastPublishTime, publishTime, speed);
        if (wait > 0) {
          await this.sleep(wait, signal);
          if (signal.aborted) break;
        }
        clock.set(publishTime);
        stats.changes += 1;
        if (decoded.conflated) stats.conflatedChanges += 1;
        stats.firstPublishTime ??= publishTime;
        stats.lastPublishTime = Math.max(stats.lastPublishTime ?? publishTime, publishTime);
        const { ticks, skipped } = ticksOfChange(this.decoder, this.mapper, lookup, decoded.marketIds, publishTime);
        for (const reason of skipped) countSkip(stats.skipped, reason);
        if (ticks.length > 0) {
          try {
            await emit(ticks);
          } catch (err) {
            stats.error = `emit failed: ${errorMessage(err)}`;
            unreadable.flush();
            this.logger.error({ file, error: stats.error }, 'betfair replay stopped: emit failed');
            return;
          }
          stats.ticks += ticks.length;
        }
      }
    } catch (err) {
      unreadable.flush();
      stats.error = `read failed: ${errorMessage(err)}`;
      this.logger.error({ file, error: stats.error }, 'betfair replay stopped: recording unreadable');
      return;
    }
    unreadable.flush();
    stats.stopped = signal.aborted;
    stats.completed = !signal.aborted;
    this.logger.info(
      {
        file,
        messages: stats.messages,
        changes: stats.changes,
        ticks: stats.ticks,
        deadLetters: stats.deadLetters,
        skipped: stats.skipped,
      },
      stats.completed ? 'betfair replay completed' : 'betfair replay stopped',
    );
  }
}
