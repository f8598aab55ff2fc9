import { pino } from 'pino';
import { KeyStore, UsageRecorder } from '../api/accounts/index.js';
import { buildApp } from '../api/app.js';
import { Catalog } from '../api/views/catalog.js';
import { LiveBoard } from '../api/views/board.js';
import { ManualClock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { perRequest } from './delta.js';
import type { BenchFigure } from './report.js';

/**
 * What keys and usage cost a request: the same GET against an app whose key store holds one
 * key, one holding 100 000 keys, and one that also counts usage (buffered; the flush is not on
 * the request path). Medians of interleaved in-process `inject()` requests. About 25 s.
 */
export async function benchAccounts(): Promise<BenchFigure[]> {
  const inserts: number[] = [];
  const store = {
    kind: 'chdb',
    query: async () => [],
    exec: async () => undefined,
    insert: async (_t: string, rows: unknown[]) => void inserts.push(rows.length),
    close: async () => undefined,
  } as unknown as OlapStore;
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  const deps = {
    board: new LiveBoard(),
    catalog: new Catalog(),
    clock,
    store,
    version: 'bench',
    redisUrl: null,
    rateLimits: unlimitedRateLimits,
  };
  const key = 'sk_live_bench_key_0000000000000000000000000000000';

  const one = new KeyStore();
  one.add(key, 'enterprise');
  const many = new KeyStore();
  for (let i = 0; i < 100_000; i++) many.add(`sk_live_bench_${i.toString().padStart(37, '0')}`, 'pro');
  many.add(key, 'enterprise');
  const usage = new UsageRecorder({ store, logger: pino({ level: 'silent' }), flushMs: 1000 });

  const apps = [
    await buildApp({ ...deps, keys: one }),
    await buildApp({ ...deps, keys: many }),
    await buildApp({ ...deps, keys: many, usage }),
  ];
  await perRequest(apps, 300, key);
  const [base, manyKeys, counted] = await perRequest(apps, 4000, key);
  await usage.stop();
  for (const a of apps) await a.close();
  if (inserts.length === 0) throw new Error('accounts bench: usage was never flushed');

  const baseline = { name: 'same request, 1 key, no usage counting', value: base ?? 0 };
  return [
    { name: 'auth with 100k keys in the store, per request', value: manyKeys ?? 0, unit: 'µs', baseline },
    { name: '+ usage counting (buffered), per request', value: counted ?? 0, unit: 'µs', baseline },
  ];
}
