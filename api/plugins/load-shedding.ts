import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over the last sample above which requests are refused; 0 turns all shedding off. */
  maxEventLoopDelayMs: number;
  /** Work (ms) one turn of the event loop may spend on requests before the rest of that turn's requests are refused. */
  turnBudgetMs: number;
  /** How often the delay is sampled (ms): short, so shedding starts before queues build. */
  sampleIntervalMs?: number;
  /** Seconds a shed client is asked to wait. */
  retryAfterSeconds?: number;
  /**
   * Requests already admitted as part of another one (an MCP tool's in-process call to its
   * route): shedding them would fail a request the server already took on.
   */
  admitted?: (request: FastifyRequest) => boolean;
}

/**
 * Load shedding, before auth, rate counting or any query work, so a refusal costs next to
 * nothing and the requests that are admitted finish in bounded time. Two signals:
 *
 * - The work of the current event-loop turn (queue depth, in time): Node serves every socket
 *   that has a request ready in one turn, so 200 busy connections can block the loop for
 *   200 x the cost of a request. Once a turn has spent `turnBudgetMs` on requests, the rest of
 *   the turn's requests are refused. This reacts at once and bounds every turn.
 * - The event-loop delay sampled by @fastify/under-pressure: while the process lags for any
 *   reason (the pipeline, GC, a store call), keyed requests are refused.
 *
 * Registered inside the authenticated context only, so /health, the OpenAPI document and the
 * error catalogue are never shed. Refusals are 503 `overloaded` with Retry-After.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(async (app: FastifyInstance, options) => {
  if (options.maxEventLoopDelayMs <= 0) return;
  const retryAfter = options.retryAfterSeconds ?? 1;
  const overloaded = (why: string): ApiError =>
    new ApiError('overloaded', `The server is overloaded (${why}); retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });

  const budget = options.turnBudgetMs;
  let turnStartedAt = 0;
  let inTurn = false;
  const endTurn = (): void => {
    inTurn = false;
  };
  const admitted = options.admitted ?? ((): boolean => false);
  app.addHook('onRequest', async (request) => {
    if (admitted(request)) return;
    const now = performance.now();
    if (!inTurn) {
      // The first request of a turn is always served: shedding never starves the server.
      inTurn = true;
      turnStartedAt = now;
      setImmediate(endTurn);
      return;
    }
    if (now - turnStartedAt > budget) throw overloaded(`this event-loop turn spent ${Math.round(now - turnStartedAt)} ms on requests`);
  });

  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    sampleInterval: options.sampleIntervalMs ?? 100,
    retryAfter,
    // A rejected promise reaches Fastify's error handler, which writes the envelope.
    pressureHandler: async (request, _reply, type, value) => {
      // Before its first sample the monitor reports an infinite delay: a server that just
      // started is not overloaded, so that reading admits.
      if (admitted(request) || value === undefined || !Number.isFinite(value)) return;
      throw overloaded(`${type} ${Math.round(value)}`);
    },
  });
});
