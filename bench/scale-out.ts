import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaBus, NO_BATCH } from '../pipeline/bus/index.js';
import type { RawTick } from '../schemas/index.js';
import { TOPICS } from '../schemas/index.js';
import { startMockKafka } from '../test/support/mock-kafka.js';
import { ChaosProcess, freePort } from './chaos-processes.js';
import { kafkaBenchInput } from './kafka.js';
import type { BenchFigure } from './report.js';
import { summarize } from './report.js';

const OPERATOR_TOKEN = 'bench-scale-out-operator-token';

/** A pipeline process (`ROLE=pipeline`, the real entry) on its own DATA_DIR and port, ready. */
async function startPipeline(name: string, brokers: string, dataDir: string): Promise<ChaosProcess> {
  const p = new ChaosProcess(name, 'pipeline', await freePort(), {
    ROLE: 'pipeline',
    FEED: 'none',
    DATA_DIR: dataDir,
    KAFKA_BROKERS: brokers,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    SINK_MAX_WAIT_MS: '200',
    METRICS_TOKEN: OPERATOR_TOKEN,
  });
  await p.start(90_000);
  return p;
}

interface Stats {
  sinks: Record<string, { rowsWritten: number }>;
  partitions: Record<string, number[]>;
}

async function stats(p: ChaosProcess): Promise<Stats> {
  const res = await fetch(`${p.url}/stats`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  return (await res.json()) as Stats;
}

/** A process's CPU seconds so far, every thread (Linux /proc; utime + stime at 100 ticks a second). */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // The command name may hold spaces: the fields are counted after its closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Every stage's partitions spread over the processes: each process holds some of each, none twice. */
function settled(all: readonly Stats[], partitions: number): boolean {
  const stages = Object.keys(all[0]?.partitions ?? {});
  if (stages.length === 0) return false;
  return stages.every((stage) => {
    const held = all.map((s) => s.partitions[stage] ?? []);
    return held.every((h) => h.length > 0) && new Set(held.flat()).size === partitions && held.flat().length === partitions;
  });
}

interface ScaleRun {
  processes: number;
  seconds: number;
  ticksPerSecond: number;
  /** CPU seconds of each pipeline process over the measured run. */
  cpu: number[];
  brokerCpu: number;
  /** odds_ticks rows each process stored (their sum is every tick once). */
  stored: number[];
}

/**
 * The ticks produced to a fresh mock cluster with `processes` pipeline processes in the one set of
 * consumer groups, timed from the first tick produced to the last one stored, once every stage's
 * partitions were spread over the processes.
 */
async function scaleRun(raw: readonly RawTick[], expected: number, processes: number): Promise<ScaleRun> {
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-scale-'));
  const mock = await startMockKafka();
  const started: ChaosProcess[] = [];
  try {
    const brokers = mock.brokers.join(',');
    for (let i = 0; i < processes; i++) started.push(await startPipeline(`pipeline-${i}`, brokers, join(dir, `p${i}`)));
    const partitions = 4;
    const end = Date.now() + 60_000;
    while (!settled(await Promise.all(started.map(stats)), partitions)) {
      if (Date.now() > end)
        throw new Error(`partitions not spread: ${JSON.stringify((await Promise.all(started.map(stats))).map((s) => s.partitions))}`);
      await sleep(250);
    }
    const bus = new KafkaBus({ brokers: mock.brokers, sessionTimeoutMs: 6000 });
    try {
      const producer = bus.producer();
      const cpu0 = started.map((p) => cpuSecondsOf(p.pid));
      const broker0 = mock.cpuSeconds();
      const t0 = performance.now();
      for (let i = 0; i < raw.length; i += 500) {
        await producer.send(
          TOPICS.rawTicks,
          raw.slice(i, i + 500).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
          NO_BATCH,
        );
      }
      let stored: number[] = [];
      const until = Date.now() + 120_000;
      for (;;) {
        stored = (await Promise.all(started.map(stats))).map((s) => s.sinks['odds_ticks']?.rowsWritten ?? 0);
        if (stored.reduce((a, b) => a + b, 0) >= expected) break;
        if (Date.now() > until) throw new Error(`stored ${stored.join(' + ')} of ${expected} ticks`);
        await sleep(50);
      }
      const seconds = (performance.now() - t0) / 1000;
      return {
        processes,
        seconds,
        ticksPerSecond: raw.length / seconds,
        cpu: started.map((p, i) => cpuSecondsOf(p.pid) - (cpu0[i] ?? 0)),
        brokerCpu: mock.cpuSeconds() - broker0,
        stored,
      };
    } finally {
      await bus.close();
    }
  } finally {
    await Promise.all(started.map((p) => p.stop(30_000)));
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Scale-out: the same ticks through one pipeline process, then two in one set of consumer groups,
 * each on a fresh mock cluster with the same partitions (4 per topic), in the same run; values as
 * JSON (the in-process schema registry of `mock://` is not shared between processes).
 * `SCALE_OUT_PAIRS` alternates more pairs (one, two, one, two...).
 */
export async function benchScaleOut(): Promise<BenchFigure[]> {
  const input = kafkaBenchInput();
  if (!input) return [];
  const { raw, expected } = input;
  const pairs = Math.max(1, Number(process.env['SCALE_OUT_PAIRS'] ?? 1));
  const runs: ScaleRun[] = [];
  for (let i = 0; i < pairs; i++) {
    for (const processes of [1, 2]) {
      const run = await scaleRun(raw, expected, processes);
      runs.push(run);
      const perProcess = run.cpu.map((s) => `${s.toFixed(2)} s (${((s / run.seconds) * 100).toFixed(0)} % of a core)`).join(', ');
      process.stdout.write(
        `  ${processes} process${processes > 1 ? 'es' : ''}: ${raw.length} raw ticks, every tick stored after ${run.seconds.toFixed(2)} s (${Math.round(run.ticksPerSecond).toLocaleString('en-US')} ticks/s); CPU per process ${perProcess}; broker ${run.brokerCpu.toFixed(2)} s; ticks stored per process ${run.stored.join(' + ')}\n`,
      );
    }
  }
  const of = (n: number): { median: number; spread: ReturnType<typeof summarize>['spread'] } =>
    summarize(runs.filter((r) => r.processes === n).map((r) => r.ticksPerSecond));
  const one = of(1);
  const two = of(2);
  return [
    {
      name: 'two pipeline processes, one consumer group',
      value: two.median,
      unit: 'ticks/s',
      ...(pairs > 1 ? { spread: two.spread } : {}),
      baseline: { name: 'one pipeline process', value: one.median, ...(pairs > 1 ? { spread: one.spread } : {}) },
      target: { ratio: 1.7, better: 'higher' },
    },
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
