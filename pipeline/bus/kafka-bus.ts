import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type {
  Admin,
  ConfigResourceTypes,
  ConsumerRunConfig,
  Consumer as KafkaConsumer,
  KafkaMessage,
  Message,
  Producer as KafkaProducer,
} from 'kafkajs';
import { TOPICS, TOPIC_CONFIGS, settingDefault } from '../../schemas/index.js';
import type { TopicConfig, TopicName, TopicValues } from '../../schemas/index.js';
import type { Bus, BusRecord, Consumer, ConsumerOptions, OutgoingRecord, Producer, ReadScope, RecordBatch } from './bus.js';
import { topicsOf } from './bus.js';
import { NotCoPartitionedError, coPartitionedAssigner } from './co-partitioned-assigner.js';
import { NO_BATCH, PartitionLostError, assertHeld } from './batch-ownership.js';
import type { PartitionHold } from './batch-ownership.js';
import { causesOf, lostTheBrokers } from './connection-loss.js';
import { jsonCodec } from './codec.js';
import type { Codec } from './codec.js';
import { partitionFor } from './partitioner.js';
import { ensureTopics, messageOf } from './topics.js';
import type { TopicAdmin, TopicReport } from './topics.js';

/** Upper bound of one fetch; also what `minBatchSize` is capped by. */
const MAX_FETCH_BYTES = 32 * 1024 * 1024;
/** A small tick's JSON is ~300 bytes; assume less so that a fetch never waits for more than asked. */
const MIN_RECORD_BYTES = 150;
/** Decoded values kept for the other stages of the process that read the same records. */
const DECODED_KEPT = 20_000;
/** Topic-partitions whose decoded values are kept (the configured topics have 45). */
const DECODED_SLOTS = 1024;
/** The largest offset whose key stays an exact integer. */
const MAX_KEYED_OFFSET = Math.floor(Number.MAX_SAFE_INTEGER / DECODED_SLOTS);
/** What `decodeNow` answers for a value it cannot decode without waiting (or at all). */
const LATER = Symbol('decode later');
/**
 * How many times in a row a consumer the group refused for good rejoins before its stage fails
 * (a completed join starts the count again).
 */
const REJOINS = 5;

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  topics?: Partial<Record<TopicName, TopicConfig>>;
  /** How often `lag()` is refreshed from the brokers. */
  lagRefreshMs?: number;
  /** Consumer group session timeout: how long a vanished member holds its partitions. */
  sessionTimeoutMs?: number;
  /** How values cross the wire: JSON by default, Avro through a Schema Registry in production. */
  codec?: Codec;
  /** Told each time a consumer the group refused rejoins from scratch (for the operator's log). */
  onRejoin?: (rejoin: ConsumerRejoin) => void;
}

/** A consumer of `groupId` refused by the group (`reason`) and rejoining, the `attempt`-th time in a row. */
export interface ConsumerRejoin {
  groupId: string;
  attempt: number;
  reason: string;
}

/** Whether rejoining cannot help: the cluster's topics contradict this process's configuration. */
function misconfigured(error: unknown): boolean {
  for (const e of causesOf(error)) if (e instanceof NotCoPartitionedError) return true;
  return false;
}

/**
 * The bus on Kafka. kafkajs stays inside this file: the rest of the code sees the Bus port.
 * Partitions are chosen with the same partitioner as the in-process bus (by `partitionKey`,
 * else `key`), so every post-normalizer topic keeps an event's records in one partition while
 * compaction works on the record key. Values go through a codec (JSON, or Avro in the Confluent
 * wire format); a value that cannot be decoded goes to `dead-letter` with the reason. Offsets are committed only after the
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
  private topicsReady: Promise<TopicReport> | null = null;
  private readonly codec: Codec;
  private readonly onRejoin: (rejoin: ConsumerRejoin) => void;
  private codecReady: Promise<void> | null = null;
  /** Records that could not be decoded, sent to the dead-letter topic. */
  deadLettered = 0;

  constructor(options: KafkaBusOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'odds-platform',
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 8, initialRetryTime: 100 },
    });
    this.configs = { ...TOPIC_CONFIGS, ...options.topics };
    this.lagRefreshMs = options.lagRefreshMs ?? 500;
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? settingDefault('KAFKA_SESSION_TIMEOUT_MS');
    this.codec = options.codec ?? jsonCodec;
    this.onRejoin = options.onRejoin ?? (() => undefined);
  }

  /**
   * Registers the schemas (Avro) before anything is produced or consumed: a breaking change
   * fails here, at start, instead of writing records readers cannot decode.
   */
  prepareCodec(): Promise<void> {
    this.codecReady ??= this.codec.prepare();
    return this.codecReady;
  }

  /**
   * Values decoded lately, by topic, partition and offset. Several stages of a process read the
   * same topics (the snapshot changelog feeds three): each record is decoded once and the stages
   * share the value, as they share it on the in-process bus. Keyed by a number (the offset times
   * `DECODED_SLOTS` plus the topic-partition's slot), not a string built and hashed for every
   * record by every stage that reads it.
   */
  private readonly decoded = new Map<number, unknown>();
  /** The slot of each topic-partition read in this process, by `topic|partition`. */
  private readonly decodedSlots = new Map<string, number>();

  /** Where `topic`'s `partition` keys its decoded values (-1: past the slots, not kept). */
  private decodedSlot(topic: TopicName, partition: number): number {
    const name = `${topic}|${partition}`;
    let found = this.decodedSlots.get(name);
    if (found === undefined) {
      found = this.decodedSlots.size < DECODED_SLOTS ? this.decodedSlots.size : -1;
      this.decodedSlots.set(name, found);
    }
    return found;
  }

  /** Decodes one value without waiting, when the codec can: `LATER` when it must go the slow way (`decode`). */
  private decodeNow<T extends TopicName>(topic: T, slot: number, offset: number, m: KafkaMessage): TopicValues[T] | null | typeof LATER {
    if (m.value === null) return null;
    const key = slot < 0 || offset > MAX_KEYED_OFFSET ? -1 : offset * DECODED_SLOTS + slot;
    const known = key < 0 ? undefined : this.decoded.get(key);
    if (known !== undefined) return known as TopicValues[T];
    try {
      const value = this.codec.decode(topic, m.value);
      if (value instanceof Promise) return LATER;
      if (key < 0) return value as TopicValues[T];
      if (this.decoded.size >= DECODED_KEPT) {
        for (const k of this.decoded.keys()) {
          this.decoded.delete(k);
          if (this.decoded.size < DECODED_KEPT * 0.9) break;
        }
      }
      this.decoded.set(key, value);
      return value as TopicValues[T];
    } catch {
      return LATER;
    }
  }

  /** Decodes one value; a payload the codec cannot read goes to the dead-letter topic and reads as absent. */
  private async decode<T extends TopicName>(
    topic: T,
    partition: number,
    m: KafkaMessage,
  ): Promise<{ ok: true; value: TopicValues[T] | null } | { ok: false }> {
    if (m.value === null) return { ok: true, value: null };
    try {
      const decoded = this.codec.decode(topic, m.value);
      return { ok: true, value: (decoded instanceof Promise ? await decoded : decoded) as TopicValues[T] };
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.deadLettered++;
      await this.producer().send(
        TOPICS.deadLetter,
        [
          {
            key: `${topic}:${partition}:${m.offset}`,
            value: {
              topic,
              partition,
              offset: Number(m.offset),
              key: m.key?.toString() ?? '',
              reason: reason.slice(0, 2000),
              payloadBase64: m.value.toString('base64'),
              at: Date.now(),
            },
          },
        ],
        // Written while the batch is decoded, before its handler runs, and never fenced: a new owner of
        // the partition letters the record again, a duplicate in a topic that people read.
        NO_BATCH,
      );
      return { ok: false };
    }
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
   * Makes every configured topic exist (`topics.ts`): missing ones are created with their
   * partition counts and cleanup policies; a cluster that refuses CreateTopics is accepted only
   * if its brokers auto-create topics on first use. Rejects with `TopicsUnavailableError` when
   * topics are missing and cannot be created, or are narrower than configured. Runs once per
   * bus; the runtime awaits it at start and logs the report, so nothing here fails in silence.
   */
  ensureTopics(): Promise<TopicReport> {
    this.topicsReady ??= ensureTopics(this.topicAdmin(), this.configs);
    return this.topicsReady;
  }

  private topicAdmin(): TopicAdmin {
    return {
      partitionCounts: async (topics) => {
        const admin = await this.admin();
        const existing = new Set(await admin.listTopics());
        const present = topics.filter((t) => existing.has(t));
        if (present.length === 0) return new Map();
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: present });
        return new Map(metadata.map((t) => [t.name, t.partitions.length]));
      },
      create: async (topics) => {
        const admin = await this.admin();
        // A cluster whose metadata names no controller among its brokers cannot take CreateTopics
        // (librdkafka's mock cluster): say so at once instead of retrying for half a minute.
        const { brokers, controller } = await admin.describeCluster();
        if (controller === null || !brokers.some((b) => b.nodeId === controller))
          throw new Error(`the cluster names no controller among its brokers (controller id ${String(controller)})`);
        await admin.createTopics({
          waitForLeaders: true,
          topics: topics.map(({ topic, partitions, compacted }) => ({
            topic,
            numPartitions: partitions,
            configEntries: [{ name: 'cleanup.policy', value: compacted ? 'compact' : 'delete' }],
          })),
        });
      },
      cleanupPolicies: async (topics) => {
        const admin = await this.admin();
        const { resources } = await admin.describeConfigs({
          includeSynonyms: false,
          // kafkajs's ConfigResourceTypes.TOPIC: the enum is not among the package's ESM named exports.
          resources: topics.map((name) => ({ type: 2 as ConfigResourceTypes, name, configNames: ['cleanup.policy'] })),
        });
        return new Map(
          resources.map((r) => [r.resourceName, r.configEntries.find((c) => c.configName === 'cleanup.policy')?.configValue ?? 'unknown']),
        );
      },
      logStarts: async (topic) => {
        const admin = await this.admin();
        return (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, logStart: Number(p.low) }));
      },
      autoCreate: async (topics) => {
        // A metadata request that allows auto-creation, which kafkajs's admin never sends: a
        // producer's, for no messages.
        const producer = this.kafka.producer({ allowAutoTopicCreation: true, retry: { retries: 3, initialRetryTime: 100 } });
        await producer.connect();
        try {
          await producer.sendBatch({ topicMessages: topics.map((topic) => ({ topic, messages: [] })) });
        } finally {
          await producer.disconnect();
        }
      },
    };
  }

  private producerClient(): Promise<KafkaProducer> {
    this.producerPromise ??= (async () => {
      await this.ensureTopics();
      await this.prepareCodec();
      const producer = this.kafka.producer({ allowAutoTopicCreation: true });
      await producer.connect();
      return producer;
    })();
    return this.producerPromise;
  }

  /**
   * Sends issued during one turn of the event loop (a stage's partitions finishing together,
   * several stages at once) go out as one produce request: one round trip and one socket write
   * instead of one per partition and topic. Each caller still resolves only once its records
   * are acknowledged by all in-sync replicas (acks -1).
   */
  producer(): Producer {
    return {
      send: async <T extends TopicName>(topic: T, records: readonly OutgoingRecord<T>[], hold: PartitionHold) => {
        if (records.length === 0) return;
        const partitions = this.configs[topic].partitions;
        if (!this.codecReady) await this.prepareCodec();
        await this.codecReady;
        const messages: Message[] = new Array<Message>(records.length);
        for (let i = 0; i < records.length; i++) {
          const r = records[i] as OutgoingRecord<T>;
          const encoded = r.value === null ? null : this.codec.encode(topic, r.value);
          messages[i] = {
            key: r.key,
            value: encoded instanceof Promise ? await encoded : encoded,
            partition: partitionFor(r.partitionKey ?? r.key, partitions),
            ...(r.timestamp === undefined ? {} : { timestamp: String(r.timestamp) }),
          };
        }
        // Last, right before the records join the request: encoding may have waited.
        assertHeld(hold);
        await this.lingered(topic, messages);
      },
    };
  }

  private lingering: { topics: Map<string, Message[]>; sent: Promise<void> } | null = null;

  private lingered(topic: string, messages: Message[]): Promise<void> {
    let batch = this.lingering;
    if (!batch) {
      const topics = new Map<string, Message[]>();
      const sent = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          this.lingering = null;
          this.producerClient()
            .then((producer) => producer.sendBatch({ acks: -1, topicMessages: [...topics].map(([t, m]) => ({ topic: t, messages: m })) }))
            .then(() => resolve(), reject);
        });
      });
      batch = this.lingering = { topics, sent };
    }
    const list = batch.topics.get(topic);
    if (list) for (const m of messages) list.push(m);
    else batch.topics.set(topic, messages);
    return batch.sent;
  }

  async readToEnd<T extends TopicName>(topic: T, handle: (records: readonly BusRecord<T>[]) => void, scope: ReadScope = {}): Promise<void> {
    await this.ensureTopics();
    await this.prepareCodec();
    const admin = await this.admin();
    let ends: Map<number, number>;
    try {
      ends = new Map(
        (await admin.fetchTopicOffsets(topic)).map((p) => [
          p.partition,
          Math.min(Number(p.high), scope.before?.(p.partition) ?? Number.POSITIVE_INFINITY),
        ]),
      );
    } catch {
      return; // no such topic yet: nothing to restore
    }
    const wanted = scope.partitions ? new Set(scope.partitions) : null;
    const from = (partition: number): number => scope.from?.(partition) ?? 0;
    const remaining = new Set([...ends].filter(([p, high]) => high > from(p) && (wanted?.has(p) ?? true)).map(([p]) => p));
    if (remaining.size === 0) return;
    // kafkajs reads only as a group member: a throwaway group that never commits, deleted after.
    const groupId = `restore-${topic}-${randomUUID()}`;
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: this.sessionTimeoutMs,
      heartbeatInterval: Math.max(100, Math.floor(this.sessionTimeoutMs / 10)),
      maxWaitTimeInMs: 50,
      maxBytes: MAX_FETCH_BYTES,
    });
    let finish: () => void = () => {};
    let fail: (e: unknown) => void = () => {};
    const done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch, resolveOffset }) => {
          if (!remaining.has(batch.partition)) return; // not asked for, or already read to its end
          const end = ends.get(batch.partition) ?? 0;
          const records: BusRecord<T>[] = [];
          const decodedSlot = this.decodedSlot(topic, batch.partition);
          for (const m of batch.messages) {
            const offset = Number(m.offset);
            if (offset >= end) break;
            if (offset < from(batch.partition)) continue;
            let value = this.decodeNow(topic, decodedSlot, offset, m);
            if (value === LATER) {
              const decoded = await this.decode(topic, batch.partition, m);
              value = decoded.ok ? decoded.value : LATER;
            }
            if (value !== LATER)
              records.push({
                topic,
                partition: batch.partition,
                offset,
                key: m.key?.toString() ?? '',
                value,
                timestamp: Number(m.timestamp),
              });
            resolveOffset(m.offset);
          }
          try {
            if (records.length > 0) handle(records);
          } catch (e) {
            fail(e);
          }
          const last = records[records.length - 1];
          if (
            last === undefined ? Number(batch.highWatermark) >= end && end <= Number(batch.firstOffset() ?? end) : last.offset + 1 >= end
          ) {
            remaining.delete(batch.partition);
            if (remaining.size === 0) finish();
          }
        },
      });
      for (const partition of remaining) if (from(partition) > 0) consumer.seek({ topic, partition, offset: String(from(partition)) });
      await done;
    } finally {
      await consumer.disconnect();
      await admin.deleteGroups([groupId]).catch(() => undefined);
    }
  }

  consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T> {
    const topics = topicsOf(options);
    const heartbeatMs = Math.max(100, Math.floor(this.sessionTimeoutMs / 10));
    /**
     * How long a member that gained partitions waits for their previous owner's last commits
     * before reading where to resume them (two heartbeats, at most 2 s).
     */
    const handoffMs = Math.min(2000, 2 * heartbeatMs);
    const consumer: KafkaConsumer = this.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: this.sessionTimeoutMs,
      rebalanceTimeout: this.sessionTimeoutMs,
      heartbeatInterval: heartbeatMs,
      // Partition p of every topic to one member: a stage reading co-partitioned topics owns
      // whole events. A one-topic group needs no co-partitioning and keeps kafkajs's own
      // assigner: where the topics were auto-created at the broker's default count (librdkafka's
      // mock cluster refuses kafkajs's CreateTopics, so every topic there has 4 partitions), the
      // co-partitioned assigner's check against the configured count refused the one-partition
      // `accounts` group and key changes stopped reaching other replicas.
      ...(topics.length > 1
        ? { partitionAssigners: [coPartitionedAssigner(Object.fromEntries(topics.map((t) => [t, this.configs[t].partitions])))] }
        : {}),
      // A consumer that lost the brokers (its retries, the client's 8 from 100 ms, exhausted)
      // crashes for good instead of kafkajs restarting it forever; other retriable crashes (a
      // rebalance race between members) restart. A crash that is not restarted fails the stage.
      retry: { retries: 8, initialRetryTime: 100, restartOnFailure: async (e) => !lostTheBrokers(e) },
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
    // Whether a batch's outputs are written only while this member holds its partition: not in a
    // group that never commits (no new owner resumes before the batch: dropping it would lose
    // it), nor in one this process has alone.
    const fenced = commit && (options.shared ?? true);
    const minBatch = options.minBatchSize ?? 1;
    const maxWait = options.maxWaitMs ?? 0;
    const slot = (topic: string, partition: number): string => `${topic}:${partition}`;
    const lastDelivery = new Map<string, number>();
    const positions = new Map<string, number>();
    let assigned = new Set<number>();
    /** The first assignment always reaches onAssign, even an empty one (a stage is then ready). */
    let firstJoin = true;
    /** Rejoins since the last completed join, after the group refused this member for good. */
    let rejoins = 0;
    /** Settles once the state of the latest assignment is rebuilt (onRevoke / onAssign ran). */
    let assignmentReady: Promise<void> = Promise.resolve();
    let lag = 0;
    let lagTimer: NodeJS.Timeout | null = null;
    let flushTimer: NodeJS.Timeout | null = null;
    let stopping: Promise<void> | null = null;
    /** Wait for the batches being handled and for the commits on their way (set once the consumer runs). */
    let drainAll: () => Promise<void> = async () => undefined;
    let flushCommits: () => Promise<void> = async () => undefined;
    let settle: { resolve: () => void; reject: (e: unknown) => void } = { resolve: () => {}, reject: () => {} };
    const done = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });

    const refreshLag = async (): Promise<void> => {
      try {
        const admin = await this.admin();
        const [highs, committed] = await Promise.all([
          Promise.all(topics.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) }))),
          admin.fetchOffsets({ groupId: options.groupId, topics: [...topics] }),
        ]);
        // A group that never commits is measured by where this consumer got to.
        const committedBy = commit
          ? new Map(committed.flatMap((t) => t.partitions.map((p) => [slot(t.topic, p.partition), Number(p.offset)] as const)))
          : positions;
        lag = highs.reduce(
          (total, { topic, partitions }) =>
            total +
            partitions.reduce((sum, p) => {
              const c = committedBy.get(slot(topic, p.partition)) ?? -1;
              return sum + Math.max(0, Number(p.high) - (c < 0 ? Number(p.low) : c));
            }, 0),
          0,
        );
      } catch {
        // Lag is advisory; the next refresh will try again.
      }
    };

    const fail = (e: unknown): void => {
      settle.reject(e);
      void stop();
    };
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        if (lagTimer) clearInterval(lagTimer);
        if (flushTimer) clearInterval(flushTimer);
        await drainAll();
        await flushCommits();
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
      // A consumer that is stopping, stopped or failed owns nothing, even before the group notices:
      // a caller deciding who delivers (the alert lease) must not act on a dead member's partitions.
      assignment: () => (stopping ? [] : [...assigned].sort((a, b) => a - b)),
      stop,
      run: (handler: (batch: RecordBatch<T>) => Promise<void>) => {
        // Per topic-partition: records fetched and not yet handed over, and the offset after the
        // last one accepted (a refetch after a rejoin, which starts again from the commit, is not
        // handed over twice). eachBatch only queues, so kafkajs fetches on while the handler
        // works: what arrives meanwhile goes out as the next, bigger, batch. Brokers honour
        // fetch.min.bytes unevenly (librdkafka's mock cluster answers each fetch with one
        // producer batch), so the queue also gathers up to `minBatchSize` or `maxWaitMs`.
        interface Slot {
          topic: T;
          partition: number;
          pending: KafkaMessage[];
          next: number;
          draining: Promise<void> | null;
          /** Lost at the rebalance that deletes this slot: the outputs of a batch still in the handler are not written then. */
          hold: { lost: boolean };
        }
        const slots = new Map<string, Slot>();
        /** Where gained partitions resume, read after the handoff (slot key -> offset). */
        const floors = new Map<string, number>();
        const queueLimit = Math.max(minBatch, maxBatch) * 2;
        const slotOf = (topic: T, partition: number, first: number): Slot => {
          const key = slot(topic, partition);
          let s = slots.get(key);
          if (!s) {
            s = { topic, partition, pending: [], next: floors.get(key) ?? first, draining: null, hold: { lost: false } };
            slots.set(key, s);
          }
          return s;
        };
        const draining = (): Promise<void>[] => [...slots.values()].flatMap((s) => (s.draining ? [s.draining] : []));
        /** Until no partition is being handled (a drain that ends may have let another start). */
        const quiesced = async (): Promise<void> => {
          for (let busy = draining(); busy.length > 0; busy = draining()) await Promise.all(busy.map((d) => d.catch(() => undefined)));
        };
        // Commits are coalesced: one in flight per consumer, carrying the latest offset of every
        // partition that finished a batch meanwhile. A commit the group refuses (a rebalance in
        // progress: librdkafka's mock cluster refuses every commit then, Kafka those of an older
        // generation) is owed, and retried until it lands in the next generation. For a partition
        // this member gave up, only within the handoff window: the new owner reads where to
        // resume after that window, and a later commit would move its offset back.
        const toCommit = new Map<string, { topic: string; partition: number; offset: string }>();
        const owedUntil = new Map<string, number>();
        let committing: Promise<void> | null = null;
        const commitSoon = (topic: string, partition: number, offset: number): void => {
          toCommit.set(slot(topic, partition), { topic, partition, offset: String(offset) });
          committing ??= (async () => {
            while (toCommit.size > 0) {
              for (const [key, o] of toCommit) {
                if (!assigned.has(o.partition) && (owedUntil.get(key) ?? 0) < Date.now()) toCommit.delete(key);
              }
              const offsets = [...toCommit.values()];
              toCommit.clear();
              if (offsets.length === 0) break;
              try {
                await consumer.commitOffsets(offsets);
              } catch {
                if (stopping) break;
                for (const o of offsets) {
                  const key = slot(o.topic, o.partition);
                  if (!toCommit.has(key)) toCommit.set(key, o);
                }
                await new Promise((r) => setTimeout(r, 100));
              }
            }
            committing = null;
          })();
        };
        flushCommits = async () => {
          while (committing) await committing;
        };
        drainAll = quiesced;
        const deliver = async (s: Slot, slice: readonly KafkaMessage[]): Promise<void> => {
          const { topic, partition } = s;
          const records: BusRecord<T>[] = [];
          const decodedSlot = this.decodedSlot(topic, partition);
          for (const m of slice) {
            const offset = Number(m.offset);
            let value = this.decodeNow(topic, decodedSlot, offset, m);
            if (value === LATER) {
              // Undecodable: to the dead-letter topic with the reason; the stage keeps going.
              const decoded = await this.decode(topic, partition, m);
              value = decoded.ok ? decoded.value : LATER;
            }
            if (value !== LATER)
              records.push({
                topic,
                partition,
                offset,
                key: m.key?.toString() ?? '',
                value,
                timestamp: Number(m.timestamp),
              });
          }
          if (records.length > 0) {
            // Its outputs, which name its hold, are written only while this member holds the partition
            // (batch-ownership.ts).
            const batch: RecordBatch<T> = { topic, partition, records, hold: fenced ? s.hold : NO_BATCH };
            try {
              await handler(batch);
            } catch (e) {
              // Lost meanwhile: dropped, not committed; the new owner resumes before it.
              if (e instanceof PartitionLostError && s.hold.lost) return;
              throw e;
            }
          }
          const next = Number(slice[slice.length - 1]?.offset ?? -1) + 1;
          positions.set(slot(topic, partition), next);
          if (commit) commitSoon(topic, partition, next);
        };
        const due = (s: Slot): boolean =>
          s.pending.length > 0 &&
          (s.pending.length >= minBatch || Date.now() - (lastDelivery.get(slot(s.topic, s.partition)) ?? 0) >= maxWait);
        /** Hands a partition's queue to the handler, in order, never more than `maxBatchSize` at once. */
        const kick = (s: Slot): void => {
          if (s.draining || !due(s)) return;
          s.draining = (async () => {
            try {
              while (!stopping && assigned.has(s.partition) && slots.get(slot(s.topic, s.partition)) === s && due(s)) {
                lastDelivery.set(slot(s.topic, s.partition), Date.now());
                await deliver(s, s.pending.splice(0, maxBatch));
              }
            } catch (e) {
              fail(e);
            } finally {
              s.draining = null;
            }
          })();
        };
        const flushDue = (): void => {
          for (const s of slots.values()) kick(s);
        };
        // Rebalanced. The previous owner of a partition finishes what it handed over and commits
        // it (into the new generation if the group refused it during the rebalance); a member
        // that gained partitions waits `handoffMs` for those commits, then reads where the group
        // resumes them: its state is rebuilt up to there and delivery starts there, so a batch
        // the previous owner wrote is not written again. A batch the previous owner is still
        // handling then writes nothing more and is not committed (batch-ownership.ts): the new
        // owner writes it, and no older output lands after the new owner's. Lost partitions'
        // state is dropped.
        consumer.on(consumer.events.GROUP_JOIN, (event) => {
          rejoins = 0;
          const now = new Set(topics.flatMap((t) => event.payload.memberAssignment[t] ?? []));
          const lost = [...assigned].filter((p) => !now.has(p)).sort((a, b) => a - b);
          const gained = [...now].filter((p) => !assigned.has(p)).sort((a, b) => a - b);
          assigned = now;
          for (const [key, s] of slots) {
            if (now.has(s.partition)) continue;
            slots.delete(key);
            s.hold.lost = true;
            owedUntil.set(key, Date.now() + handoffMs / 2);
          }
          if (lost.length === 0 && gained.length === 0 && !firstJoin) return;
          firstJoin = false;
          const previous = assignmentReady;
          assignmentReady = (async () => {
            await previous.catch(() => undefined);
            await quiesced();
            if (lost.length > 0) options.onRevoke?.(lost);
            const committed = new Map<string, number>();
            if (gained.length > 0) {
              // A group that never commits (API views) has nothing to hand over.
              if (commit) await new Promise((r) => setTimeout(r, handoffMs));
              const admin = await this.admin();
              for (const t of await admin.fetchOffsets({ groupId: options.groupId, topics: [...topics] })) {
                for (const p of t.partitions) {
                  if (!gained.includes(p.partition)) continue;
                  const offset = Math.max(0, Number(p.offset));
                  committed.set(slot(t.topic, p.partition), offset);
                  if (commit) floors.set(slot(t.topic, p.partition), offset);
                }
              }
            }
            await options.onAssign?.(gained, (topic, partition) => committed.get(slot(topic, partition)) ?? 0);
          })();
          assignmentReady.catch(fail);
        });
        // A crashed client disconnects before anything else, restarted by kafkajs or rejoined
        // below: the member left the group, and it joins again as a new one. Meanwhile the group
        // may hand its partitions to others, and a commit it still sent went nowhere (kafkajs
        // drops a commit silently while its runner is stopped). So everything it held is lost, as
        // at a rebalance that took it all: the join that follows gains its assignment afresh, and
        // delivery resumes from the group's commit with the partitions' state rebuilt. Kept, a
        // queue skipped the records between the commit and what it had taken, and they were never
        // committed: the group's lag stayed above 0 until newer records came, and at the end of
        // input for good (pipeline/bus/rejoin-lost-commit.test.ts).
        const leftTheGroup = (): void => {
          const lost = [...assigned].sort((a, b) => a - b);
          assigned = new Set();
          for (const [key, s] of slots) {
            slots.delete(key);
            s.hold.lost = true;
            owedUntil.set(key, Date.now() + handoffMs / 2);
          }
          if (lost.length === 0) return;
          const previous = assignmentReady;
          assignmentReady = (async () => {
            await previous.catch(() => undefined);
            await quiesced();
            options.onRevoke?.(lost);
          })();
          assignmentReady.catch(fail);
        };
        // kafkajs gives up on a consumer (no restart) when it lost the brokers or met a
        // non-retriable protocol error (a JoinGroup refused for an inconsistent protocol, a
        // SyncGroup answered INVALID_REQUEST...). The group then hands this member's partitions
        // to the others while this process would serve what it had, frozen: fail the stage, so
        // health says down and the process exits for its supervisor to restart it.
        // A refusal can be a passing one (librdkafka's mock cluster answers a SyncGroup that
        // races another member's join with INVALID_REQUEST): the member rejoins from scratch,
        // REJOINS times in a row at most, before its stage fails. While two processes start
        // together the group rebalances again and again, so a member can be refused many times
        // over its life without ever being refused twice in a row. Losing the
        // brokers fails at once (the client already retried), and so do topics that are not
        // co-partitioned as configured (no rejoin changes them).
        consumer.on(consumer.events.CRASH, (event) => {
          if (stopping) return;
          if (commit) leftTheGroup();
          if (event.payload.restart) return;
          if (rejoins >= REJOINS || lostTheBrokers(event.payload.error) || misconfigured(event.payload.error)) {
            fail(event.payload.error);
            return;
          }
          rejoins++;
          this.onRejoin({ groupId: options.groupId, attempt: rejoins, reason: messageOf(event.payload.error) });
          setTimeout(() => {
            if (!stopping) join().catch(fail);
          }, 200 * rejoins);
        });
        const join = async (): Promise<void> => {
          await consumer.connect();
          await consumer.subscribe({ topics: [...topics], fromBeginning: options.fromBeginning });
          await consumer.run(runConfig);
        };
        const start = async (): Promise<void> => {
          await this.ensureTopics();
          await this.prepareCodec();
          await refreshLag();
          lagTimer = setInterval(() => void refreshLag(), this.lagRefreshMs);
          if (minBatch > 1 && maxWait > 0) flushTimer = setInterval(flushDue, Math.max(10, Math.floor(maxWait / 4)));
          await join();
        };
        const runConfig: ConsumerRunConfig = {
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: topics.reduce((n, t) => n + this.configs[t].partitions, 0),
          eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
            if (!isRunning() || isStale() || batch.messages.length === 0) return;
            // A restore can take longer than the session: keep the membership alive meanwhile.
            let restored = false;
            const ready = assignmentReady.then(
              () => {
                restored = true;
              },
              () => {
                restored = true;
              },
            );
            while (!restored) {
              await Promise.race([ready, new Promise((r) => setTimeout(r, heartbeatMs))]);
              if (!restored) await heartbeat();
            }
            if (!assigned.has(batch.partition) || isStale() || stopping) return;
            const first = batch.messages[0];
            const last = batch.messages[batch.messages.length - 1];
            if (!first || !last) return;
            const s = slotOf(batch.topic as T, batch.partition, Number(first.offset));
            for (const m of batch.messages) if (Number(m.offset) >= s.next) s.pending.push(m);
            s.next = Math.max(s.next, Number(last.offset) + 1);
            resolveOffset(last.offset);
            kick(s);
            // Backpressure: a partition whose handler falls behind stops its fetching here (the
            // heartbeat keeps the membership, and a rebalance still gets through).
            while (s.pending.length >= queueLimit && slots.get(slot(s.topic, s.partition)) === s && !stopping) {
              await Promise.race([s.draining ?? Promise.resolve(), new Promise((r) => setTimeout(r, heartbeatMs))]);
              kick(s);
              await heartbeat();
            }
          },
        };
        start().catch(fail);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
    if (this.producerPromise) await (await this.producerPromise).disconnect();
    if (this.adminPromise) await (await this.adminPromise).disconnect();
  }
}
