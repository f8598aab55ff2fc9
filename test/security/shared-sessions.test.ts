/**
 * Browser sessions across API replicas with REDIS_URL set (a real redis-server on a free port;
 * the suite skips, saying why, when the binary is absent). A cookie signed in on one replica
 * works on another without balancer stickiness, a replica started later knows it too, and a
 * sign-out on one replica ends the streams the cookie opened on the others within a second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { KeyStore } from '../../api/accounts/index.js';
import { MemoryRateLimitStore } from '../../api/plugins/index.js';
import { LiveBoard } from '../../api/views/board.js';
import { Catalog } from '../../api/views/catalog.js';
import { ManualClock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { redisServerBinary, startRedisServer } from '../support/redis-server.js';
import type { RedisServer } from '../support/redis-server.js';
import { eventually } from '../support/replicas.js';
import { SseClient } from '../support/stream-clients.js';

const binary = redisServerBinary();
if ('missing' in binary) process.stdout.write(`shared sessions suite skipped: ${binary.missing}\n`);

const store = { kind: 'chdb', query: async () => [], exec: async () => undefined, close: async () => undefined } as unknown as OlapStore;

describe.skipIf('missing' in binary)('browser sessions shared through Redis', () => {
  let redis: RedisServer;
  const apps: FastifyInstance[] = [];
  const keys = new KeyStore();
  const key = 'pro-shared-session-key-1';
  keys.add(key, 'pro');

  async function replica(): Promise<string> {
    const app = await buildApp({
      board: new LiveBoard(),
      catalog: new Catalog(),
      keys,
      rateLimits: new MemoryRateLimitStore(),
      clock: new ManualClock(Date.now()),
      store,
      version: 'test',
      redisUrl: redis.url,
      stream: { heartbeatMs: 60_000 },
    });
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  async function signIn(base: string): Promise<string> {
    const res = await fetch(`${base}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ api_key: key }),
    });
    expect(res.status).toBe(200);
    return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  }

  const sessionStatus = async (base: string, cookie: string): Promise<number> =>
    (await fetch(`${base}/api/v1/session`, { headers: { cookie } })).status;

  beforeAll(async () => {
    if ('missing' in binary) return;
    redis = await startRedisServer(binary.path);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await redis?.stop();
  });

  it('accepts a cookie on every replica, one started after the sign-in included', async () => {
    const [a, b] = [await replica(), await replica()];
    const cookie = await signIn(a);
    expect([await sessionStatus(a, cookie), await sessionStatus(b, cookie)]).toEqual([200, 200]);
    const late = await replica();
    expect(await sessionStatus(late, cookie)).toBe(200);
    expect(await sessionStatus(late, 'odds_session=not-a-session')).toBe(401);
  });

  it('ends on every replica at sign-out, the streams the cookie opened elsewhere within a second', async () => {
    const [a, b] = [await replica(), await replica()];
    const cookie = await signIn(a);
    const sse = await SseClient.open(`${b}/api/v1/stream?channel=odds`, { cookie });
    expect(sse.status).toBe(200);
    await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));

    const at = Date.now();
    const out = await fetch(`${a}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin: a } });
    expect(out.status).toBe(200);
    await eventually(() => sse.ended, 'the stream on the other replica to end', 3000);
    expect(Date.now() - at).toBeLessThan(1000);
    expect(sse.frames.at(-1)?.event).toBe('error');
    expect([await sessionStatus(a, cookie), await sessionStatus(b, cookie)]).toEqual([401, 401]);
  });
});
