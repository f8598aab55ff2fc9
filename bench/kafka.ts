import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { loadConfig } from '../runtime/config.js';
import { openProcessParts, startConfiguredPipeline } from '../runtime/process-parts.js';
import { mockKafkaUnavailable, startMockKafka } from '../test/support/mock-kafka.js';
import type { BenchFigure } from './report.js';

const T0 = Date.UTC(2026, 10, 22, 12);

function input(): RawTick[] {
  const sim = new MarketSimulator({ seed: 5, clock: new ManualClock(T0), eventsPerLeague: 3 });
  const raw = sim.snapshot();
  for (let i = 1; raw.length < 20_000; i++) raw.push(...sim.step(T0 + i * 2000, 1000));
  return raw.slice(0, 20_000);
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

/**
 * The pipeline over Kafka (librdkafka's mock cluster, Avro values through an in-process
 * registry, chDB sinks) against raw kafkajs moving the same number of JSON messages through one
 * produce and one consumer group in the same run: the cost of everything the pipeline adds.
 */
export async function benchKafka(): Promise<BenchFigure[]> {
  const why = mockKafkaUnavailable();
  if (why) {
    process.stdout.write(`  skipped: ${why}\n`);
    return [];
  }
  const raw = input();
  const expectedTicks = (() => {
    const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    return raw.filter((r) => normalizer.handle(r, T0).tick !== null).length;
  })();

  // Baseline: raw kafkajs, produce then consume every message once.
  const baselineKafka = await startMockKafka();
  let baselinePerSecond = 0;
  let baselineCpu = { own: 0, broker: 0 };
  try {
    const kafka = new Kafka({ brokers: baselineKafka.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: 'bench-raw', maxWaitTimeInMs: 100 });
    await Promise.all([producer.connect(), consumer.connect()]);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const broker0 = baselineKafka.cpuSeconds();
    for (let i = 0; i < raw.length; i += 500) {
      await producer.send({
        topic: 'bench-raw',
        acks: -1,
        messages: raw.slice(i, i + 500).map((t) => ({ key: t.league, value: JSON.stringify(t) })),
      });
    }
    let seen = 0;
    await consumer.subscribe({ topic: 'bench-raw', fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        seen += batch.messages.length;
      },
    });
    await until(() => seen >= raw.length, 120_000);
    baselinePerSecond = raw.length / ((performance.now() - t0) / 1000);
    baselineCpu = { own: cpuSeconds(process.cpuUsage(cpu0)), broker: baselineKafka.cpuSeconds() - broker0 };
    await Promise.all([producer.disconnect(), consumer.disconnect()]);
  } finally {
    baselineKafka.stop();
  }

  // The pipeline: raw ticks produced as Avro, every stage on Kafka, until every tick is in
  // ClickHouse. Assembled as ROLE=pipeline assembles it (runtime/process-parts.ts): store,
  // bus and configured pipeline from the configuration, the bench's clock, no feed.
  const mock = await startMockKafka();
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-kafka-'));
  let pipelinePerSecond = 0;
  try {
    const config = loadConfig({
      ROLE: 'pipeline',
      DATA_DIR: dir,
      FEED: 'none',
      KAFKA_BROKERS: mock.brokers.join(','),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SINK_MAX_WAIT_MS: '200',
      ...(process.env['BENCH_KAFKA_JSON'] ? {} : { SCHEMA_REGISTRY_URL: 'mock://bench' }),
    });
    const logger = pino({ level: 'silent' });
    const parts = await openProcessParts(config, logger, { runsFeed: false, clock: new ManualClock(T0) });
    const { bus, opened } = parts;
    try {
      // Without the tiers' book scopes, as the figure was first taken.
      const pipeline = startConfiguredPipeline(config, parts, logger, { tierScopes: false });
      await pipeline.ready;
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const broker0 = mock.cpuSeconds();
      const producer = bus.producer();
      for (let i = 0; i < raw.length; i += 500) {
        await producer.send(
          TOPICS.rawTicks,
          raw.slice(i, i + 500).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
        );
      }
      const produced = performance.now();
      await until(() => pipeline.stats().sinks['odds_ticks']?.rowsWritten === expectedTicks, 300_000);
      pipelinePerSecond = raw.length / ((performance.now() - t0) / 1000);
      const own = cpuSeconds(process.cpuUsage(cpu0));
      const broker = mock.cpuSeconds() - broker0;
      // CPU per 1000 ticks says what the pipeline costs whatever else runs on the machine.
      const per = (s: number): string => ((s * 1000 * 1000) / raw.length).toFixed(0);
      process.stdout.write(
        `  pipeline: produced in ${((produced - t0) / 1000).toFixed(2)} s, every tick in ClickHouse after ${((performance.now() - t0) / 1000).toFixed(2)} s; CPU per 1000 ticks: ${per(own)} ms in process + ${per(broker)} ms broker (raw kafkajs: ${per(baselineCpu.own)} ms + ${per(baselineCpu.broker)} ms)\n`,
      );
      await pipeline.stop();
    } finally {
      await bus.close();
      await opened.closeCleanly();
    }
  } finally {
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
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
