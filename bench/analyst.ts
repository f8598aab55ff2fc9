import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../runtime/config.js';
import { startSystem } from '../runtime/system.js';
import type { BenchFigure } from './report.js';

const PASSWORD = 'bench-analyst-password';
/** Unbounded work for the engine: hashing every natural number until the time limit. */
// numbers_mt reads in as many streams as the statement has threads, like numbers(1e12) does.
const HEAVY = 'SELECT count() FROM system.numbers_mt WHERE NOT ignore(sipHash64(number))';
const WINDOW_MS = 6_000;

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** /health answered back to back for `WINDOW_MS`: p50 and p99 in ms. */
async function healthLatency(url: string): Promise<{ p50: number; p99: number; n: number }> {
  const times: number[] = [];
  const end = performance.now() + WINDOW_MS;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/v1/health`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), n: times.length };
}

/**
 * What heavy analyst statements cost API clients: /health latency on the whole embedded system
 * (simulator, pipeline, chDB) while ANALYST_CONCURRENCY statements that would run for ever are
 * under way, beside the same system idle. Once with the endpoint's one engine thread per
 * statement, once with as many threads as cores (what an unbounded statement takes). About 60 s.
 */
export async function benchAnalyst(): Promise<BenchFigure[]> {
  const run = async (
    threads: number,
  ): Promise<{ idle: Awaited<ReturnType<typeof healthLatency>>; busy: Awaited<ReturnType<typeof healthLatency>> }> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-analyst-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ANALYST_PORT: '0',
      ANALYST_PASSWORD: PASSWORD,
      ANALYST_THREADS: String(threads),
      ANALYST_MAX_SECONDS: '60',
      SHED_EVENT_LOOP_DELAY_MS: '0',
    });
    const system = await startSystem(config, pino({ level: 'silent' }));
    try {
      // Past start-up (first sink batches, the simulator's first schedule) before the idle window.
      await new Promise((r) => setTimeout(r, 8_000));
      const idle = await healthLatency(system.url);
      const statements = Array.from({ length: config.analyst?.concurrency ?? 2 }, () => {
        const client = new AbortController();
        const answer = fetch(`${system.analystUrl}/`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`analyst:${PASSWORD}`).toString('base64')}` },
          body: HEAVY,
          signal: client.signal,
        }).catch(() => undefined);
        return { client, answer };
      });
      await new Promise((r) => setTimeout(r, 500));
      const busy = await healthLatency(system.url);
      for (const s of statements) s.client.abort();
      await Promise.all(statements.map((s) => s.answer));
      return { idle, busy };
    } finally {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const bounded = await run(1);
  const unbounded = await run(cpus().length);
  const idle = (p: 'p50' | 'p99') => ({ name: `same system idle (n=${bounded.idle.n})`, value: bounded.idle[p] });
  return [
    {
      name: `/health p50, 2 heavy statements, 1 thread each (n=${bounded.busy.n})`,
      value: bounded.busy.p50,
      unit: 'ms',
      baseline: idle('p50'),
    },
    { name: `/health p99, 2 heavy statements, 1 thread each`, value: bounded.busy.p99, unit: 'ms', baseline: idle('p99') },
    {
      name: `/health p99, 2 heavy statements, ${cpus().length} threads each`,
      value: unbounded.busy.p99,
      unit: 'ms',
      baseline: { name: `that system idle (n=${unbounded.idle.n})`, value: unbounded.idle.p99 },
    },
  ];
}
