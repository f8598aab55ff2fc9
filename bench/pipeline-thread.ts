import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { loadConfig } from '../runtime/config.js';
import type { PipelineThread } from '../runtime/config.js';
import { startSystem } from '../runtime/system.js';
import type { BenchFigure } from './report.js';
import { summarize } from './report.js';
import { loadFrom } from './shedding.js';

/**
 * The embedded runtime (`make run`: in-process bus, chDB, simulator) with the feed and the pipeline
 * on the API thread (PIPELINE_THREAD=api) and in a worker thread (worker), alternated: the API
 * thread's event-loop delay (`monitorEventLoopDelay` in this process, which is the API thread) and
 * `/health` latency probed every 50 ms from a process of its own, while the simulator runs at
 * 2,000 ticks/s and flat out (a rate no pipeline keeps up with: the feed is held back by the bus's
 * high-water mark, so the stages never idle). Measured after the opening board is through.
 */
const LOADS: { name: string; ticksPerSecond: number }[] = [
  { name: '2,000 ticks/s', ticksPerSecond: 2000 },
  { name: 'flat out', ticksPerSecond: 1_000_000 },
];
const WARMUP_S = 5;
const WINDOW_S = Number(process.env['BENCH_THREAD_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_THREAD_ROUNDS'] ?? 2);

interface Sample {
  loopP50: number;
  loopP99: number;
  loopMax: number;
  healthP99: number;
  healthSamples: number;
  load: string;
}

async function sample(thread: PipelineThread, ticksPerSecond: number): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), `odds-bench-thread-${thread}-`));
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    FEED: 'simulator',
    SIM_TICKS_PER_SECOND: String(ticksPerSecond),
    PIPELINE_THREAD: thread,
    BUS_LOG_RETENTION_MINUTES: '0',
    SHED_EVENT_LOOP_DELAY_MS: '0',
  });
  const system = await startSystem(config, pino({ level: 'silent' }));
  try {
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const probes = await loadFrom(system.url, 0, WINDOW_S, true);
    loop.disable();
    const health = [...probes.health].sort((a, b) => a - b);
    return {
      loopP50: loop.percentile(50) / 1e6,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
      healthP99: health[Math.min(health.length - 1, Math.floor(0.99 * health.length))] ?? 0,
      healthSamples: health.length,
      load: loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
  } finally {
    await system.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPipelineThread(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const { name, ticksPerSecond } of LOADS) {
    const runs: Record<PipelineThread, Sample[]> = { api: [], worker: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, each mode first in every other round: a drift of the machine's load hits both.
      const order: PipelineThread[] = round % 2 === 0 ? ['api', 'worker'] : ['worker', 'api'];
      for (const thread of order) {
        const s = await sample(thread, ticksPerSecond);
        runs[thread].push(s);
        process.stdout.write(
          `  ${name}, pipeline on the ${thread === 'api' ? 'API thread' : 'worker'}: event-loop delay p50 ${s.loopP50.toFixed(1)} p99 ${s.loopP99.toFixed(1)} max ${s.loopMax.toFixed(1)} ms, /health p99 ${s.healthP99.toFixed(1)} ms (${s.healthSamples} probes), load average ${s.load}\n`,
        );
      }
    }
    const figure = (label: string, of: (s: Sample) => number, limit?: number): BenchFigure => {
      const worker = summarize(runs.worker.map(of));
      const api = summarize(runs.api.map(of));
      return {
        name: `${label} @ ${name}`,
        value: worker.median,
        unit: 'ms',
        spread: worker.spread,
        baseline: { name: 'pipeline on the API thread', value: api.median, spread: api.spread },
        ...(limit === undefined ? {} : { target: { limit, better: 'lower' as const } }),
      };
    };
    figures.push(
      figure('API loop delay p50, pipeline in worker', (s) => s.loopP50),
      figure('API loop delay p99, pipeline in worker', (s) => s.loopP99, 20),
      figure('API loop delay max, pipeline in worker', (s) => s.loopMax),
      figure('/health p99, pipeline in worker', (s) => s.healthP99, 20),
    );
  }
  return figures;
}
