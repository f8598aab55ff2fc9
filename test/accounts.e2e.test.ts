/**
 * Accounts and keys end to end: the key lifecycle (create, use, list, rotate with a grace
 * period, revoke) on two API instances sharing one runtime, per-tier key caps, usage counted
 * per endpoint, everything surviving a restart, and no secret ever in the logs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecorder, startAccounts } from '../api/accounts/index.js';
import type { AccountsReplica } from '../api/accounts/index.js';
import { buildApp } from '../api/app.js';
import { loadConfig } from '../runtime/config.js';
import { MemoryRateLimitStore } from '../api/plugins/rate-limit.js';
import { startSystem } from '../runtime/system.js';
import type { RunningSystem } from '../runtime/system.js';
import { Catalog } from '../api/views/catalog.js';
import { ScriptedFeed } from './support/scripted-feed.js';

type Row = Record<string, unknown>;
interface Answer {
  status: number;
  headers: Headers;
  body: Row;
}

const HOUR = 3_600_000;
const dataDir = mkdtempSync(join(tmpdir(), 'odds-accounts-'));
let logs = '';
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk: Buffer, _e, done) {
      logs += chunk.toString();
      done();
    },
  }),
);
/** The wall clock of keys and usage; the tests move it. */
let wall = Date.UTC(2026, 4, 13, 15, 30, 0);
const now = (): number => wall;
const secrets: string[] = [];

let sys: RunningSystem;
let second: { app: FastifyInstance; url: string; replica: AccountsReplica; usage: UsageRecorder };

async function start(): Promise<RunningSystem> {
  // PIPELINE_THREAD from the environment, as startTestSystem passes it: this suite starts the system itself.
  const thread = process.env['PIPELINE_THREAD'];
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    USAGE_FLUSH_MS: '600000',
    SHED_EVENT_LOOP_DELAY_MS: '0',
    ...(thread ? { PIPELINE_THREAD: thread } : {}),
  });
  return startSystem(config, logger, { feed: () => new ScriptedFeed(), now });
}

/** A second API instance on the same bus and store, as another replica would be. */
async function startSecond(s: RunningSystem): Promise<typeof second> {
  const replica = await startAccounts({ bus: s.bus, store: s.store, now, replicaId: 'second', logger });
  const usage = new UsageRecorder({ store: s.store, logger, now, flushMs: 600_000 });
  const app = await buildApp(
    {
      board: s.board,
      catalog: new Catalog(),
      keys: replica.keys,
      accounts: replica.accounts,
      usage,
      now,
      rateLimits: new MemoryRateLimitStore(),
      clock: s.clock,
      store: s.store,
      version: 'test',
      redisUrl: null,
    },
    logger,
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, replica, usage };
}

async function call(base: string, method: string, path: string, key?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Row) : {} };
}
const api = (method: string, path: string, key?: string, body?: unknown): Promise<Answer> => call(sys.url, method, path, key, body);
const data = (a: Answer): Row => a.body['data'] as Row;

async function createKey(key: string, name?: string): Promise<{ id: string; secret: string }> {
  wall += 1000;
  const r = await api('POST', '/account/keys', key, name === undefined ? {} : { name });
  expect(r.status).toBe(201);
  const secret = data(r)['key'] as string;
  secrets.push(secret);
  return { id: data(r)['id'] as string, secret };
}

beforeAll(async () => {
  sys = await start();
  second = await startSecond(sys);
  secrets.push(...Object.values(sys.demoKeys));
});
async function stopSecond(): Promise<void> {
  await second.app.close();
  await second.usage.stop();
  await second.replica.stop();
}

afterAll(async () => {
  await stopSecond();
  await sys.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /account', () => {
  it('describes the key in use: tier, limits, features as booleans and as a list, streaming, data delay', async () => {
    const r = await api('GET', '/account', sys.demoKeys.free);
    expect(r.status).toBe(200);
    const d = data(r);
    expect(d['tier']).toBe('free');
    expect(d['rate_limit']).toEqual({ requests_per_minute: 12, max_books: 2 });
    expect(d['limits']).toEqual({
      requests_per_minute: 12,
      max_streams: 1,
      odds_delay_seconds: 60,
      max_books: 2,
      batch_events: 5,
      max_keys: 1,
    });
    expect(d['streaming']).toEqual({ enabled: true, max_connections: 1 });
    expect(d['data_delay_seconds']).toBe(60);
    expect(d['features']).toEqual(['odds', 'schedule', 'splits', 'streaming', 'futures']);
    expect(d['feature_list']).toEqual(d['features']);
    const sharp = data(await api('GET', '/account', sys.demoKeys.sharp));
    expect(sharp['rate_limit']).toEqual({ requests_per_minute: 1000, max_books: 999 });
    expect(sharp['features']).toEqual([
      'odds',
      'schedule',
      'splits',
      'ev',
      'arbitrage',
      'middles',
      'low_hold',
      'deep_links',
      'streaming',
      'futures',
      'closing_line',
      'history',
    ]);
    expect((sharp['key'] as Row)['id']).toBe(sharp['key_id']);
    expect(JSON.stringify(sharp)).not.toContain(sys.demoKeys.sharp);
  });
});

describe('the key lifecycle', () => {
  it('creates a key whose secret is shown once, works at once, and is listed masked', async () => {
    const owner = sys.demoKeys.sharp;
    const { id, secret } = await createKey(owner, 'trading bot');
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect((await api('GET', '/sports', secret)).status).toBe(200);
    const list = await api('GET', '/account/keys', owner);
    const keys = list.body['data'] as Row[];
    expect(keys.map((k) => k['name'])).toEqual(['demo', 'trading bot']);
    const mine = keys.find((k) => k['id'] === id) as Row;
    expect(mine['id_masked']).toBe(`sk_live_...${secret.slice(-4)}`);
    expect(mine).toMatchObject({ tier: 'sharp', is_active: true, status: 'active', is_current: false, expires_at: null });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body['meta']).toEqual({ count: 2, total: 2, active: 2, max_keys: 2 });
  });

  it('caps active keys per tier: 1 on pro, 2 on sharp', async () => {
    const pro = await api('POST', '/account/keys', sys.demoKeys.pro, { name: 'second' });
    expect(pro.status).toBe(403);
    expect(pro.body['error']).toMatchObject({ code: 'feature_required' });
    expect((pro.body['error'] as Row)['message']).toContain('pro tier allows 1 active key');
    expect((await api('POST', '/account/keys', sys.demoKeys.pro)).status).toBe(403);
    const sharp = await api('POST', '/account/keys', sys.demoKeys.sharp, {});
    expect(sharp.status).toBe(403);
  });

  it('rotates with a grace period: the old key works until the grace ends, then is refused', async () => {
    const owner = sys.demoKeys.sharp;
    const keys = data(await api('GET', '/account/keys', owner)) as unknown as Row[];
    const old = keys.find((k) => k['name'] === 'trading bot') as Row;
    const oldSecret = secrets[secrets.length - 1] as string;
    wall += 1000;
    const r = await api('POST', `/account/keys/${old['id'] as string}/rotate`, owner, { gracePeriodHours: 2 });
    expect(r.status).toBe(200);
    const d = data(r);
    const fresh = d['new_key'] as Row;
    secrets.push(fresh['key'] as string);
    const expiresAt = new Date(wall + 2 * HOUR).toISOString();
    expect(d['old_key']).toEqual({ id: old['id'], revoked: false, expires_at: expiresAt });
    expect(d).toMatchObject({ new_key_id: fresh['id'], old_key_id: old['id'], old_key_expires_at: expiresAt });
    expect(fresh).toMatchObject({ name: 'trading bot', tier: 'sharp' });
    // A key in its grace period still works, so it counts against the cap until it expires.
    const listed = await api('GET', '/account/keys', owner);
    expect((data(listed) as unknown as Row[]).map((k) => k['status'])).toEqual(['active', 'grace', 'active']);
    expect(listed.body['meta']).toEqual({ count: 3, total: 3, active: 3, max_keys: 2 });

    wall += 2 * HOUR - 1;
    expect((await api('GET', '/sports', oldSecret)).status).toBe(200);
    expect((await call(second.url, 'GET', '/sports', oldSecret)).status).toBe(200);
    wall += 1;
    expect((await api('GET', '/sports', oldSecret)).status).toBe(401);
    expect((await call(second.url, 'GET', '/sports', oldSecret)).status).toBe(401);
    expect((await api('GET', '/sports', fresh['key'] as string)).status).toBe(200);
  });

  it('rotates at once without a grace period, also the key in use', async () => {
    const { secret } = await createTemporaryEnterpriseKey();
    const me = data(await api('GET', '/account', secret));
    const r = await api('POST', `/account/keys/${me['key_id'] as string}/rotate`, secret);
    expect(r.status).toBe(200);
    expect((data(r)['new_key'] as Row)['name']).toBe('temporary');
    expect((data(r)['old_key'] as Row)['revoked']).toBe(true);
    expect(data(r)['old_key_expires_at']).toBeNull();
    secrets.push((data(r)['new_key'] as Row)['key'] as string);
    expect((await api('GET', '/sports', secret)).status).toBe(401);
    expect((await api('GET', '/sports', (data(r)['new_key'] as Row)['key'] as string)).status).toBe(200);
  });

  it('revokes at once: refused on the very next request, on this instance and on the other', async () => {
    const owner = sys.demoKeys.enterprise;
    const { id, secret } = await createKey(owner, 'to revoke');
    // Creation reaches the other instance within a second.
    const until = Date.now() + 1000;
    while ((await call(second.url, 'GET', '/sports', secret)).status !== 200 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect((await call(second.url, 'GET', '/sports', secret)).status).toBe(200);

    const r = await api('DELETE', `/account/keys/${id}`, owner);
    expect(r.status).toBe(200);
    expect(data(r)).toMatchObject({ id, revoked: true, deleted: true, key_id: id });
    expect((await call(second.url, 'GET', '/sports', secret)).status).toBe(401);
    expect((await api('GET', '/sports', secret)).status).toBe(401);
    const listed = (data(await api('GET', '/account/keys', owner)) as unknown as Row[]).find((k) => k['id'] === id);
    expect(listed).toMatchObject({ is_active: false, status: 'revoked' });
  });

  it('refuses to revoke the key in use (400 validation_error), and answers 404 for unknown or foreign keys', async () => {
    const me = data(await api('GET', '/account', sys.demoKeys.hobby));
    const self = await api('DELETE', `/account/keys/${me['key_id'] as string}`, sys.demoKeys.hobby);
    expect([self.status, (self.body['error'] as Row)['code']]).toEqual([400, 'validation_error']);
    const unknown = await api('DELETE', '/account/keys/key_0000000000000000', sys.demoKeys.hobby);
    expect([unknown.status, (unknown.body['error'] as Row)['code']]).toEqual([404, 'not_found']);
    const foreign = await api('DELETE', `/account/keys/${me['key_id'] as string}`, sys.demoKeys.sharp);
    expect(foreign.status).toBe(404);
    expect((await api('POST', `/account/keys/${me['key_id'] as string}/rotate`, sys.demoKeys.sharp, {})).status).toBe(404);
    expect((await api('GET', '/sports', sys.demoKeys.hobby)).status).toBe(200);
  });

  it('validates the rotate body: gracePeriodHours is an integer from 0 to 72', async () => {
    const me = data(await api('GET', '/account', sys.demoKeys.hobby));
    for (const body of [{ gracePeriodHours: 73 }, { gracePeriodHours: -1 }, { gracePeriodHours: 1.5 }, { grace: 1 }]) {
      const r = await api('POST', `/account/keys/${me['key_id'] as string}/rotate`, sys.demoKeys.hobby, body);
      expect([JSON.stringify(body), r.status, (r.body['error'] as Row)['code']]).toEqual([JSON.stringify(body), 400, 'invalid_request']);
    }
  });
});

/** An enterprise key in its own account, made the operator's way. */
async function createTemporaryEnterpriseKey(): Promise<{ secret: string }> {
  const account = await sys.accounts.createAccount('temporary');
  const { secret } = await sys.accounts.createKey(account.id, { tier: 'enterprise', name: 'temporary' });
  secrets.push(secret);
  return { secret };
}

describe('usage', () => {
  it('counts every request of the account per endpoint, today, this week and this month', async () => {
    const { secret } = await createTemporaryEnterpriseKey();
    for (let i = 0; i < 3; i++) await api('GET', '/sports', secret);
    for (let i = 0; i < 2; i++) await api('GET', '/leagues', secret);
    expect((await api('GET', '/events/no-such-event', secret)).status).toBe(404);
    const r = await api('GET', '/account/usage', secret);
    expect(r.status).toBe(200);
    const requests = data(r)['requests'] as Row;
    expect(requests).toMatchObject({ today: 6, this_week: 6, this_month: 6 });
    expect(requests['by_endpoint']).toEqual([
      { endpoint: 'GET /api/v1/sports', today: 3, this_week: 3, this_month: 3 },
      { endpoint: 'GET /api/v1/leagues', today: 2, this_week: 2, this_month: 2 },
      { endpoint: 'GET /api/v1/events/:eventId', today: 1, this_week: 1, this_month: 1 },
    ]);
    expect(requests['limit']).toMatchObject({ per_minute: 10_000, remaining: Number(r.headers.get('x-ratelimit-remaining')) });
    expect(data(r)['streams']).toEqual({ active: 0, max: 50 });
    expect(data(r)['period']).toEqual({ start: '2026-05-01T00:00:00.000Z', end: '2026-06-01T00:00:00.000Z' });
    // The usage request itself counts from the next one on.
    expect((data(await api('GET', '/account/usage', secret))['requests'] as Row)['today']).toBe(7);
  });
});

describe('a restart', () => {
  it('keeps every key, revocation and usage count', async () => {
    const { secret } = await createTemporaryEnterpriseKey();
    for (let i = 0; i < 4; i++) await api('GET', '/markets', secret);
    const revoked = secrets.find((s) => s.startsWith('sk_live_')) as string;
    expect((await api('GET', '/sports', revoked)).status).toBe(401);

    await stopSecond();
    await sys.stop();
    wall += 60_000;
    sys = await start();
    second = await startSecond(sys);

    expect((await api('GET', '/sports', secret)).status).toBe(200);
    expect((await call(second.url, 'GET', '/sports', secret)).status).toBe(200);
    expect((await api('GET', '/sports', revoked)).status).toBe(401);
    // The other replica's counts arrive with its next flush.
    await second.usage.flush();
    const usage = data(await api('GET', '/account/usage', secret))['requests'] as Row;
    expect(usage['by_endpoint']).toEqual([
      { endpoint: 'GET /api/v1/markets', today: 4, this_week: 4, this_month: 4 },
      { endpoint: 'GET /api/v1/sports', today: 2, this_week: 2, this_month: 2 },
    ]);
    // The demo keys are the same keys, not new ones.
    const keys = data(await api('GET', '/account/keys', sys.demoKeys.sharp)) as unknown as Row[];
    expect(keys.map((k) => k['status'])).toEqual(['active', 'expired', 'active']);
  });
});

describe('logs', () => {
  it('never contain a secret', () => {
    expect(logs.length).toBeGreaterThan(0);
    for (const s of secrets) expect(logs.includes(s), `secret ...${s.slice(-4)} in the logs`).toBe(false);
  });
});
