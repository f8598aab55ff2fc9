import { afterEach, beforeEach } from 'vitest';
import { KafkaBus, NO_BATCH } from '../../pipeline/bus/index.js';
import type { Consumer, ConsumerOptions, ConsumerRejoin } from '../../pipeline/bus/index.js';
import { startMockKafka } from './mock-kafka.js';
import type { MockKafka } from './mock-kafka.js';

/** A mock cluster and a KafkaBus on it that keeps every rejoin it reports (a consumer its group refused). */
export interface RejoiningBus {
  kafka: MockKafka;
  bus: KafkaBus;
  rejoins: ConsumerRejoin[];
}

/**
 * For each test of the calling block: a fresh mock cluster (no group's offsets, no refusals left
 * over) and a bus on it, closed after the test. Read the fields inside the tests: they change
 * from one test to the next.
 */
export function rejoiningBusEachTest(): RejoiningBus {
  const current = { rejoins: [] as ConsumerRejoin[] } as RejoiningBus;
  beforeEach(async () => {
    current.kafka = await startMockKafka();
    current.rejoins = [];
    current.bus = new KafkaBus({ brokers: current.kafka.brokers, sessionTimeoutMs: 6000, onRejoin: (r) => current.rejoins.push(r) });
  });
  afterEach(async () => {
    await current.bus.close();
    current.kafka.stop();
  });
  return current;
}

/** A consumer of `odds.ticks.raw` that keeps the keys it is handed, in order, and what its `done` failed with (null: nothing). */
export interface RecordingConsumer {
  consumer: Consumer<'odds.ticks.raw'>;
  seen: string[];
  failed: () => unknown;
}

/** Starts a consumer of `odds.ticks.raw` in a group of its own, from the beginning, keeping what it is handed. */
export function recordingConsumer(
  bus: KafkaBus,
  options: Omit<ConsumerOptions<'odds.ticks.raw'>, 'topic' | 'fromBeginning'>,
): RecordingConsumer {
  const seen: string[] = [];
  let failed: unknown = null;
  const consumer = bus.consumer({ ...options, topic: 'odds.ticks.raw', fromBeginning: true });
  consumer.run(async (batch) => {
    seen.push(...batch.records.map((r) => r.key));
  });
  consumer.done.catch((e: unknown) => {
    failed = e;
  });
  return { consumer, seen, failed: () => failed };
}

/** One record with this key on `odds.ticks.raw`, in the NBA's partition. */
export function sendKey(bus: KafkaBus, key: string): Promise<void> {
  return bus.producer().send('odds.ticks.raw', [{ key, partitionKey: 'nba', value: null }], NO_BATCH);
}
