import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over the last sample above which requests are refused; 0 = off. */
  maxEventLoopDelayMs: number;
  /** How often the delay is sampled (ms): short, so shedding starts before queues build. */
  sampleIntervalMs?: number;
  /** Seconds a shed client is asked to wait. */
  retryAfterSeconds?: number;
}

/**
 * Load shedding: while the event loop lags, requests are refused at once with 503 overloaded
 * and Retry-After, before auth, rate counting or any query work, so the requests that are
 * admitted still finish in bounded time. Registered inside the authenticated context only, so
 * /health, the OpenAPI document and the error catalogue are never shed.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(async (app: FastifyInstance, options) => {
  if (options.maxEventLoopDelayMs <= 0) return;
  const retryAfter = options.retryAfterSeconds ?? 2;
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    sampleInterval: options.sampleIntervalMs ?? 100,
    retryAfter,
    // A rejected promise reaches Fastify's error handler, which writes the envelope.
    pressureHandler: async (_request, _reply, type, value) => {
      throw new ApiError('overloaded', `The server is overloaded (${type} ${Math.round(value ?? 0)}); retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
    },
  });
});
