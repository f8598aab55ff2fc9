import type { Logger } from 'pino';
import type { TopicName } from '../../schemas/index.js';
import type { Bus, BusRecord, CommittedOffsets, Producer, RecordBatch } from '../bus/index.js';
import type { Clock } from '../clock.js';
import type { TableSinks } from './table-sinks.js';

/**
 * One stage of the pipeline as data: the consumer group it is, the topics it reads and writes,
 * the tables it fills, the state it keeps and the handler of its batches. `runStageTable`
 * (pipeline/runner.ts) runs a list of them; nothing else about a stage is wired by hand.
 */
export interface StageSpec<T extends TopicName = TopicName> {
  /** Its name in `stats().lag` / `stats().partitions`, the lag metric and the logs. */
  readonly name: string;
  readonly groupId: string;
  /** One topic, or several co-partitioned ones read by the one group. */
  readonly input: T | readonly T[];
  /** The topics it produces to, in the order it sends to them within a batch. */
  readonly output: readonly TopicName[];
  /** The tables it writes, in the order it writes them within a batch. */
  readonly tables: readonly string[];
  /** Sink batching; absent, a batch is whatever the bus has ready. */
  readonly batching?: SinkBatching;
  readonly state?: StageState;
  /**
   * Handles one batch. Each output it writes for the batch, a send or a table write, names the
   * batch's hold (`batch.hold`): on Kafka it throws once a rebalance gave the partition to another
   * member, and the batch is dropped for that member to handle (pipeline/bus/batch-ownership.ts).
   */
  handle(records: readonly BusRecord<T>[], batch: RecordBatch<T>): Promise<void>;
}

/** What a stage keeps between batches, and how it is rebuilt. */
export interface StageState {
  /** Loaded once before any stage starts: state the stage's group does not partition (yet). */
  load?: () => Promise<void>;
  /**
   * Rebuilds the state of the partitions just assigned, before their records reach the stage:
   * counted in the pipeline's lag while it runs, and the pipeline is ready only once the first
   * one of every stage that has one finished.
   */
  restore?: (partitions: readonly number[], committed: CommittedOffsets) => Promise<void>;
  /** Bookkeeping at an assignment that rebuilds nothing (neither counted nor waited for). */
  assign?: (partitions: readonly number[]) => Promise<void>;
  /** Drops what the stage kept of partitions it lost. */
  revoke?: (partitions: readonly number[]) => void;
}

/** Kafka's fetch.min.bytes / fetch.max.wait.ms in records, and a bound per batch. */
export interface SinkBatching {
  minBatchSize: number;
  maxWaitMs: number;
  maxBatchSize: number;
}

/** What every stage is built on. */
export interface StageContext {
  bus: Bus;
  /** Every send names a hold: the batch's it writes for, or `NO_BATCH` for the process's own records. */
  producer: Producer;
  clock: Clock;
  logger: Logger;
  /** Every write names a hold, as a send does. */
  sinks: TableSinks;
  /** Batching of the table sinks that take the big topics (ticks, the changelog). */
  sinkBatching: SinkBatching;
}

/** Whether a batch of a multi-topic stage came from `topic` (its records then carry that topic's values). */
export function isFrom<K extends TopicName>(batch: RecordBatch<TopicName>, topic: K): batch is RecordBatch<K> {
  return batch.topic === topic;
}
