import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { randomBytes } from 'node:crypto';
import { MemoryRateLimitStore, WINDOW_MS, decision } from './rate-limit.js';
import type { RateLimitDecision, RateLimitStore } from './rate-limit.js';

/**
 * One atomic round trip per request over a sorted set of the key's admitted request times:
 * forget those out of the window, admit when fewer than the limit remain, and answer the count
 * and the oldest time. Redis runs a script alone, so replicas racing on one key stay exact.
 * ARGV: now (ms), window (ms), limit, a member unique to this request.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {allowed, count, oldest or tostring(now)}`;

interface HitCommand {
  rateLimitHit(key: string, now: number, windowMs: number, limit: number, member: string): Promise<[number, number, string]>;
}

export interface RedisRateLimitOptions {
  url: string;
  logger: Logger;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
  /** A command slower than this counts as failed (the request then uses the local counter). */
  commandTimeoutMs?: number;
}

/**
 * The sliding window in Redis, shared by every API replica: one sorted set per API key
 * (`odds:rl:<account id>`, or `odds:rl:address:<ip>` keyless) of admitted request times, kept by a Lua script. Times are the replicas'
 * clocks, so replicas should keep them in sync (NTP); the count itself is exact. When Redis is unreachable the store keeps serving from in-process counters (per replica,
 * so the effective limit is looser, never stricter) and health reports it; it never fails or
 * slows a request for want of Redis.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryRateLimitStore();
  private readonly prefix: string;
  private readonly logger: Logger;
  private degradedSince: number | null = null;
  /** Members must be unique per request, across replicas: a random prefix and a counter. */
  private readonly memberPrefix = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(options: RedisRateLimitOptions) {
    this.prefix = options.prefix ?? 'odds:rl:';
    this.logger = options.logger;
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 250,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.on('error', (err: Error) => this.degrade(err.message));
    this.redis.on('ready', () => {
      if (this.degradedSince !== null) this.logger.info('rate-limit counters back in Redis');
      this.degradedSince = null;
    });
  }

  /** Resolves once connected, or after `timeoutMs` (the store then starts on local counters). */
  async ready(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.once('ready', onReady);
    });
  }

  async hit(keyId: string, limit: number, now: number): Promise<RateLimitDecision> {
    if (this.redis.status !== 'ready') return this.fallback.hitNow(keyId, limit, now);
    try {
      const member = `${now}:${this.memberPrefix}:${++this.sequence}`;
      const [allowed, count, oldest] = await (this.redis as unknown as HitCommand).rateLimitHit(
        `${this.prefix}${keyId}`,
        now,
        WINDOW_MS,
        limit,
        member,
      );
      return decision(Number(allowed) === 1, limit, Number(count), Number(oldest), now);
    } catch (e) {
      this.degrade(e instanceof Error ? e.message : String(e));
      return this.fallback.hitNow(keyId, limit, now);
    }
  }

  async check(): Promise<{ ok: boolean; latencyMs?: number; message: string }> {
    if (this.redis.status !== 'ready') return { ok: false, message: `Redis ${this.redis.status}: counting in process meanwhile` };
    const t0 = Date.now();
    try {
      await this.redis.ping();
      return { ok: true, latencyMs: Date.now() - t0, message: 'rate-limit counters in Redis' };
    } catch (e) {
      return { ok: false, message: `Redis ping failed (${e instanceof Error ? e.message : String(e)}): counting in process meanwhile` };
    }
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private degrade(reason: string): void {
    if (this.degradedSince !== null) return;
    this.degradedSince = Date.now();
    this.logger.warn({ reason }, 'Redis unavailable: rate-limit counters fall back to this process');
  }
}
