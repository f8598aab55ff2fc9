import { Kafka, logLevel } from 'kafkajs';
import type { Admin, Consumer as KafkaConsumer, Producer as KafkaProducer } from 'kafkajs';
import { TOPIC_CONFIGS } from '../../schemas/index.js';
import type { TopicConfig, TopicName, TopicValues } from '../../schemas/index.js';
import type { Bus, BusRecord, Consumer, ConsumerOptions, OutgoingRecord, Producer, RecordBatch } from './bus.js';
import { partitionFor } from './partitioner.js';

/** Upper bound of one fetch; also what `minBatchSize` is capped by. */
const MAX_FETCH_BYTES = 32 * 1024 * 1024;
/** A small tick's JSON is ~300 bytes; assume less so that a fetch never waits for more than asked. */
const MIN_RECORD_BYTES = 150;

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  topics?: Partial<Record<TopicName, TopicConfig>>;
  /** How often `lag()` is refreshed from the brokers. */
  lagRefreshMs?: number;
  /** Consumer group session timeout: how long a vanished member holds its partitions. */
  sessionTimeoutMs?: number;
}

/**
 * The bus on Kafka. kafkajs stays inside this file: the rest of the code sees the Bus port.
 * Partitions are chosen with the same partitioner as the in-process bus (by `partitionKey`,
 * else `key`), so every post-normalizer topic keeps an event's records in one partition while
 * compaction works on the record key. Values are JSON; offsets are committed only after the
 * handler resolved (at least once), exactly like the in-process bus.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly configs: Record<TopicName, TopicConfig>;
  private readonly lagRefreshMs: number;
  private readonly sessionTimeoutMs: number;
  private producerPromise: Promise<KafkaProducer> | null = null;
  private adminPromise: Promise<Admin> | null = null;
  private readonly consumers = new Set<{ stop(): Promise<void> }>();
  private topicsReady: Promise<void> | null = null;

  constructor(options: KafkaBusOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'odds-platform',
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 8, initialRetryTime: 100 },
    });
    this.configs = { ...TOPIC_CONFIGS, ...options.topics };
    this.lagRefreshMs = options.lagRefreshMs ?? 500;
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 30_000;
  }

  private admin(): Promise<Admin> {
    this.adminPromise ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })();
    return this.adminPromise;
  }

  /**
   * Creates missing topics with their partition counts and cleanup policy; existing ones stay.
   * Best effort: a cluster that refuses (no controller, as in librdkafka's mock cluster, or no
   * rights) falls back to broker-side auto-creation on first produce.
   */
  ensureTopics(): Promise<void> {
    this.topicsReady ??= this.createTopics().catch(() => undefined);
    return this.topicsReady;
  }

  private async createTopics(): Promise<void> {
    {
      const admin = await this.admin();
      const existing = new Set(await admin.listTopics());
      const missing = (Object.keys(this.configs) as TopicName[]).filter((t) => !existing.has(t));
      if (missing.length === 0) return;
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.configs[topic].partitions,
          configEntries: [{ name: 'cleanup.policy', value: this.configs[topic].compacted ? 'compact' : 'delete' }],
        })),
      });
    }
  }

  private producerClient(): Promise<KafkaProducer> {
    this.producerPromise ??= (async () => {
      await this.ensureTopics();
      const producer = this.kafka.producer({ allowAutoTopicCreation: true });
      await producer.connect();
      return producer;
    })();
    return this.producerPromise;
  }

  producer(): Producer {
    return {
      send: async <T extends TopicName>(topic: T, records: readonly OutgoingRecord<T>[]) => {
        if (records.length === 0) return;
        const producer = await this.producerClient();
        const partitions = this.configs[topic].partitions;
        await producer.send({
          topic,
          acks: -1,
          messages: records.map((r) => ({
            key: r.key,
            value: r.value === null ? null : JSON.stringify(r.value),
            partition: partitionFor(r.partitionKey ?? r.key, partitions),
            ...(r.timestamp === undefined ? {} : { timestamp: String(r.timestamp) }),
          })),
        });
      },
    };
  }

  consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T> {
    const consumer: KafkaConsumer = this.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: this.sessionTimeoutMs,
      heartbeatInterval: Math.max(100, Math.floor(this.sessionTimeoutMs / 10)),
      // Kafka's own batching: the broker holds a fetch until about `minBatchSize` records
      // (at a conservative size per record) are there or `maxWaitMs` passed, so sinks insert
      // big batches instead of whatever trickled in.
      maxWaitTimeInMs: options.maxWaitMs ?? 100,
      minBytes: Math.min(MAX_FETCH_BYTES / 2, Math.max(1, (options.minBatchSize ?? 1) * MIN_RECORD_BYTES)),
      maxBytes: MAX_FETCH_BYTES,
      maxBytesPerPartition: MAX_FETCH_BYTES / 2,
      allowAutoTopicCreation: true,
    });
    const maxBatch = options.maxBatchSize ?? 5000;
    const commit = options.commit ?? true;
    const positions = new Map<number, number>();
    let lag = 0;
    let lagTimer: NodeJS.Timeout | null = null;
    let stopping: Promise<void> | null = null;
    let settle: { resolve: () => void; reject: (e: unknown) => void } = { resolve: () => {}, reject: () => {} };
    const done = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });

    const refreshLag = async (): Promise<void> => {
      try {
        const admin = await this.admin();
        const [high, committed] = await Promise.all([
          admin.fetchTopicOffsets(options.topic),
          admin.fetchOffsets({ groupId: options.groupId, topics: [options.topic] }),
        ]);
        // A group that never commits is measured by where this consumer got to.
        const committedBy = commit ? new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)])) : positions;
        lag = high.reduce((sum, p) => {
          const c = committedBy.get(p.partition) ?? -1;
          return sum + Math.max(0, Number(p.high) - (c < 0 ? Number(p.low) : c));
        }, 0);
      } catch {
        // Lag is advisory; the next refresh will try again.
      }
    };

    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        if (lagTimer) clearInterval(lagTimer);
        await consumer.disconnect();
        this.consumers.delete(handle);
        settle.resolve();
      })();
      return stopping;
    };
    const handle = { stop };
    this.consumers.add(handle);

    return {
      done,
      lag: () => lag,
      stop,
      run: (handler: (batch: RecordBatch<T>) => Promise<void>) => {
        const start = async (): Promise<void> => {
          await this.ensureTopics();
          await consumer.connect();
          await consumer.subscribe({ topic: options.topic, fromBeginning: options.fromBeginning });
          await refreshLag();
          lagTimer = setInterval(() => void refreshLag(), this.lagRefreshMs);
          await consumer.run({
            autoCommit: false,
            eachBatchAutoResolve: false,
            eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
              if (!isRunning() || isStale() || batch.messages.length === 0) return;
              // A fetch can carry far more than the consumer asked for: hand it over in slices
              // of at most `maxBatchSize`, each committed after its handler resolved.
              for (let from = 0; from < batch.messages.length; from += maxBatch) {
                if (!isRunning() || isStale()) return;
                const slice = batch.messages.slice(from, from + maxBatch);
                const records: BusRecord<T>[] = slice.map((m) => ({
                  topic: options.topic,
                  partition: batch.partition,
                  offset: Number(m.offset),
                  key: m.key?.toString() ?? '',
                  value: m.value === null ? null : (JSON.parse(m.value.toString()) as TopicValues[T]),
                  timestamp: Number(m.timestamp),
                }));
                try {
                  await handler({ topic: options.topic, partition: batch.partition, records });
                } catch (e) {
                  settle.reject(e);
                  void stop();
                  throw e;
                }
                const last = slice[slice.length - 1];
                if (last) {
                  resolveOffset(last.offset);
                  positions.set(batch.partition, Number(last.offset) + 1);
                  if (commit) await consumer.commitOffsets([{ topic: options.topic, partition: batch.partition, offset: String(Number(last.offset) + 1) }]);
                }
                await heartbeat();
              }
            },
          });
        };
        start().catch((e: unknown) => {
          settle.reject(e);
          void stop();
        });
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
    if (this.producerPromise) await (await this.producerPromise).disconnect();
    if (this.adminPromise) await (await this.adminPromise).disconnect();
  }
}
