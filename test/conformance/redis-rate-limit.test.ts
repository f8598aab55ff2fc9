/**
 * SPEC "Limits" with REDIS_URL set: API replicas share the per-minute counters through a real
 * redis-server (Debian package `redis-server`, started here on a free port; the suite skips,
 * saying why, when the binary is absent). Without Redis the replicas keep serving on local
 * counters and health says so.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { KeyStore } from '../../api/accounts/index.js';
import { RedisRateLimitStore } from '../../api/plugins/redis-rate-limit.js';
import { LiveBoard } from '../../api/views/board.js';
import { Catalog } from '../../api/views/catalog.js';
import { ManualClock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { redisServerBinary, startRedisServer } from '../support/redis-server.js';
import type { RedisServer } from '../support/redis-server.js';

const binary = redisServerBinary();
if ('missing' in binary) process.stdout.write(`redis rate-limit suite skipped: ${binary.missing}\n`);

const store = { kind: 'chdb', query: async () => [], exec: async () => undefined, close: async () => undefined } as unknown as OlapStore;

describe.skipIf('missing' in binary)('rate limits shared through Redis', () => {
  let redis: RedisServer;
  const replicas: { app: FastifyInstance; url: string; limits: RedisRateLimitStore }[] = [];
  const keys = new KeyStore();
  const key = 'free-redis-test-key-1';
  keys.add(key, 'free');

  beforeAll(async () => {
    if ('missing' in binary) return;
    redis = await startRedisServer(binary.path);
    const prefix = `test-${Date.now()}:`;
    for (let i = 0; i < 2; i++) {
      const limits = new RedisRateLimitStore({ url: redis.url, logger: pino({ level: 'silent' }), prefix });
      expect(await limits.ready(5000)).toBe(true);
      const app = await buildApp({
        board: new LiveBoard(),
        catalog: new Catalog(),
        keys,
        rateLimits: limits,
        clock: new ManualClock(Date.now()),
        store,
        version: 'test',
        redisUrl: redis.url,
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      replicas.push({ app, url, limits });
    }
  });
  afterAll(async () => {
    for (const r of replicas) {
      await r.app.close();
      await r.limits.close();
    }
    await redis?.stop();
  });

  const get = async (replica: number, path: string): Promise<Response> =>
    fetch(`${replicas[replica]?.url}${path}`, { headers: { 'x-api-key': key } });

  it('counts one key across two replicas against one limit', async () => {
    for (let i = 1; i <= 12; i++) {
      const r = await get(i % 2, '/api/v1/sports');
      expect([i, r.status, r.headers.get('x-ratelimit-remaining')]).toEqual([i, 200, String(12 - i)]);
    }
    for (const replica of [0, 1]) {
      const over = await get(replica, '/api/v1/sports');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await over.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    }
  });

  it('slides the window in Redis: refused until the oldest request is 60 s old, exactly', async () => {
    const T = Date.UTC(2026, 10, 22, 12, 0, 59, 500);
    const limits = replicas[0]?.limits as RedisRateLimitStore;
    for (let i = 0; i < 12; i++) expect((await limits.hit('edge', 12, T + i)).allowed).toBe(true);
    // Across the minute boundary, 709 ms later: the fixed window's 24 in under a second is gone.
    for (let i = 0; i < 12; i++) expect((await limits.hit('edge', 12, T + 709 + i)).allowed).toBe(false);
    expect(await limits.hit('edge', 12, T + 59_999)).toEqual({
      allowed: false,
      remaining: 0,
      resetAt: Math.ceil((T + 60_000) / 1000),
      retryAfter: 1,
    });
    expect(await limits.hit('edge', 12, T + 60_000)).toEqual({
      allowed: true,
      remaining: 0,
      resetAt: Math.ceil((T + 60_001) / 1000),
      retryAfter: 1,
    });
    expect((await limits.hit('edge', 12, T + 60_000)).allowed).toBe(false);
    expect((await limits.hit('edge', 12, T + 60_001)).allowed).toBe(true);
  });

  it("admits exactly the limit when 60 requests race through both replicas' connections", async () => {
    const now = Date.now();
    const stores = replicas.map((r) => r.limits);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => (stores[i % 2] as RedisRateLimitStore).hit('race', 25, now)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(25);
    expect(
      answers
        .filter((a) => a.allowed)
        .map((a) => a.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('reports Redis in health with its latency', async () => {
    const r = await get(0, '/api/v1/health');
    const body = (await r.json()) as { checks: { redis: { status: string; latency_ms?: number } } };
    expect(body.checks.redis).toMatchObject({ status: 'ok', latency_ms: expect.any(Number) });
  });

  it('keeps serving on local counters when Redis goes away, and health says so', async () => {
    await redis.stop();
    const other = 'hobby-redis-test-key-2';
    keys.add(other, 'hobby');
    const r = await fetch(`${replicas[0]?.url}/api/v1/sports`, { headers: { 'x-api-key': other } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('119');
    const health = (await (await fetch(`${replicas[0]?.url}/api/v1/health`)).json()) as {
      status: string;
      checks: { redis: { status: string } };
    };
    expect(health.checks.redis.status).toBe('degraded');
  });
});
