import { SchemaRegistryClient } from '@confluentinc/schemaregistry';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPIC_CONFIGS } from '../../schemas/index.js';
import type { OddsTick } from '../../schemas/index.js';
import { mockKafkaUnavailable, startMockKafka } from '../../test/support/mock-kafka.js';
import type { MockKafka } from '../../test/support/mock-kafka.js';
import type { BusRecord } from './bus.js';
import { AvroCodec } from './codec.js';
import { NO_BATCH } from './batch-ownership.js';
import { KafkaBus } from './kafka-bus.js';
import { partitionFor } from './partitioner.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping KafkaBus tests: ${unavailable}`);

function tick(eventId: string, price: number): OddsTick {
  return {
    eventId,
    book: 'pinnacle',
    market: 'moneyline',
    selection: 'home',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: 'open',
    ts: 1,
    isLive: false,
    bookEventId: 'b1',
    selectionId: null,
  };
}

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(unavailable !== null)('KafkaBus on a Kafka-protocol broker (librdkafka mock cluster)', () => {
  let kafka: MockKafka;
  beforeAll(async () => {
    kafka = await startMockKafka();
  });
  afterAll(() => kafka?.stop());

  it('delivers one key in order, on the partition the shared partitioner picks, as typed values', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const seen: BusRecord<'odds.ticks'>[] = [];
    const consumer = bus.consumer({ groupId: 'order', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async (batch) => {
      seen.push(...batch.records);
    });
    await bus.producer().send(
      'odds.ticks',
      [101, 102, 103].map((p) => ({ key: 'ev-1', value: tick('ev-1', p) })),
      NO_BATCH,
    );
    await until(() => seen.length === 3);
    expect(seen.map((r) => r.value?.priceAmerican)).toEqual([101, 102, 103]);
    expect(new Set(seen.map((r) => r.partition))).toEqual(new Set([partitionFor('ev-1', 4)]));
    expect(seen[0]?.value).toEqual(tick('ev-1', 101));
    await bus.close();
  });

  it('resumes a consumer group after its committed offset', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const producer = bus.producer();
    const first: number[] = [];
    const c1 = bus.consumer({ groupId: 'resume', topic: 'odds.ticks.raw', fromBeginning: true });
    await producer.send('odds.ticks.raw', [{ key: 'k', partitionKey: 'nba', value: null }], NO_BATCH);
    c1.run(async (b) => {
      first.push(...b.records.map((r) => r.offset));
    });
    await until(() => first.length === 1);
    await c1.stop();
    await producer.send('odds.ticks.raw', [{ key: 'k', partitionKey: 'nba', value: null }], NO_BATCH);
    const second: number[] = [];
    const c2 = bus.consumer({ groupId: 'resume', topic: 'odds.ticks.raw', fromBeginning: true });
    c2.run(async (b) => {
      second.push(...b.records.map((r) => r.offset));
    });
    await until(() => second.length === 1);
    expect(second).toEqual([(first[0] ?? 0) + 1]);
    await bus.close();
  });

  it('delivers what trickled in as one batch per fetch window, and never more than maxBatchSize', async () => {
    // KafkaBus used to hand sinks whatever one fetch returned, often a handful of records: tiny
    // ClickHouse inserts. The broker now holds the fetch for minBatchSize or maxWaitMs.
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const sizes: number[] = [];
    const producer = bus.producer();
    await producer.send('odds.ticks', [{ key: 'warm', value: tick('warm', 100) }], NO_BATCH);
    const consumer = bus.consumer({
      groupId: 'batching',
      topic: 'odds.ticks',
      fromBeginning: true,
      minBatchSize: 100_000,
      maxWaitMs: 1500,
      maxBatchSize: 120,
    });
    let joined = false;
    consumer.run(async (b) => {
      if (b.records.some((r) => r.key === 'warm')) joined = true;
      else if (joined) sizes.push(b.records.filter((r) => r.key === 'ev-b').length);
    });
    await until(() => joined);
    for (let i = 0; i < 20; i++)
      await producer.send(
        'odds.ticks',
        Array.from({ length: 10 }, (_, j) => ({ key: 'ev-b', value: tick('ev-b', 100 + i * 10 + j) })),
        NO_BATCH,
      );
    await until(() => sizes.reduce((a, b) => a + b, 0) >= 200);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(120);
    expect(sizes.length).toBeLessThanOrEqual(4);
    await bus.close();
  });

  it('reads a compacted topic to its end outside any group, for state restoration', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    await bus.producer().send(
      'odds.snapshot',
      ['a', 'b', 'c'].map((k, i) => ({ key: k, partitionKey: k, value: { key: k, eventId: k, row: null, changedAt: i } })),
      NO_BATCH,
    );
    const keys: string[] = [];
    await bus.readToEnd('odds.snapshot', (records) => {
      keys.push(...records.map((r) => r.key));
    });
    expect(keys.sort()).toEqual(['a', 'b', 'c']);
    await bus.close();
  });

  it('reads a topic between two positions: from an offset of each partition up to another, outside any group', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    // One key, so every record lands on one partition at consecutive offsets.
    const key = 'positions-between';
    await bus.producer().send(
      'odds.snapshot',
      [0, 1, 2, 3, 4].map((i) => ({ key, partitionKey: key, value: { key, eventId: key, row: null, changedAt: i } })),
      NO_BATCH,
    );
    const partition = partitionFor(key, TOPIC_CONFIGS['odds.snapshot'].partitions);
    const all: BusRecord<'odds.snapshot'>[] = [];
    await bus.readToEnd('odds.snapshot', (records) => all.push(...records), { partitions: [partition] });
    const first = all.find((r) => r.key === key)?.offset ?? 0;
    const read: number[] = [];
    const changedAt = (records: readonly BusRecord<'odds.snapshot'>[]): number[] =>
      records.filter((r) => r.key === key).map((r) => r.value?.changedAt ?? -1);
    await bus.readToEnd('odds.snapshot', (records) => read.push(...changedAt(records)), {
      partitions: [partition],
      from: () => first + 1,
      before: () => first + 4,
    });
    expect(read).toEqual([1, 2, 3]);
    await bus.close();
  });

  it('carries Avro values in the Confluent wire format and sends what it cannot decode to dead-letter, then goes on', async () => {
    const codec = new AvroCodec({ client: SchemaRegistryClient.newClient({ baseURLs: ['mock://'] }) });
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000, codec });
    const seen: BusRecord<'odds.ticks'>[] = [];
    const consumer = bus.consumer({ groupId: 'avro', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async (b) => {
      seen.push(...b.records.filter((r) => r.key === 'ev-avro'));
    });
    await bus.producer().send('odds.ticks', [{ key: 'ev-avro', value: tick('ev-avro', 150) }], NO_BATCH);
    // A producer that knows nothing of the schema writes JSON into the same partition.
    const raw = new Kafka({ brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer();
    await raw.connect();
    await raw.send({
      topic: 'odds.ticks',
      messages: [{ key: 'ev-avro', value: JSON.stringify(tick('ev-avro', 151)), partition: partitionFor('ev-avro', 4) }],
    });
    await raw.disconnect();
    await bus.producer().send('odds.ticks', [{ key: 'ev-avro', value: tick('ev-avro', 152) }], NO_BATCH);
    await until(() => seen.length === 2);
    // The freshness times are optional Avro fields: a tick sent without them reads back with null.
    const read = (price: number): OddsTick => ({ ...tick('ev-avro', price), oddsChangedAt: null, observedAt: null });
    expect(seen.map((r) => r.value)).toEqual([read(150), read(152)]);
    const dead: BusRecord<'dead-letter'>[] = [];
    await until(() => bus.deadLettered >= 1);
    await bus.readToEnd('dead-letter', (records) => {
      dead.push(...records);
    });
    const letter = dead.find((d) => d.value?.topic === 'odds.ticks' && d.value.key === 'ev-avro')?.value;
    expect(letter?.reason).toMatch(/magic byte|Unknown|invalid/i);
    expect(Buffer.from(letter?.payloadBase64 ?? '', 'base64').toString()).toBe(JSON.stringify(tick('ev-avro', 151)));
    await bus.close();
  });

  it('stops a consumer whose handler throws and rejects its done promise', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const consumer = bus.consumer({ groupId: 'boom', topic: 'events', fromBeginning: true });
    consumer.run(async () => {
      throw new Error('handler bug');
    });
    await bus.producer().send('events', [{ key: 'e', value: null }], NO_BATCH);
    await expect(consumer.done).rejects.toThrow('handler bug');
    await bus.close();
  });
  it('gives partition p of every co-partitioned topic to one member, and a member rebuilds gained partitions before their records', async () => {
    // The opportunity processor used to read events and odds through two groups: with two
    // processes an event's odds and its event record could land on different ones.
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const producer = bus.producer();
    const keys = Array.from({ length: 24 }, (_, i) => `ev-co-${i}`);
    const send = async (round: number): Promise<void> => {
      await producer.send(
        'events',
        keys.map((k) => ({ key: k, value: null })),
        NO_BATCH,
      );
      await producer.send(
        'odds.snapshot',
        keys.map((k) => ({ key: `${k}|row`, partitionKey: k, value: { key: `${k}|row`, eventId: k, row: null, changedAt: round } })),
        NO_BATCH,
      );
    };
    await send(0);
    type Log = { assigned: Set<number>; entries: string[] };
    const member = (name: string): { log: Log; consumer: ReturnType<KafkaBus['consumer']> } => {
      const log: Log = { assigned: new Set(), entries: [] };
      const consumer = bus.consumer({
        groupId: 'co-partitioned',
        topic: ['events', 'odds.snapshot'],
        fromBeginning: true,
        onAssign: async (partitions) => {
          await new Promise((r) => setTimeout(r, 200)); // a restore that takes a while
          for (const p of partitions) log.assigned.add(p);
          log.entries.push(`${name} assigned ${partitions.join(',')}`);
        },
        onRevoke: (partitions) => {
          for (const p of partitions) log.assigned.delete(p);
          log.entries.push(`${name} revoked ${partitions.join(',')}`);
        },
      });
      consumer.run(async (b) => {
        // Nothing of a partition reaches the handler before its state was rebuilt.
        if (!log.assigned.has(b.partition)) throw new Error(`${name} got partition ${b.partition} before onAssign`);
        for (const r of b.records)
          log.entries.push(`${name} ${r.topic} ${r.partition} ${r.topic === 'events' ? r.key : r.key.split('|')[0]}`);
      });
      return { log, consumer };
    };
    const a = member('a');
    const b = member('b');
    await until(
      () =>
        a.consumer.assignment().length > 0 &&
        b.consumer.assignment().length > 0 &&
        a.consumer.assignment().length + b.consumer.assignment().length === 4,
      60_000,
    );
    await send(1);
    const seenBy = (log: Log, key: string, topic: string): boolean =>
      log.entries.some((e) => e.endsWith(` ${key}`) && e.includes(` ${topic} `));
    await until(() => keys.every((k) => ['events', 'odds.snapshot'].every((t) => seenBy(a.log, k, t) || seenBy(b.log, k, t))), 60_000);
    expect(new Set([...a.consumer.assignment(), ...b.consumer.assignment()])).toEqual(new Set([0, 1, 2, 3]));
    for (const k of keys) {
      const owner = a.consumer.assignment().includes(partitionFor(k, 4)) ? a.log : b.log;
      const other = owner === a.log ? b.log : a.log;
      // Records produced after the split: each event's records, both topics, at its owner only.
      expect(['events', 'odds.snapshot'].every((t) => seenBy(owner, k, t))).toBe(true);
      expect(other.entries.filter((e) => e.endsWith(` ${k}`)).length).toBeLessThanOrEqual(2); // round 0, before the split, at most
    }
    // b leaves: a is assigned b's partitions and rebuilds them before their records reach it.
    const lost = b.consumer.assignment();
    await b.consumer.stop();
    // A member that left owns nothing, whatever it held (pipeline/bus/stopped-assignment.test.ts).
    expect(b.consumer.assignment()).toEqual([]);
    await until(() => a.consumer.assignment().length === 4, 60_000);
    const before = a.log.entries.length;
    await send(2);
    await until(
      () => keys.every((k) => a.log.entries.slice(before).some((e) => e.endsWith(` ${k}`) && e.includes(' odds.snapshot '))),
      60_000,
    );
    expect(a.log.entries.some((e) => e === `a assigned ${lost.join(',')}`)).toBe(true);
    await bus.close();
  }, 180_000);

  it('hands partitions over at a rebalance without a batch handled twice: the previous owner commits what it was writing, the new owner resumes after it', async () => {
    // Two pipelines with separate stores stored one batch in both: the group refused the commit
    // of a batch its owner was writing when another member joined, and the new owner resumed
    // from the commit before it. Here every first batch takes 1.5 s to write while b joins.
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const producer = bus.producer();
    const keys = Array.from({ length: 16 }, (_, i) => `ho-${i}`);
    const send = (round: number): Promise<void> =>
      producer.send(
        'odds.ticks',
        keys.map((k, i) => ({ key: k, value: tick(k, 1000 * round + i) })),
        NO_BATCH,
      );
    const handled: string[] = [];
    let writing = 0;
    const member = (name: string, slowFirst: boolean): ReturnType<KafkaBus['consumer']> => {
      const consumer = bus.consumer({ groupId: 'handoff', topic: 'odds.ticks', fromBeginning: true });
      const slowed = new Set<number>();
      consumer.run(async (b) => {
        const mine = b.records.filter((r) => r.key.startsWith('ho-'));
        if (slowFirst && mine.length > 0 && !slowed.has(b.partition)) {
          slowed.add(b.partition);
          writing++;
          await new Promise((r) => setTimeout(r, 1500));
        }
        for (const r of mine) handled.push(`${name} ${r.value?.priceAmerican ?? ''}`);
      });
      return consumer;
    };
    const a = member('a', true);
    await until(() => a.assignment().length === 4, 30_000);
    await send(1);
    await until(() => writing > 0, 30_000);
    const b = member('b', false);
    await until(() => b.assignment().length > 0 && a.assignment().length + b.assignment().length === 4, 60_000);
    await send(2);
    await until(() => new Set(handled.map((h) => h.split(' ')[1])).size === 2 * keys.length, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    const prices = handled.map((h) => h.split(' ')[1]);
    expect(prices.length).toBe(2 * keys.length);
    expect(new Set(prices).size).toBe(2 * keys.length);
    await bus.close();
  }, 120_000);

  it('fails a consumer that the group refuses for good (topics not co-partitioned as configured) instead of leaving it stopped in silence', async () => {
    // kafkajs gives up on a consumer after a non-retriable error; the others took its partitions
    // while the process kept serving what it had. Here the assigner refuses: the cluster has 4
    // partitions of `events`, as configured for the others, this process was configured with 2.
    // No rejoin: it would meet the same topics.
    const rejoins: unknown[] = [];
    const bus = new KafkaBus({
      brokers: kafka.brokers,
      sessionTimeoutMs: 6000,
      topics: { events: { partitions: 2, compacted: true } },
      onRejoin: (r) => rejoins.push(r),
    });
    await bus.producer().send('odds.snapshot', [{ key: 'x', partitionKey: 'x', value: null }], NO_BATCH);
    const consumer = bus.consumer({ groupId: 'refused', topic: ['events', 'odds.snapshot'], fromBeginning: true });
    consumer.run(async () => undefined);
    await expect(consumer.done).rejects.toThrow(/not co-partitioned/);
    expect(rejoins).toEqual([]);
    await bus.close();
  }, 60_000);

  it('finds every topic at its configured partition count (the mock cluster is started with them), and refuses a configuration wider than the cluster', async () => {
    expect(kafka.configuredPartitions).toBe(true);
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    expect(await bus.ensureTopics()).toEqual({
      created: [],
      autoCreated: [],
      createError: null,
      wider: [],
      notCompacted: [],
      // The mock cluster names no controller, where kafkajs sends DescribeConfigs.
      policiesUnknown: 'Broker 0 not found in the cached metadata',
      headDeleted: [],
    });
    await bus.close();
    const wider = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000, topics: { events: { partitions: 8, compacted: true } } });
    await expect(wider.ensureTopics()).rejects.toThrow('events has 4 (configured 8)');
    await wider.close();
  });

  it('tolerates a cluster that refuses CreateTopics but auto-creates topics, and reports it', async () => {
    // librdkafka's bare mock cluster (kcat): no controller for CreateTopics, topics made on first use at 4 partitions.
    const bare = await startMockKafka({ autoCreate: true });
    const bus = new KafkaBus({ brokers: bare.brokers, sessionTimeoutMs: 6000 });
    try {
      const report = await bus.ensureTopics();
      expect(report.created).toEqual([]);
      expect(report.autoCreated.sort()).toEqual(Object.keys(TOPIC_CONFIGS).sort());
      expect(report.createError).toMatch(/controller/);
      expect(report.wider).toEqual([
        { topic: 'dead-letter', partitions: 4, configured: 1 },
        { topic: 'accounts', partitions: 4, configured: 1 },
        { topic: 'bets', partitions: 4, configured: 1 },
      ]);
    } finally {
      await bus.close();
      bare.stop();
    }
  }, 60_000);

  it('reports a changelog partition whose head the cluster deleted (the mock keeps about 5 MB of a partition)', async () => {
    const bare = await startMockKafka({ autoCreate: true });
    const client = new Kafka({ brokers: bare.brokers, logLevel: logLevel.NOTHING });
    const producer = client.producer({ allowAutoTopicCreation: true });
    try {
      await producer.connect();
      const value = Buffer.alloc(100_000, 1);
      for (let i = 0; i < 80; i++) await producer.send({ topic: 'odds.snapshot', messages: [{ key: `k${i}`, value, partition: 0 }] });
      const bus = new KafkaBus({ brokers: bare.brokers, sessionTimeoutMs: 6000 });
      try {
        const { headDeleted } = await bus.ensureTopics();
        expect(headDeleted.map((p) => `${p.topic}[${p.partition}]`)).toEqual(['odds.snapshot[0]']);
        expect(headDeleted[0]?.logStart).toBeGreaterThan(0);
        expect(headDeleted[0]?.logStart).toBeLessThan(80);
      } finally {
        await bus.close();
      }
    } finally {
      await producer.disconnect();
      bare.stop();
    }
  }, 60_000);
});
