import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadMigrations } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { buildApp } from '../api/app.js';
import { KeyStore } from '../api/accounts/index.js';
import { DEFAULT_HTTP_LIMITS } from '../api/plugins/http-guard.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { Catalog } from '../api/views/catalog.js';
import { board } from './delta.js';
import type { WorkerResult } from './load-worker.js';
import type { BenchFigure } from './report.js';

const KEY = 'bench-shedding-key-0123456789';
// Answers health's schema check as migrated: /health is 200, as on a healthy server.
const store = {
  kind: 'chdb',
  query: async () => loadMigrations().map((m) => ({ version: m.version })),
  exec: async () => undefined,
  close: async () => undefined,
} as unknown as OlapStore;

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Runs a load worker in its own process against `base` and waits for its figures (0 connections: /health probes only). */
export function loadFrom(base: string, connections: number, seconds: number, probeHealth: boolean): Promise<WorkerResult> {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'load-worker.js'), { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error('load worker did not finish'));
      },
      (seconds + 120) * 1000,
    );
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as WorkerResult);
    });
    child.once('error', reject);
    child.send({ base, path: '/api/v1/odds?limit=200', key: KEY, connections, seconds, probeHealth });
  });
}

interface Run {
  admittedP99: number;
  admittedRps: number;
  shedPercent: number;
  healthP99: number;
  healthSamples: number;
  failures: number;
}

async function measure(shedEventLoopDelayMs: number, connections: number, seconds: number): Promise<Run> {
  const clock = new ManualClock(Date.now());
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise');
  const app: FastifyInstance = await buildApp({
    board: board(clock).board,
    catalog: new Catalog(),
    keys,
    rateLimits: unlimitedRateLimits,
    clock,
    store,
    version: 'bench',
    redisUrl: null,
    http: { ...DEFAULT_HTTP_LIMITS, shedEventLoopDelayMs, maxConnectionsPerAddress: connections + 10 },
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    // The /health prober is a process of its own, so the generator's lag is not counted as the server's.
    const [r, probe] = await Promise.all([loadFrom(base, connections, seconds, false), loadFrom(base, 0, seconds, true)]);
    const admitted = r.byStatus['200'] ?? [];
    const shed = r.byStatus['503']?.length ?? 0;
    const total = Object.values(r.byStatus).reduce((s, l) => s + l.length, 0);
    return {
      admittedP99: quantile(admitted, 0.99),
      admittedRps: admitted.length / r.seconds,
      shedPercent: total === 0 ? 0 : (shed / total) * 100,
      healthP99: quantile(probe.health, 0.99),
      healthSamples: probe.health.length,
      failures: r.failures + total - admitted.length - shed,
    };
  } finally {
    await app.close();
  }
}

/**
 * Overload: 200 connections sending GET /odds?limit=200 back to back from another process, at
 * a server with load shedding (the defaults: keyed requests take turns within a 50 ms wait
 * budget, and a 200 ms event-loop delay threshold) and the same
 * server without it, one after the other in the same run. Shedding must keep the admitted
 * requests' p99 and /health's p99 bounded by refusing the excess early with 503 overloaded.
 */
export async function benchShedding(connections = 200, seconds = 8): Promise<BenchFigure[]> {
  // /health on the same server with no load: the floor this machine sets (a loaded box delays
  // the prober's own wake-ups), beside which the overloaded figure is read.
  const idle = await measure(DEFAULT_HTTP_LIMITS.shedEventLoopDelayMs, 0, 4);
  const unprotected = await measure(0, connections, seconds);
  const protectedRun = await measure(DEFAULT_HTTP_LIMITS.shedEventLoopDelayMs, connections, seconds);
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  process.stdout.write(
    `  ${connections} connections x ${seconds} s each, shed clients wait Retry-After; /health polled every 50 ms from its own process (${protectedRun.healthSamples} / ${unprotected.healthSamples} answers); load average ${load} on ${cpus().length} cores; failures ${unprotected.failures} / ${protectedRun.failures}\n`,
  );
  return [
    {
      name: `admitted p99 at ${connections} conns, shedding`,
      value: protectedRun.admittedP99,
      unit: 'ms',
      baseline: { name: 'no shedding p99', value: unprotected.admittedP99 },
    },
    {
      name: '/health p99 under that load, shedding',
      value: protectedRun.healthP99,
      unit: 'ms',
      baseline: { name: 'no shedding', value: unprotected.healthP99 },
    },
    {
      name: '/health p99 under that load, shedding',
      value: protectedRun.healthP99,
      unit: 'ms',
      baseline: { name: 'idle server', value: idle.healthP99 },
    },
    {
      name: 'admitted requests/s, shedding',
      value: protectedRun.admittedRps,
      unit: 'req/s',
      baseline: { name: 'no shedding', value: unprotected.admittedRps },
    },
    {
      name: 'shed (503 overloaded) share of answers',
      value: protectedRun.shedPercent,
      unit: '%',
      baseline: { name: 'no shedding', value: unprotected.shedPercent },
    },
  ];
}
