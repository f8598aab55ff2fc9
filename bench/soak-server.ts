/**
 * The server of the soak: the one-process runtime as `make run` starts it (`startSystem` with the
 * configuration read from the environment, which bench/soak.ts sets), forked by the soak with
 * `make run`'s V8 flags. What it adds is an IPC channel for the driver only: the enterprise keys
 * the subscribers and the load use (added to this replica's key store), and the quiet period at
 * the end (the feed stopped and every stage drained, so subscribers and `/odds` can be compared).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { loadConfig } from '../runtime/config.js';
import { lockDataDir, prepareDataDir } from '../runtime/data-dir.js';
import { makeLogger } from '../runtime/logger.js';
import { startSystem } from '../runtime/system.js';

export interface ServerReady {
  type: 'ready';
  url: string;
  metricsUrl: string;
  keys: string[];
}

/** Requests from the driver. */
export type ServerRequest = { type: 'keys'; count: number } | { type: 'quiet' } | { type: 'stop' } | { type: 'gc' };

/** The answer to `gc`: the heap in use just after a full collection. */
export interface ServerHeap {
  type: 'gc';
  heapUsedBytes: number;
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.metrics.port === null) throw new Error('the soak server needs METRICS_PORT (0 for any free port)');
  prepareDataDir(config.dataDir);
  const lock = lockDataDir(config.dataDir);
  process.on('exit', () => lock.release());
  const system = await startSystem(config, makeLogger(config.logLevel, 'json'), { onFatal: () => setTimeout(() => process.exit(1), 100) });
  if (!system.metricsUrl) throw new Error('the operator endpoint did not start');
  const metricsUrl = system.metricsUrl;
  // No wait for the pipeline to drain here: with the simulator running its lag never reaches
  // zero, so such a wait always ran its whole timeout. The driver waits for a settled board.
  process.on('message', (m: ServerRequest) => {
    if (m.type === 'keys') {
      // Each key is an account of its own: the tier's stream limit is per account.
      const keys = Array.from({ length: m.count }, (_, i) => `soak_${i}_${Date.now()}`);
      for (const key of keys) system.keys.add(key, 'enterprise', { requestsPerMinute: 1_000_000 });
      process.send?.({ type: 'ready', url: system.url, metricsUrl, keys } satisfies ServerReady);
    } else if (m.type === 'quiet') {
      void (async () => {
        await system.feed?.stop();
        const drained = await system.drained(300_000);
        process.send?.({ type: 'quiet', drained });
      })();
    } else if (m.type === 'gc') {
      void fullCollection().then(() => process.send?.({ type: 'gc', heapUsedBytes: process.memoryUsage().heapUsed } satisfies ServerHeap));
    } else if (m.type === 'stop') {
      void system.stop().then(() => process.exit(0));
    }
  });
  if (process.env['SOAK_HEAP_PROFILE_DIR']) await sampleHeap(process.env['SOAK_HEAP_PROFILE_DIR']);
  process.send?.({ type: 'started' });
}

let gcSession: Session | null = null;

/** A full, stop-the-world collection through the inspector (no `--expose-gc` needed). */
function fullCollection(): Promise<void> {
  if (gcSession === null) {
    gcSession = new Session();
    gcSession.connect();
  }
  const session = gcSession;
  return new Promise((resolve, reject) => session.post('HeapProfiler.collectGarbage', (e) => (e ? reject(e) : resolve())));
}

/**
 * Development: V8's sampling heap profiler runs from the start, and each SIGUSR2 writes what is
 * live after a full collection, by allocation stack, to `dir` (much lighter than a heap snapshot
 * of a server under load); two of them, diffed, show which code allocated what kept growing.
 */
async function sampleHeap(dir: string): Promise<void> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 16_384 });
  const started = Date.now();
  process.on('SIGUSR2', () => {
    void (async () => {
      await post('HeapProfiler.collectGarbage');
      const { profile } = (await post('HeapProfiler.getSamplingProfile')) as { profile: unknown };
      writeFileSync(join(dir, `heap-${Math.round((Date.now() - started) / 1000)}s.json`), JSON.stringify(profile));
    })();
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`soak server failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
