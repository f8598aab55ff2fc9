import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * What shedding reads of the process, as a port: the production probe is the wall clock,
 * `setImmediate` and @fastify/under-pressure's delay sampler; a test passes a manual one and
 * drives overload with exact values instead of by loading the machine.
 */
export interface LoadProbe {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Runs `step` in a later turn of the event loop, after that turn's sockets were read. */
  nextTurn(step: () => void): void;
  /** Mean event-loop delay (ms) over the last sample; undefined before the first one. */
  eventLoopDelayMs(): number | undefined;
}

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over the last sample above which requests are refused; 0 turns all shedding off. */
  maxEventLoopDelayMs: number;
  /** Longest (ms) a keyed request may wait for its turn on the event loop; one that would wait longer is refused. */
  turnBudgetMs: number;
  /** How often the delay is sampled (ms): short, so shedding starts before queues build. */
  sampleIntervalMs?: number;
  /** Seconds a shed client is asked to wait. */
  retryAfterSeconds?: number;
  /**
   * Requests never shed: ones that free what a client holds (ending an MCP session), which a
   * refusal would keep alive for longer under the very load it is meant to relieve.
   */
  admitted?: (request: FastifyRequest) => boolean;
  /** Defaults to the process itself (see LoadProbe). */
  probe?: LoadProbe;
}

interface Waiter {
  enqueuedAt: number;
  admit: () => void;
  refuse: (error: ApiError) => void;
}

/** Weight of the newest slot in the running mean of slot lengths. */
const SLOT_SMOOTHING = 0.2;

/**
 * Keyed requests take turns: one is admitted per turn of the event loop, so between any two of
 * them Node reads every socket again and answers what is not queued here (/health, the open
 * documents) at once. A request that would wait longer than the budget for its turn (the queue
 * ahead of it times the running mean of a slot's length) is refused as it arrives; one that
 * waited past the budget anyway (a slot longer than the mean) is refused when its turn comes.
 * The admitted ones therefore wait at most the budget, whatever the offered load.
 */
export class TurnQueue {
  private readonly waiting: Waiter[] = [];
  private head = 0;
  private stepping = false;
  private slotStartedAt: number | null = null;
  private slotMs = 0;

  constructor(
    private readonly probe: LoadProbe,
    private readonly budgetMs: number,
    private readonly overloaded: (why: string) => ApiError,
  ) {}

  get length(): number {
    return this.waiting.length - this.head;
  }

  /** Mean wall time of one slot (an admitted request plus the socket reads of its turn). */
  get meanSlotMs(): number {
    return this.slotMs;
  }

  /** Resolves on the request's turn; rejects with 503 overloaded when it would wait past the budget. */
  take(): Promise<void> {
    const projected = this.length * this.slotMs;
    if (projected > this.budgetMs) {
      return Promise.reject(this.overloaded(`${this.length} requests queued, about ${Math.round(projected)} ms of work ahead`));
    }
    return new Promise((admit, refuse) => {
      this.waiting.push({ enqueuedAt: this.probe.now(), admit, refuse });
      if (!this.stepping) {
        this.stepping = true;
        this.probe.nextTurn(this.step);
      }
    });
  }

  private readonly step = (): void => {
    const now = this.probe.now();
    if (this.slotStartedAt !== null) this.slotMs += SLOT_SMOOTHING * (now - this.slotStartedAt - this.slotMs);
    // Requests that outwaited the budget are refused together: none of them costs a turn.
    let next = this.shift();
    while (next && now - next.enqueuedAt > this.budgetMs) {
      next.refuse(this.overloaded(`waited ${Math.round(now - next.enqueuedAt)} ms for a turn`));
      next = this.shift();
    }
    if (!next) {
      this.stepping = false;
      this.slotStartedAt = null;
      return;
    }
    this.slotStartedAt = now;
    next.admit();
    this.probe.nextTurn(this.step);
  };

  private shift(): Waiter | undefined {
    const w = this.waiting[this.head];
    if (w === undefined) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    return w;
  }
}

/** The process itself: wall clock, setImmediate, and @fastify/under-pressure's delay sampler. */
async function processProbe(app: FastifyInstance, sampleIntervalMs: number): Promise<LoadProbe> {
  // Registered without thresholds, under-pressure only samples (its own hook is not added).
  await app.register(underPressure, { sampleInterval: sampleIntervalMs });
  return {
    now: () => performance.now(),
    nextTurn: (step) => setImmediate(step),
    eventLoopDelayMs: () => {
      // Before its first sample the monitor reports an infinite (or no) delay.
      const delay = app.memoryUsage().eventLoopDelay;
      return Number.isFinite(delay) ? delay : undefined;
    },
  };
}

/**
 * Load shedding, before auth, rate counting or any query work, so a refusal costs next to
 * nothing and what is admitted finishes in bounded time. Two signals:
 *
 * - The queue of keyed requests waiting for their turn (TurnQueue): Node reads every socket
 *   that has a request ready in one turn, so 200 busy connections could otherwise block the
 *   loop for 200 x the cost of a request, and /health behind them.
 * - The sampled event-loop delay: while the process lags for any reason (the pipeline, GC, a
 *   store call), keyed requests are refused.
 *
 * Registered inside the authenticated context only, so /health, the OpenAPI document and the
 * error catalogue are never shed nor queued. Refusals are 503 `overloaded` with Retry-After.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(async (app: FastifyInstance, options) => {
  if (options.maxEventLoopDelayMs <= 0) return;
  const retryAfter = options.retryAfterSeconds ?? 1;
  const overloaded = (why: string): ApiError =>
    new ApiError('overloaded', `The server is overloaded (${why}); retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
  const probe = options.probe ?? (await processProbe(app, options.sampleIntervalMs ?? 100));
  const queue = new TurnQueue(probe, options.turnBudgetMs, overloaded);
  const admitted = options.admitted ?? ((): boolean => false);

  app.addHook('onRequest', async (request) => {
    if (admitted(request)) return;
    const delay = probe.eventLoopDelayMs();
    if (delay !== undefined && delay > options.maxEventLoopDelayMs) throw overloaded(`event-loop delay ${Math.round(delay)} ms`);
    await queue.take();
  });
});
