import type { DeadLetter, RawGameState, RawTick } from '../../../schemas/index.js';
import type { ManualClock } from '../../clock.js';
import type { DeadLetterSource, Feed, GameStateSource } from '../feed.js';
import { ReplayRun, checkReplaySpeed, recordedGapMs } from '../replay-run.js';
import type { ReplaySpeed } from '../replay-run.js';
import { RepeatedWarning, consoleLogger, errorMessage, realSleep } from '../feed-runtime.js';
import { readLines } from '../read-lines.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';
import type { Catalogue } from './catalogue.js';
import { streamDeadLetter } from './dead-letters.js';
import { StreamDecoder } from './decoder.js';
import { CricketScoreMapper } from './scores.js';
import { ExchangeTickMapper, countSkip, ticksOfChange } from './ticks.js';

export interface BetfairReplayStats {
  file: string;
  /** Lines read (blank ones aside). */
  messages: number;
  /** Whole changes applied. */
  changes: number;
  conflatedChanges: number;
  ticks: number;
  /** Lines sent to the dead-letter topic (of both recordings). */
  deadLetters: number;
  /** Score messages read from the score recording, and the game-state reports they gave. */
  scoreMessages: number;
  gameStates: number;
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
  /**
   * The same match's score stream (`ccm` messages), replayed in step with the odds by publish
   * time as game-state reports; null or unset: odds only.
   */
  scoresFile?: string | null;
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
export class BetfairReplayFeed implements Feed, DeadLetterSource, GameStateSource {
  readonly name = 'betfair-replay';
  readonly done: Promise<BetfairReplayStats>;

  private readonly logger: FeedLogger;
  private readonly sleep: Sleep;
  private readonly decoder = new StreamDecoder();
  private readonly mapper: ExchangeTickMapper;
  private emitDeadLetters: (letters: DeadLetter[]) => Promise<void> = () => Promise.resolve();
  private emitGameStates: (states: RawGameState[]) => Promise<void> = () => Promise.resolve();
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
      scoreMessages: 0,
      gameStates: 0,
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

  onGameState(emit: (states: RawGameState[]) => Promise<void>): void {
    this.emitGameStates = emit;
  }

  private async sendDeadLetter(letter: DeadLetter): Promise<void> {
    await this.emitDeadLetters([letter]).catch((err: unknown) =>
      this.logger.warn({ error: errorMessage(err) }, 'betfair replay: dead letter not sent'),
    );
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
    this.logger.info({ file, scoresFile: this.options.scoresFile ?? null, speed, markets: catalogue.size }, 'betfair replay started');
    const scores = this.options.scoresFile
      ? new ScoreTimeline(this.options.scoresFile, new CricketScoreMapper(this.options.book, lookup))
      : null;
    // One timeline for both recordings: a wait is the recorded gap from whichever message came last.
    let pacedAt: number | null = null;
    const pace = async (at: number): Promise<boolean> => {
      const wait = recordedGapMs(pacedAt, at, speed);
      if (wait > 0) await this.sleep(wait, signal);
      pacedAt = Math.max(pacedAt ?? at, at);
      return !signal.aborted;
    };
    /** Every score message published up to `until` (all that are left when null), each at its own time. */
    const scoresUpTo = async (until: number | null): Promise<boolean> => {
      if (scores === null) return true;
      for (let next = await scores.peek(); next !== null && (until === null || next.publishTime <= until); next = await scores.peek()) {
        scores.take();
        stats.scoreMessages += 1;
        if (next.kind === 'invalid') {
          stats.deadLetters += 1;
          unreadable.note({ file: scores.file, line: next.line, reason: next.reason });
          await this.sendDeadLetter(streamDeadLetter(next.line, next.marketId, next.reason, next.text, clock.now()));
          continue;
        }
        if (!(await pace(next.publishTime))) return false;
        if (next.states.length === 0) continue;
        clock.set(next.publishTime);
        // Game state rides beside the prices: a report the bus refused is a warning, not the end of the replay.
        await this.emitGameStates(next.states).then(
          () => void (stats.gameStates += next.states.length),
          (err: unknown) => this.logger.warn({ error: errorMessage(err) }, 'betfair replay: game state not sent'),
        );
      }
      return true;
    };
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
          await this.sendDeadLetter(streamDeadLetter(lineNumber, decoded.marketId, decoded.reason, line, clock.now()));
          continue;
        }
        if (decoded.kind !== 'changes') continue;
        const publishTime = decoded.publishTime;
        if (!(await scoresUpTo(publishTime)) || !(await pace(publishTime))) break;
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
      if (!signal.aborted) await scoresUpTo(null);
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
        gameStates: stats.gameStates,
        skipped: stats.skipped,
      },
      stats.completed ? 'betfair replay completed' : 'betfair replay stopped',
    );
  }
}

/** A score message waiting its turn, with where it came from (for a dead letter). */
type PendingScore =
  | { kind: 'scores'; publishTime: number; states: RawGameState[] }
  | { kind: 'invalid'; publishTime: number; reason: string; marketId: string | null; line: number; text: string };

/**
 * The score recording read one message ahead, so that the replay can hand out every message
 * published before the next odds change. An unreadable line is due at once (it has no time).
 */
class ScoreTimeline {
  private readonly lines: AsyncGenerator<string>;
  private pending: PendingScore | null = null;
  private lineNumber = 0;
  private ended = false;
  private lastTime = Number.NEGATIVE_INFINITY;

  constructor(
    readonly file: string,
    private readonly mapper: CricketScoreMapper,
  ) {
    this.lines = readLines(file);
  }

  async peek(): Promise<PendingScore | null> {
    while (this.pending === null && !this.ended) {
      const next = await this.lines.next();
      if (next.done === true) {
        this.ended = true;
        break;
      }
      this.lineNumber += 1;
      const text = next.value;
      if (text.trim() === '') continue;
      const m = this.mapper.receive(text);
      if (m.kind === 'other') continue;
      this.pending =
        m.kind === 'invalid'
          ? { kind: 'invalid', publishTime: this.lastTime, reason: m.reason, marketId: m.marketId, line: this.lineNumber, text }
          : m;
      if (m.kind === 'scores') this.lastTime = m.publishTime;
    }
    return this.pending;
  }

  take(): void {
    this.pending = null;
  }
}
