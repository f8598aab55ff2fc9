/**
 * What went wrong: in the two-process Kafka test, 5 of 216 opportunities now and then ended on
 * another version than in a one-process run. A member that lost a partition at a rebalance was
 * still inside a batch of it; the new owner waited the handoff window, resumed from the group's
 * commit (before that batch, which was not committed yet), wrote the batch's outputs and newer
 * ones; then the old owner's handler finished and published its older outputs after them, and
 * the compacted output topic kept those. The late commit was bounded (`owedUntil`), the late
 * publish was not. Here the old owner's first batches wait until the new owner has published
 * the next round of every key it took over. A table write is held to the same rule.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOPIC_CONFIGS } from '../../schemas/index.js';
import { mockKafkaUnavailable, startMockKafka } from '../../test/support/mock-kafka.js';
import type { MockKafka } from '../../test/support/mock-kafka.js';
import { tick } from '../opportunities/fixtures/builders.js';
import { TableSink } from '../sinks/index.js';
import type { StoreRow } from '../store/index.js';
import { NO_BATCH, PartitionLostError } from './batch-ownership.js';
import type { Consumer } from './bus.js';
import { KafkaBus } from './kafka-bus.js';
import { partitionFor } from './partitioner.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the late publish tests: ${unavailable}`);

/** Rebalances on the mock cluster take seconds, more on a loaded machine. */
const waiting = { timeout: 60_000, interval: 20 };

describe.skipIf(unavailable !== null)('a member that lost a partition while handling a batch of it', () => {
  let kafka: MockKafka;
  beforeAll(async () => {
    kafka = await startMockKafka();
  });
  afterAll(() => kafka?.stop());

  it('publishes none of that batch after the new owner took over: the output topic ends on the last input of every key, as with one member', async () => {
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    const producer = bus.producer();
    const keys = Array.from({ length: 16 }, (_, i) => `late-${i}`);
    const count = TOPIC_CONFIGS['odds.ticks'].partitions;
    const send = (round: number): Promise<void> =>
      producer.send(
        'odds.ticks',
        keys.map((k, i) => ({ key: k, value: tick('pinnacle', 'moneyline', 'home', null, 100 * round + i, { eventId: k }) })),
        NO_BATCH,
      );
    /** What each member published, as `member key price`, once the send resolved. */
    const published: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let holding = 0;
    let settled = 0;
    /** What each of a's held batches came to, by partition: `published`, or the name of what its send threw. */
    const heldOutcomes = new Map<number, string>();
    // The handler maps every tick to the snapshot changelog, key for key: the last record of a
    // key there is the output of the key's last input handled.
    const member = (name: string, holdFirstRound: boolean): Consumer<'odds.ticks'> => {
      const consumer = bus.consumer({ groupId: 'late-publish', topic: 'odds.ticks', fromBeginning: true });
      consumer.run(async (b) => {
        const mine = b.records.filter((r) => r.key.startsWith('late-'));
        if (mine.length === 0) return;
        const held = holdFirstRound && mine.some((r) => (r.value?.priceAmerican ?? 0) < 200);
        if (held) holding++;
        try {
          if (held) await gate;
          await producer.send(
            'odds.snapshot',
            mine.map((r) => ({
              key: r.key,
              partitionKey: r.key,
              value: { key: r.key, eventId: r.key, row: null, changedAt: r.value?.priceAmerican ?? 0 },
            })),
            b.hold,
          );
          for (const r of mine) published.push(`${name} ${r.key} ${r.value?.priceAmerican ?? ''}`);
          if (held) heldOutcomes.set(b.partition, 'published');
        } catch (e) {
          if (held) heldOutcomes.set(b.partition, e instanceof Error ? e.name : String(e));
          throw e;
        } finally {
          if (held) settled++;
        }
      });
      return consumer;
    };
    const publishedBy = (name: string, key: string, price: number): boolean => published.includes(`${name} ${key} ${price}`);

    try {
      const a = member('a', true);
      await vi.waitFor(() => expect(a.assignment()).toHaveLength(count), waiting);
      await send(1);
      // a is inside the first batch of every partition with a key of ours, and stays there.
      const partitions = new Set(keys.map((k) => partitionFor(k, count)));
      await vi.waitFor(() => expect(holding).toBe(partitions.size), waiting);
      const b = member('b', false);
      await vi.waitFor(
        () => expect([b.assignment().length > 0, a.assignment().length + b.assignment().length]).toEqual([true, count]),
        waiting,
      );
      const taken = keys.flatMap((k, i) => (b.assignment().includes(partitionFor(k, count)) ? [{ k, i }] : []));
      expect(taken.length).toBeGreaterThan(0);
      // b resumed from the commit, before a's batches: it handles round 1, then round 2.
      await send(2);
      await vi.waitFor(() => expect(taken.filter(({ k, i }) => !publishedBy('b', k, 200 + i))).toEqual([]), waiting);
      release();
      await vi.waitFor(() => expect(settled).toBe(holding), waiting);
      await vi.waitFor(
        () => expect(keys.filter((k, i) => !publishedBy('a', k, 200 + i) && !publishedBy('b', k, 200 + i))).toEqual([]),
        waiting,
      );

      const last = new Map<string, number>();
      await bus.readToEnd('odds.snapshot', (records) => {
        for (const r of records) if (r.key.startsWith('late-')) last.set(r.key, r.value?.changedAt ?? -1);
      });
      // One member handles round 1, then round 2, of every key: each key's last output is its round-2 price.
      expect(Object.fromEntries(last)).toEqual(Object.fromEntries(keys.map((k, i) => [k, 200 + i])));
      // b's keys: a published nothing of round 1 after b took them over.
      expect(taken.filter(({ k, i }) => publishedBy('a', k, 100 + i))).toEqual([]);
      // Because the send of each held batch whose partition b took threw, given the hold that batch
      // was handed; the held batches of the partitions a kept went out.
      const takenPartitions = new Set(taken.map(({ k }) => partitionFor(k, count)));
      expect(Object.fromEntries(heldOutcomes)).toEqual(
        Object.fromEntries([...partitions].map((p) => [p, takenPartitions.has(p) ? 'PartitionLostError' : 'published'])),
      );
    } finally {
      release(); // a stopping consumer waits for the batches in its handler
      await bus.close();
    }
  }, 180_000);
});

describe('a table write for a batch whose partition was lost', () => {
  it('makes no further attempt once the partition went to another member while it waited to retry', async () => {
    const attempts: StoreRow[][] = [];
    const hold = { lost: false };
    const sink = new TableSink(
      {
        kind: 'chdb',
        exec: async () => undefined,
        insert: async (_table, rows) => {
          attempts.push([...rows]);
          throw new Error('connection reset'); // retryable
        },
        query: async () => [],
        close: async () => undefined,
      },
      'odds_ticks',
      pino({ level: 'silent' }),
      {
        // The rebalance that takes the partition happens during the backoff.
        sleep: async () => {
          hold.lost = true;
        },
      },
    );
    await expect(sink.write([{ id: 1 }], hold)).rejects.toBeInstanceOf(PartitionLostError);
    expect(attempts).toEqual([[{ id: 1 }]]);
    expect(sink.counters).toEqual({ rowsWritten: 0, batchesWritten: 0, rowsFailed: 0, lastWriteAt: null });
  });
});
