import type { TopicName, TopicValues } from '../../schemas/index.js';
import type { PartitionHold } from './batch-ownership.js';

/** One record as a consumer sees it. `value: null` is a tombstone on a compacted topic. */
export interface BusRecord<T extends TopicName> {
  topic: T;
  partition: number;
  offset: number;
  key: string;
  value: TopicValues[T] | null;
  timestamp: number;
}

export interface OutgoingRecord<T extends TopicName> {
  /** Record key: what a compacted topic keeps the latest value of. */
  key: string;
  /** Chooses the partition when it must differ from `key` (e.g. event id for snapshot rows). */
  partitionKey?: string;
  value: TopicValues[T] | null;
  timestamp?: number;
}

export interface Producer {
  /**
   * Resolves once the bus accepted the records; waits while consumers are too far behind.
   * `hold`: the hold of the batch the records are written for (`RecordBatch.hold`), or
   * `NO_BATCH`. Once that hold is lost the send throws `PartitionLostError` and writes nothing
   * (batch-ownership.ts).
   */
  send<T extends TopicName>(topic: T, records: readonly OutgoingRecord<T>[], hold: PartitionHold): Promise<void>;
}

export interface RecordBatch<T extends TopicName> {
  topic: T;
  partition: number;
  records: readonly BusRecord<T>[];
  /**
   * This member's hold on the batch's partition: what every output written for the batch names
   * (batch-ownership.ts). `NO_BATCH` on a bus or in a group where no other member can take the
   * partition over.
   */
  hold: PartitionHold;
}

export interface ConsumerOptions<T extends TopicName> {
  groupId: string;
  /**
   * One topic, or several co-partitioned ones (same key, same partition count): the group then
   * assigns partition p of every topic to the same member, so one member owns all of an event's
   * records whichever topic they come on.
   */
  topic: T | readonly T[];
  /** Where a group with no committed offset starts: the earliest retained record or the end. */
  fromBeginning: boolean;
  maxBatchSize?: number;
  /**
   * Kafka's fetch.min.bytes / fetch.max.wait.ms in records: a partition with fewer pending
   * records than `minBatchSize` is delivered only once `maxWaitMs` passed since its last
   * delivery. Lets a sink insert big batches about once a second instead of many tiny ones.
   */
  minBatchSize?: number;
  maxWaitMs?: number;
  /**
   * false: never commit. For readers that rebuild in-memory state from a compacted changelog at
   * every start (API views): their group id can then stay the same across restarts without the
   * restart resuming past the state it must rebuild, and no offsets are left behind.
   */
  commit?: boolean;
  /**
   * false: the group is this process's alone (an API replica's own groups), so no rebalance hands
   * its partitions to another member mid-batch: its batches carry `NO_BATCH` and their outputs are
   * not checked for that (`batch-ownership.ts`).
   */
  shared?: boolean;
  /**
   * Called with the partitions this member gained at each assignment (the first one included),
   * before any of their records is delivered: where a stateful stage rebuilds the state of those
   * partitions from its changelogs. `committed` says where the group will resume each of them:
   * replaying its inputs up to there rebuilds exactly the state the previous owner had then. Delivery of those partitions waits until it resolves; a
   * rejection fails the consumer.
   */
  onAssign?: (partitions: readonly number[], committed: CommittedOffsets) => Promise<void>;
  /** Called with the partitions this member lost at a rebalance, once no batch of theirs is in a handler. */
  onRevoke?: (partitions: readonly number[]) => void;
}

/** The offset a group resumes a topic-partition from (0 when it never committed one). */
export type CommittedOffsets = (topic: TopicName, partition: number) => number;

/** What part of a topic `readToEnd` reads: some partitions, each from an offset (inclusive) up to another (exclusive). */
export interface ReadScope {
  partitions?: readonly number[];
  /** Where to start reading each partition; its beginning when absent. */
  from?: (partition: number) => number;
  before?: (partition: number) => number;
}

/** The topics a consumer reads, as a list. */
export function topicsOf<T extends TopicName>(options: Pick<ConsumerOptions<T>, 'topic'>): readonly T[] {
  return typeof options.topic === 'string' ? [options.topic as T] : (options.topic as readonly T[]);
}

export interface Consumer<T extends TopicName> {
  /**
   * Starts delivering batches; the next batch of a partition is fetched only after the handler
   * resolved, and the offset is committed only then (at-least-once). A handler that throws
   * stops the consumer and rejects `done`: operational errors are the handler's to retry. On
   * Kafka, a batch whose partition a rebalance gave another member while it was in the handler
   * writes nothing after that: its next send or table write, which names the batch's `hold`,
   * throws, and the batch is dropped uncommitted, for the new owner to handle
   * (`batch-ownership.ts`).
   */
  run(handler: (batch: RecordBatch<T>) => Promise<void>): void;
  /** Resolves when the consumer stopped. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
  /** Records produced but not yet committed by this consumer's group, over all partitions. */
  lag(): number;
  /** The partitions this consumer owns now (the group may share the topics among members). */
  assignment(): number[];
}

export interface Bus {
  producer(): Producer;
  consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T>;
  /**
   * Reads a topic from its beginning to the end it had when called, every partition, outside
   * any consumer group (nothing committed, nothing left behind): how a processor rebuilds its
   * state from a compacted changelog before it consumes input. `scope`: only some partitions
   * (those a stage was just assigned), each only up to an offset (where its group resumes).
   */
  readToEnd<T extends TopicName>(topic: T, handle: (records: readonly BusRecord<T>[]) => void, scope?: ReadScope): Promise<void>;
  close(): Promise<void>;
}
