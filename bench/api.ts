import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { ManualClock } from '../pipeline/clock.js';
import { buildApp } from '../api/app.js';
import { paginatedEnvelope, pagination } from '../api/contract/common.js';
import { oddsRowSchema, presentOdds } from '../api/contract/odds.js';
import { KeyStore } from '../api/accounts/index.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { Catalog } from '../api/views/catalog.js';
import { recordedTicks } from './pipeline.js';
import type { BenchFigure } from './report.js';
import { startServingPipeline } from './serving-pipeline.js';

const run = promisify(execFile);
const KEY = 'bench-key-0123456789';

/** The benchmark measures serving, not the limiter: every request is the first of its window. */
const unlimited = unlimitedRateLimits;

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon in its own process, so load generation does not share the server's event loop. */
async function load(url: string, seconds: number): Promise<LoadResult> {
  const bin = join(process.cwd(), 'node_modules', '.bin', 'autocannon');
  const { stdout } = await run(bin, ['--json', '-c', '10', '-d', String(seconds), '-H', `x-api-key=${KEY}`, url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number };
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/**
 * GET /odds from the live board (filters, pagination, presentation, serialization) against a
 * bare Fastify route that serializes the same 100 rows from a ready array with the same schema.
 */
export async function benchApi(seconds = 5): Promise<BenchFigure[]> {
  const { ticks, start } = recordedTicks(60_000);
  const clock = new ManualClock(start);
  const serving = await startServingPipeline(clock, 'api');
  const { board, store } = serving;
  for (let i = 0; i < ticks.length; i += 2000) await serving.send(ticks.slice(i, i + 2000));
  await serving.drained();

  const catalog = new Catalog();
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise');
  const app = await buildApp({ board, catalog, keys, rateLimits: unlimited, clock, store, version: 'bench', redisUrl: null });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  const bare = Fastify({ logger: false });
  const page = board
    .activeEvents()
    .flatMap((e) => board.rowsOf(e.id).map((r) => presentOdds(catalog, r, e)))
    .slice(0, 100);
  bare.get(
    '/odds',
    { schema: { response: { 200: paginatedEnvelope(oddsRowSchema, { type: 'object', additionalProperties: true }) } } },
    async () => ({
      success: true,
      data: page,
      pagination: pagination(100, 0, board.rowCount),
      meta: { count: 100, total: board.rowCount },
      updated_at: new Date().toISOString(),
    }),
  );
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  process.stdout.write(`  board: ${board.rowCount.toLocaleString('en-US')} odds rows, ${board.activeEvents().length} events\n`);
  const baseline = await load(`${bareUrl}/odds`, seconds);
  const all = await load(`${base}/api/v1/odds?limit=100`, seconds);
  const filtered = await load(
    `${base}/api/v1/odds?sport=basketball,football&market=point_spread&sportsbook=pinnacle,draftkings&limit=100`,
    seconds,
  );
  const errors = baseline.errors + all.errors + filtered.errors;
  if (errors > 0) process.stdout.write(`  warning: ${errors} failed or non-2xx responses during load\n`);

  await app.close();
  await bare.close();
  await serving.stop();

  const bareBase = { name: 'bare Fastify, same 100 rows', value: baseline.rps };
  return [
    { name: 'GET /odds?limit=100 requests/s', value: all.rps, unit: 'req/s', baseline: bareBase },
    { name: 'GET /odds?limit=100 p50 latency', value: all.p50, unit: 'ms', baseline: { name: 'bare p50', value: baseline.p50 } },
    { name: 'GET /odds?limit=100 p99 latency', value: all.p99, unit: 'ms', baseline: { name: 'bare p99', value: baseline.p99 } },
    { name: 'GET /odds filtered (sport, market, book) req/s', value: filtered.rps, unit: 'req/s', baseline: bareBase },
    { name: 'GET /odds filtered p50 latency', value: filtered.p50, unit: 'ms', baseline: { name: 'bare p50', value: baseline.p50 } },
    { name: 'GET /odds filtered p99 latency', value: filtered.p99, unit: 'ms', baseline: { name: 'bare p99', value: baseline.p99 } },
  ];
}
