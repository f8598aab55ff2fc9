import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MemoryRateLimitStore, WINDOW_MS, windowOf } from './rate-limit.js';
import type { RateLimitStore } from './rate-limit.js';

/** One round trip: count the request and give the window's key a lifetime on its first use. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

interface HitCommand {
  rateLimitHit(key: string, ttlMs: number): Promise<number>;
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
 * Counters in Redis, shared by every API replica: one key per API key and minute window
 * (`odds:rl:<keyId>:<windowStart>`), incremented by a Lua script that sets its expiry on first
 * use. When Redis is unreachable the store keeps serving from in-process counters (per replica,
 * so the effective limit is looser, never stricter) and health reports it; it never fails or
 * slows a request for want of Redis.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryRateLimitStore();
  private readonly prefix: string;
  private readonly logger: Logger;
  private degradedSince: number | null = null;

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

  async hit(keyId: string, now: number): Promise<{ count: number; resetAt: number }> {
    if (this.redis.status !== 'ready') return this.fallback.hit(keyId, now);
    const { start, resetAt } = windowOf(now);
    try {
      const count = await (this.redis as unknown as HitCommand).rateLimitHit(`${this.prefix}${keyId}:${start}`, WINDOW_MS * 2);
      return { count: Number(count), resetAt };
    } catch (e) {
      this.degrade(e instanceof Error ? e.message : String(e));
      return this.fallback.hit(keyId, now);
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
