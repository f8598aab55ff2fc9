import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Accounts, KeyStore, UsageRecorder } from '../accounts/index.js';
import { buildApp } from '../app.js';
import { MemoryRateLimitStore } from '../plugins/rate-limit.js';
import { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';
import { ManualClock } from '../../pipeline/clock.js';
import { StoreError } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';

describe('the account routes when the store does not answer', () => {
  it('answer 503 unavailable, not a 500, and change nothing in the key view', async () => {
    const down = async (): Promise<never> => {
      throw new StoreError('connect ECONNREFUSED', true);
    };
    const store = { kind: 'clickhouse', exec: down, insert: down, query: down, close: async () => {} } as unknown as OlapStore;
    const keys = new KeyStore();
    keys.add('sk_live_owner_key_1234567890', 'sharp');
    const usage = new UsageRecorder({ store, logger: pino({ level: 'silent' }), flushMs: 600_000 });
    const app = await buildApp({
      board: new LiveBoard(),
      catalog: new Catalog(),
      keys,
      accounts: new Accounts(keys, store, null, Date.now),
      usage,
      rateLimits: new MemoryRateLimitStore(),
      clock: new ManualClock(0),
      store,
      version: 't',
      redisUrl: null,
    });
    const headers = { 'x-api-key': 'sk_live_owner_key_1234567890' };
    const created = await app.inject({ method: 'POST', url: '/api/v1/account/keys', headers, payload: {} });
    expect([created.statusCode, created.json<{ error: { code: string } }>().error.code]).toEqual([503, 'unavailable']);
    expect((await app.inject({ method: 'GET', url: '/api/v1/account/usage', headers })).statusCode).toBe(503);
    expect(keys.size).toBe(1);
    await usage.stop();
    await app.close();
  });
});
