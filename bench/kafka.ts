import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { NO_BATCH } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { loadConfig } from '../runtime/config.js';
import { openProcessParts, startConfiguredPipeline } from '../runtime/process-parts.js';
import { mockKafkaUnavailable, startMockKafka } from '../test/support/mock-kafka.js';
import type { MockKafka } from '../test/support/mock-kafka.js';
import { cpuProfile } from './cpu-profile.js';
import type { BenchFigure } from './report.js';
import { cpuByThread, cpuSince } from './thread-cpu.js';

const T0 = Date.UTC(2026, 10, 22, 12);

/** The raw ticks the Kafka sections move: the simulator's board and its repricing, 20,000 in all. */
function benchTicks(): RawTick[] {
  const sim = new MarketSimulator({ seed: 5, clock: new ManualClock(T0), eventsPerLeague: 3 });
  const raw = sim.snapshot();
  for (let i = 1; raw.length < 20_000; i++) raw.push(...sim.step(T0 + i * 2000, 1000));
  return raw.slice(0, 20_000);
}

/**
 * What the Kafka sections move: `benchTicks` and how many of them become ticks in `odds_ticks`
 * (the rest the normalizer does not match); null, said, without a mock cluster here.
 */
export function kafkaBenchInput(): { raw: RawTick[]; expected: number } | null {
  const why = mockKafkaUnavailable();
  if (why) {
    process.stdout.write(`  skipped: ${why}\n`);
    return null;
  }
  const raw = benchTicks();
  const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  return { raw, expected: raw.filter((r) => normalizer.handle(r, T0).tick !== null).length };
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('bench step timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Each topic's records (sum of its partitions' high offsets), largest first: what the pipeline moved. */
async function topicSizes(brokers: string[]): Promise<string[]> {
  const admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const sizes: [string, number][] = [];
    for (const topic of await admin.listTopics()) {
      const offsets = await admin.fetchTopicOffsets(topic);
      sizes.push([topic, offsets.reduce((n, p) => n + Number(p.high), 0)]);
    }
    return sizes
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${n}`);
  } finally {
    await admin.disconnect();
  }
}

/**
 * The pipeline's hops per raw tick: produced to `odds.ticks.raw` (read by the normalizer),
 * `odds.ticks` (snapshot, sink:odds_ticks) and `odds.snapshot` (opportunities, closing,
 * sink:odds_latest); the topics of events and opportunities carry a few percent more.
 */
const PIPELINE_HOPS = [1, 2, 3];

interface RawRun {
  seconds: number;
  cpu: number;
  brokerCpu: number;
}

/**
 * Raw kafkajs on a fresh mock cluster: every tick produced as JSON (500 a request, acks -1) to
 * one topic per entry of `groups`, and each topic read to its end by that many consumer groups.
 */
async function rawKafkajs(raw: readonly RawTick[], groups: readonly number[]): Promise<RawRun> {
  const cluster = await startMockKafka();
  try {
    const kafka = new Kafka({ brokers: cluster.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    const consumers = groups.flatMap((count, topic) =>
      Array.from({ length: count }, (_, g) => ({
        topic: `bench-raw-${topic}`,
        consumer: kafka.consumer({ groupId: `bench-raw-${topic}-${g}`, maxWaitTimeInMs: 100 }),
      })),
    );
    await Promise.all([producer.connect(), ...consumers.map((c) => c.consumer.connect())]);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const broker0 = cluster.cpuSeconds();
    for (let topic = 0; topic < groups.length; topic++) {
      for (let i = 0; i < raw.length; i += 500) {
        await producer.send({
          topic: `bench-raw-${topic}`,
          acks: -1,
          messages: raw.slice(i, i + 500).map((t) => ({ key: t.league, value: JSON.stringify(t) })),
        });
      }
    }
    let seen = 0;
    for (const { topic, consumer } of consumers) {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          seen += batch.messages.length;
        },
      });
    }
    await until(() => seen >= raw.length * consumers.length, 120_000);
    const run = {
      seconds: (performance.now() - t0) / 1000,
      cpu: cpuSeconds(process.cpuUsage(cpu0)),
      brokerCpu: cluster.cpuSeconds() - broker0,
    };
    await Promise.all([producer.disconnect(), ...consumers.map((c) => c.consumer.disconnect())]);
    return run;
  } finally {
    cluster.stop();
  }
}

interface PipelineRun {
  /** From the first raw tick produced to the last tick in ClickHouse. */
  seconds: number;
  producedSeconds: number;
  /** This process's CPU seconds (every thread), and by thread group. */
  cpu: number;
  threads: [string, number][];
  brokerCpu: number;
}

/**
 * Raw ticks produced (as Avro on Kafka) until every tick is in ClickHouse, the pipeline assembled
 * as the runtime assembles it (runtime/process-parts.ts): store, bus and configured pipeline
 * from the configuration, the bench's clock, no feed. Without a cluster, on the in-process bus.
 */
async function pipelineRun(raw: readonly RawTick[], expected: number, mock: MockKafka | null): Promise<PipelineRun> {
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-kafka-'));
  try {
    const config = loadConfig({
      DATA_DIR: dir,
      FEED: 'none',
      SINK_MAX_WAIT_MS: '200',
      ...(mock
        ? {
            ROLE: 'pipeline',
            KAFKA_BROKERS: mock.brokers.join(','),
            KAFKA_SESSION_TIMEOUT_MS: '6000',
            ...(process.env['BENCH_KAFKA_JSON'] ? {} : { SCHEMA_REGISTRY_URL: 'mock://bench' }),
          }
        : { ROLE: 'all' }),
    });
    const logger = pino({ level: 'silent' });
    const parts = await openProcessParts(config, logger, { runsFeed: false, clock: new ManualClock(T0) });
    const { bus, opened } = parts;
    try {
      // Without the tiers' book scopes, as the figure was first taken.
      const pipeline = startConfiguredPipeline(config, parts, logger, { tierScopes: false });
      await pipeline.ready;
      // `BENCH_KAFKA_PROFILE=<file>`: a CPU profile of the Kafka run's measured seconds only.
      const stopProfile = cpuProfile(mock ? process.env['BENCH_KAFKA_PROFILE'] : undefined);
      const threads0 = cpuByThread();
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const broker0 = mock?.cpuSeconds() ?? 0;
      const producer = bus.producer();
      for (let i = 0; i < raw.length; i += 500) {
        await producer.send(
          TOPICS.rawTicks,
          raw.slice(i, i + 500).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
          NO_BATCH,
        );
      }
      const produced = performance.now();
      await until(() => pipeline.stats().sinks['odds_ticks']?.rowsWritten === expected, 300_000);
      const run: PipelineRun = {
        seconds: (performance.now() - t0) / 1000,
        producedSeconds: (produced - t0) / 1000,
        cpu: cpuSeconds(process.cpuUsage(cpu0)),
        threads: cpuSince(threads0, cpuByThread()),
        brokerCpu: (mock?.cpuSeconds() ?? 0) - broker0,
      };
      await stopProfile();
      await pipeline.stop();
      return run;
    } finally {
      await bus.close();
      await opened.closeCleanly();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The pipeline over Kafka (librdkafka's mock cluster, Avro values through an in-process
 * registry, chDB sinks) against raw kafkajs moving the same number of JSON messages through one
 * produce and one consumer group in the same run: the cost of everything the pipeline adds.
 */
export async function benchKafka(): Promise<BenchFigure[]> {
  const input = kafkaBenchInput();
  if (!input) return [];
  const { raw, expected } = input;

  // Baselines: raw kafkajs moving the ticks as JSON, once (one topic, one group) and along the
  // pipeline's own hops (three topics, six groups).
  const once = await rawKafkajs(raw, [1]);
  const hops = await rawKafkajs(raw, PIPELINE_HOPS);
  const baselinePerSecond = raw.length / once.seconds;
  const baselineCpu = { own: once.cpu, broker: once.brokerCpu };
  const perThousand = (s: number): string => ((s * 1000 * 1000) / raw.length).toFixed(0);
  // The same pipeline on the in-process bus, same input: what the stages and chDB cost without
  // Kafka, so that the rest of the Kafka run's CPU is what the bus adds.
  const inProcess = await pipelineRun(raw, expected, null);
  process.stdout.write(
    `  pipeline on the in-process bus: every tick in ClickHouse after ${inProcess.seconds.toFixed(2)} s; CPU per 1000 ticks: ${perThousand(inProcess.cpu)} ms (${inProcess.threads.map(([name, s]) => `${name} ${perThousand(s)}`).join(', ')})\n`,
  );

  const mock = await startMockKafka();
  let pipelinePerSecond = 0;
  try {
    const run = await pipelineRun(raw, expected, mock);
    pipelinePerSecond = raw.length / run.seconds;
    // CPU per 1000 ticks says what the pipeline costs whatever else runs on the machine.
    process.stdout.write(
      `  pipeline on Kafka: produced in ${run.producedSeconds.toFixed(2)} s, every tick in ClickHouse after ${run.seconds.toFixed(2)} s; CPU per 1000 ticks: ${perThousand(run.cpu)} ms in process (${run.threads.map(([name, s]) => `${name} ${perThousand(s)}`).join(', ')}) + ${perThousand(run.brokerCpu)} ms broker; raw kafkajs: ${perThousand(baselineCpu.own)} ms + ${perThousand(baselineCpu.broker)} ms, along the pipeline's hops ${perThousand(hops.cpu)} ms + ${perThousand(hops.brokerCpu)} ms; the bus's share (Kafka run less in-process run): ${perThousand(run.cpu - inProcess.cpu)} ms\n`,
    );
    process.stdout.write(`  records written per topic: ${(await topicSizes(mock.brokers)).join(', ')}\n`);
  } finally {
    mock.stop();
  }
  return [
    {
      name: 'pipeline over Kafka (Avro), raw tick to ClickHouse',
      value: pipelinePerSecond,
      unit: 'ticks/s',
      baseline: { name: 'raw kafkajs produce + consume (JSON)', value: baselinePerSecond },
      target: { ratio: 0.5, better: 'higher' },
    },
  ];
}
