import type { GroupCommit, MemoryBusImage, OutgoingRecord, StoredRecord } from '../pipeline/bus/index.js';
import type { PipelineStats } from '../pipeline/pipeline.js';
import type { StoreRow } from '../pipeline/store/index.js';
import { TOPICS } from '../schemas/index.js';
import type { TopicName } from '../schemas/index.js';
import type { Config } from './config.js';

/**
 * What the API thread and the pipeline worker (PIPELINE_THREAD=worker) say to each other. The
 * worker's bus is the home of the whole log (it saves it in DATA_DIR); the API thread holds a copy
 * of the topics it reads, appended at the same offsets, and asks the worker to produce for it.
 * The embedded store stays on the API thread (chDB runs one engine per process): the worker's
 * sinks and the closing stage reach it by message.
 */

/** A store call's failure as it crosses threads: the store adapter's classification, carried unchanged (StoreError). */
export interface StoreFailure {
  message: string;
  retryable: boolean;
  unreachable: boolean;
}

/** Given to the worker at its start. */
export interface PipelineWorkerData {
  config: Config;
  /** The API thread's logger level: the worker logs through its own logger at the same one. */
  logLevel: string;
  /**
   * 'api': the API thread's clock leads (a test's manual clock): the worker's follows the time
   * every message from the API thread carries. 'worker': the worker's own clock leads (the wall
   * clock, or a replay's), and the API thread's manual clock follows the time of each record batch.
   */
  clockLeads: 'api' | 'worker';
  /** The API thread's time at the start (the worker's clock starts there when the API thread's leads). */
  now: number;
  /** The feed runs on the API thread (a test's feed object cannot cross threads): the worker runs none. */
  feedOnApiThread: boolean;
}

/** Records appended on the worker's bus, per topic-partition in offset order, as one message per event-loop turn. */
export interface RecordsBatch {
  topic: TopicName;
  partition: number;
  records: StoredRecord[];
}

export type StoreCall =
  | { op: 'exec'; sql: string }
  | { op: 'insert'; table: string; rows: StoreRow[] }
  /** The embedded store's insert text, built in the worker and moved (not copied) to the API thread. */
  | { op: 'insertLines'; table: string; columns: string[]; bytes: Uint8Array }
  | { op: 'query'; sql: string; params?: Record<string, unknown> };

export type FromWorker =
  /** The worker's log as it opened (new, or continued from the saved one): the API thread's copy starts as it. */
  | { t: 'opened'; image: MemoryBusImage; restored: boolean }
  | { t: 'records'; now: number; batches: RecordsBatch[] }
  /** A `send` of the API thread is on the log, and its records were passed back before this. */
  | { t: 'sent'; id: number; error: string | null }
  | { t: 'store'; id: number; call: StoreCall }
  /** Every stage went through its first assignment. */
  | { t: 'ready' }
  /** Sent every `STATUS_MS`: also how the API thread knows the worker still answers. */
  | { t: 'status'; now: number; lag: number; stats: PipelineStats }
  | { t: 'drained'; id: number; ok: boolean }
  /** A stage cannot continue (the failure policy's fatal case). */
  | { t: 'fatal'; reason: string }
  /** The pipeline stopped and the log was saved: the worker ends. */
  | { t: 'stopped' };

export type ToWorker =
  /** The API thread made its copy of the log (and emptied the latest-odds table of a new log): start the stages. */
  | { t: 'go' }
  /** Start the feed (every part of the system is up). */
  | { t: 'input' }
  | { t: 'send'; id: number; now: number; topic: TopicName; records: OutgoingRecord<TopicName>[] }
  | { t: 'stored'; id: number; value: unknown; error: StoreFailure | null }
  | { t: 'clock'; now: number }
  | { t: 'drain'; id: number; timeoutMs: number; stopFeed: boolean }
  /**
   * How far the API thread's copy is behind: `received` records taken in so far (of every
   * `records` message), `unread` of them not yet read by all its groups (the views).
   */
  | { t: 'behind'; received: number; unread: number }
  /** Stop the feed and the stages, keep the API thread's committed offsets, save the log. */
  | { t: 'stop'; commits: GroupCommit[] };

/** How often the worker reports its lag and counters; the API thread's figures are at most this old. */
export const STATUS_MS = 250;

/**
 * The worker's producers (the feed first) wait while the API thread's copy is more than this many
 * records behind: on their way there, or there and not yet applied by its views. Without it a
 * stalled API thread let the copy grow without bound while the feed ran on. At the views' tens
 * of microseconds a record, the bound is a few hundred ms of their work.
 */
export const COPY_HIGH_WATER_RECORDS = 20_000;

/** How often the API thread tells the worker how far behind its copy is (when that changed). */
export const BEHIND_REPORT_MS = 20;

/** A worker silent this long (no status, no records) is taken as hung: the process fails. */
export const SILENT_WORKER_MS = 10_000;

/**
 * Topics only the pipeline reads: they stay in the worker. Every other topic's records are
 * passed to the API thread (its views, accounts and bets read them).
 */
export const PIPELINE_ONLY_TOPICS: ReadonlySet<TopicName> = new Set<TopicName>([
  TOPICS.rawTicks,
  TOPICS.ticks,
  TOPICS.rawGameState,
  TOPICS.deadLetter,
]);
