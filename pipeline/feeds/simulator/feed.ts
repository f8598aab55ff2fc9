import type { FeedRecord, RawGameState } from '../../../schemas/index.js';
import { type Clock, systemClock } from '../../clock.js';
import type { Feed, GameStateSource } from '../feed.js';
import type { MarketSimulatorOptions } from './options.js';
import { MarketSimulator } from './simulator.js';

export interface SimulatorFeedOptions extends MarketSimulatorOptions {
  /** Market activity per second (lifecycle ticks come on top). Default 200; benchmarks run up to 100k. */
  ticksPerSecond?: number;
  /** Pause between two steps of the simulator. Default 100 ms. */
  intervalMs?: number;
  /** Largest array handed to `emit` at once. Default 2000. */
  maxBatch?: number;
  /** Time between two rounds of betting splits (the first goes out right after the board). Default 5 minutes; 0 turns splits off. */
  splitsIntervalMs?: number;
  /** Time between two rounds of futures boards (the first goes out right after the board). Default 5 minutes; 0 turns futures off. */
  futuresIntervalMs?: number;
  /** Called when `emit` rejects; the feed has stopped by then. Without it the error is thrown uncaught. */
  onError?: (error: unknown) => void;
}

/**
 * The imperative shell around `MarketSimulator`: steps it on a timer at the configured rate and
 * hands the ticks to `emit`, awaiting each batch so that a slow bus slows the feed down rather
 * than piling ticks up in memory. The first emit is the full board.
 */
export class SimulatorFeed implements Feed, GameStateSource {
  readonly name = 'simulator';
  /** The core being driven, for ground truth (`trueEvents`, `inspect`). */
  readonly simulator: MarketSimulator;
  private readonly clock: Clock;
  private readonly ticksPerSecond: number;
  private readonly intervalMs: number;
  private readonly maxBatch: number;
  private readonly splitsIntervalMs: number;
  private nextSplitsAt = Number.POSITIVE_INFINITY;
  private readonly futuresIntervalMs: number;
  private nextFuturesAt = Number.POSITIVE_INFINITY;
  private readonly onError: ((error: unknown) => void) | undefined;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  private lastStep = 0;
  private budget = 0;
  private emitGameState: ((states: RawGameState[]) => Promise<void>) | null = null;

  constructor(options: SimulatorFeedOptions = {}) {
    this.ticksPerSecond = positive('ticksPerSecond', options.ticksPerSecond ?? 200);
    this.intervalMs = positive('intervalMs', options.intervalMs ?? 100);
    this.maxBatch = Math.floor(positive('maxBatch', options.maxBatch ?? 2_000));
    const splitsEvery = options.splitsIntervalMs ?? 300_000;
    if (!Number.isFinite(splitsEvery) || splitsEvery < 0)
      throw new RangeError(`simulator feed option splitsIntervalMs must be >= 0, got ${splitsEvery}`);
    this.splitsIntervalMs = splitsEvery;
    const futuresEvery = options.futuresIntervalMs ?? 300_000;
    if (!Number.isFinite(futuresEvery) || futuresEvery < 0)
      throw new RangeError(`simulator feed option futuresIntervalMs must be >= 0, got ${futuresEvery}`);
    this.futuresIntervalMs = futuresEvery;
    this.onError = options.onError;
    this.clock = options.clock ?? systemClock;
    this.simulator = new MarketSimulator(options);
  }

  onGameState(emit: (states: RawGameState[]) => Promise<void>): void {
    this.emitGameState = emit;
  }

  /** Resolves once the full board has been emitted (rejects if that emit fails); the feed then runs until `stop`. */
  async start(emit: Emit): Promise<void> {
    if (this.running) throw new Error('simulator feed already started');
    this.running = true;
    this.lastStep = this.clock.now();
    this.budget = 0;
    const board = this.send(this.simulator.snapshot(), emit).then(() => this.sendGameStates());
    this.inFlight = board.catch(() => undefined);
    try {
      await board;
    } catch (error) {
      this.running = false;
      throw error;
    }
    if (this.splitsIntervalMs > 0) {
      this.nextSplitsAt = this.lastStep;
      await this.sendSplits(this.lastStep, emit);
    }
    if (this.futuresIntervalMs > 0) {
      this.nextFuturesAt = this.lastStep;
      await this.sendFutures(this.lastStep, emit);
    }
    this.schedule(emit);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.inFlight;
  }

  private schedule(emit: Emit): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.pump(emit);
    }, this.intervalMs);
  }

  private async pump(emit: Emit): Promise<void> {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.lastStep);
    this.lastStep = now;
    // At most a second of backlog: when the bus is slow the feed produces less, it does not queue.
    this.budget = Math.min(this.budget + (this.ticksPerSecond * elapsed) / 1000, this.ticksPerSecond);
    const ticks = this.simulator.step(now, Math.floor(Math.max(0, this.budget)));
    this.budget = Math.max(this.budget - ticks.length, -this.ticksPerSecond);
    try {
      // A final whistle (or postponement) is news before the books pull their lines, so
      // opportunities close with the event; other states follow the odds, since a game state
      // names a listing the normalizer must already know.
      const states = this.simulator.takeGameStates();
      await this.sendStates(states.filter((g) => g.status !== 'live'));
      await this.send(ticks, emit);
      await this.sendStates(states.filter((g) => g.status === 'live'));
      await this.sendSplits(now, emit);
      await this.sendFutures(now, emit);
    } catch (error) {
      this.running = false;
      this.fail(error);
      return;
    }
    this.schedule(emit);
  }

  /** A splits round when one is due, after the ticks of the same step. */
  private async sendSplits(now: number, emit: Emit): Promise<void> {
    if (now < this.nextSplitsAt) return;
    this.nextSplitsAt = now + this.splitsIntervalMs;
    await this.send(this.simulator.splits(now), emit);
  }

  /** A round of futures boards when one is due: results of this step's finals are in it. */
  private async sendFutures(now: number, emit: Emit): Promise<void> {
    if (now < this.nextFuturesAt) return;
    this.nextFuturesAt = now + this.futuresIntervalMs;
    await this.send(this.simulator.futures(now), emit);
  }

  private async send(ticks: FeedRecord[], emit: Emit): Promise<void> {
    if (ticks.length <= this.maxBatch) {
      if (ticks.length > 0) await emit(ticks);
      return;
    }
    for (let i = 0; i < ticks.length && this.running; i += this.maxBatch) {
      await emit(ticks.slice(i, i + this.maxBatch));
    }
  }

  private async sendGameStates(): Promise<void> {
    await this.sendStates(this.simulator.takeGameStates());
  }

  private async sendStates(states: RawGameState[]): Promise<void> {
    if (states.length > 0 && this.emitGameState !== null) await this.emitGameState(states);
  }

  private fail(error: unknown): void {
    if (this.onError !== undefined) {
      this.onError(error);
      return;
    }
    // Never swallowed: without a handler a failing bus takes the process down, visibly.
    queueMicrotask(() => {
      throw error;
    });
  }
}

type Emit = (records: readonly FeedRecord[]) => Promise<void>;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`simulator feed option ${name} must be > 0, got ${value}`);
  return value;
}
