import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { MemoryBus, assertHeld } from '../pipeline/bus/index.js';
import type { InProcessProducer, MemoryBusOptions, OutgoingRecord } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import type { Clock } from '../pipeline/clock.js';
import type { Pipeline, PipelineStats } from '../pipeline/pipeline.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { ChdbStore, StoreError } from '../pipeline/store/index.js';
import type { TopicName } from '../schemas/index.js';
import type { Feed } from '../pipeline/feeds/index.js';
import type { Config } from './config.js';
import { clockFor } from './feed.js';
import { RuntimeHealth } from './health.js';
import { inProcessPriority } from './in-process-priority.js';
import { BEHIND_REPORT_MS, SILENT_WORKER_MS } from './pipeline-thread-messages.js';
import type { FromWorker, PipelineWorkerData, StoreCall, StoreFailure, ToWorker } from './pipeline-thread-messages.js';
import type { ProcessParts } from './process-parts.js';
import { removalRetentionOf } from './saved-bus-log.js';
import { openStore } from './store.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * The API thread's copy of the log (PIPELINE_THREAD=worker): the topics the API reads, appended
 * at the offsets the worker's bus gave them, so positions and cursors name the same records as
 * they do with the pipeline on this thread. Its consumers read it as any in-process bus; what is
 * produced here (accounts, bets, a test's feed) goes to the worker's bus, the log's home, and a
 * send resolves once the records are back in this copy.
 */
class ApiThreadBus extends MemoryBus {
  constructor(
    options: MemoryBusOptions,
    private readonly sendToWorker: (topic: TopicName, records: readonly OutgoingRecord<TopicName>[]) => Promise<void>,
  ) {
    super(options);
  }

  override producer(): InProcessProducer {
    return {
      send: async (topic, records, hold) => {
        if (hold) assertHeld(hold);
        await this.sendToWorker(topic, records as readonly OutgoingRecord<TopicName>[]);
      },
    };
  }
}

export interface PipelineThreadOptions {
  config: Config;
  clock: Clock;
  /** True when the API thread's clock leads (a test's): the worker's follows it. */
  clockLeads: boolean;
  store: OlapStore;
  health: RuntimeHealth;
  logger: Logger;
  /** A test's feed runs on this thread: the worker runs none. */
  feedOnApiThread: boolean;
  onFatal?: (reason: string) => void;
}

export interface PipelineThread {
  /** The API thread's copy of the log: what the views, accounts and bets read and produce to. */
  bus: MemoryBus;
  /** Stands for the worker's pipeline: lag and counters as last reported (at most `STATUS_MS` old). */
  pipeline: Pipeline;
  worker: Worker;
  /** Starts the worker's feed. */
  startInput(): void;
  /** Resolves true once the worker's stages took every record produced so far, and the API thread holds what they produced. */
  drained(timeoutMs: number, stopFeed?: boolean): Promise<boolean>;
  /** Stops the feed and the stages, keeps this thread's committed offsets in the saved log, and waits for the worker to end. */
  stop(): Promise<void>;
}

/**
 * Starts the worker's entry beside this file: the build's JavaScript from dist/, or the TypeScript
 * source under tsx or vitest, whose loader a worker thread does not inherit (each thread has its
 * own module hooks): a one-line bootstrap registers tsx's in the thread first.
 */
function spawnWorker(workerData: PipelineWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pipeline-worker.js', import.meta.url), { workerData });
  const entry = new URL('./pipeline-worker.ts', import.meta.url).href;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

const EMPTY_STATS: PipelineStats = {
  normalizer: { matched: 0, unmatched: {}, events: 0 },
  snapshotRows: 0,
  splits: { events: 0, snapshots: 0 },
  opportunities: { active: 0, created: 0, updated: 0, expired: 0, events: 0 },
  closing: { captured: 0, closingLines: 0, graded: 0, settled: 0, events: 0 },
  futures: { boards: 0, markets: 0, opportunities: 0, created: 0, expired: 0, unmatched: {} },
  sinks: {},
  lag: {},
  partitions: {},
};

/**
 * Starts the pipeline worker and makes this thread's copy of its log. A worker that throws, exits
 * or is silent for `SILENT_WORKER_MS` turns /health down naming why, and `onFatal` is told (the
 * entry exits non-zero): the API never goes on serving a board nobody updates.
 */
export async function startPipelineThread(o: PipelineThreadOptions): Promise<PipelineThread> {
  const { config, clock, store, health, logger } = o;
  const data: PipelineWorkerData = {
    config,
    logLevel: logger.level,
    clockLeads: o.clockLeads ? 'api' : 'worker',
    now: clock.now(),
    feedOnApiThread: o.feedOnApiThread,
  };
  const worker = spawnWorker(data);
  const post = (message: ToWorker): void => worker.postMessage(message);

  let bus: ApiThreadBus | null = null;
  let stopping = false;
  let lastHeard = Date.now();
  let status: { lag: number; stats: PipelineStats } = { lag: 0, stats: EMPTY_STATS };
  let next = 1;
  /** Answers the worker owes: sends, drains. Refused all at once if the worker ends. */
  const owed = new Map<number, { resolve: (value: unknown) => void; reject: (e: unknown) => void }>();
  const ask = <R>(message: (id: number) => ToWorker): Promise<R> => {
    const id = next++;
    return new Promise<R>((resolve, reject) => {
      owed.set(id, { resolve: resolve as (value: unknown) => void, reject });
      post(message(id));
    });
  };
  const settle = (id: number, value: unknown, error: string | null): void => {
    const waiting = owed.get(id);
    owed.delete(id);
    if (error === null) waiting?.resolve(value);
    else waiting?.reject(new Error(error));
  };

  let opened: (restored: boolean) => void = () => undefined;
  let refused: (e: unknown) => void = () => undefined;
  const opening = new Promise<boolean>((resolve, reject) => {
    opened = resolve;
    refused = reject;
  });
  let isReady = false;
  let readyNow: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (readyNow = resolve)).then(() => {
    isReady = true;
  });
  let stoppedNow: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stoppedNow = resolve));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  let failed = false;
  const fail = (reason: string): void => {
    if (failed) return;
    failed = true;
    refused(new StartupError(reason));
    for (const waiting of owed.values()) waiting.reject(new Error(reason));
    owed.clear();
    if (health.failed) return;
    health.fail(reason);
    logger.fatal({ reason }, 'pipeline worker failed: the process stops');
    o.onFatal?.(reason);
  };

  const runStore = async (id: number, call: StoreCall): Promise<void> => {
    let value: unknown = null;
    let error: StoreFailure | null = null;
    try {
      if (call.op === 'exec') await store.exec(call.sql);
      else if (call.op === 'insert') await store.insert(call.table, call.rows);
      else if (call.op === 'insertLines') {
        if (!(store instanceof ChdbStore)) throw new StoreError('insert text is for the embedded store', false);
        await store.insertLines(call.table, call.columns, call.bytes);
      } else value = await store.query(call.sql, call.params);
    } catch (e) {
      error = {
        message: firstLine(e),
        retryable: e instanceof StoreError ? e.retryable : true,
        unreachable: e instanceof StoreError && e.unreachable,
      };
    }
    post({ t: 'stored', id, value, error });
  };

  worker.on('message', (m: FromWorker) => {
    lastHeard = Date.now();
    switch (m.t) {
      case 'opened':
        bus = new ApiThreadBus(
          { now: () => clock.now(), removalRetention: removalRetentionOf(config.busLogRetentionMinutes), image: m.image },
          (topic, records) => ask<void>((id) => ({ t: 'send', id, now: clock.now(), topic, records: [...records] })),
        );
        bus.prioritize(inProcessPriority(config.replicaId));
        opened(m.restored);
        break;
      case 'records':
        if (!o.clockLeads && clock instanceof ManualClock) clock.set(m.now);
        try {
          for (const b of m.batches) {
            bus?.replicate(b.topic, b.partition, b.records);
            received += b.records.length;
          }
        } catch (e) {
          fail(`the API thread's copy of the log left the worker's: ${firstLine(e)}`);
        }
        break;
      case 'sent':
        settle(m.id, undefined, m.error);
        break;
      case 'store':
        void runStore(m.id, m.call);
        break;
      case 'ready':
        readyNow();
        break;
      case 'status':
        status = { lag: m.lag, stats: m.stats };
        break;
      case 'drained':
        settle(m.id, m.ok, null);
        break;
      case 'fatal':
        fail(m.reason);
        break;
      case 'stopped':
        stoppedNow();
        break;
    }
  });
  worker.on('error', (e) => fail(`pipeline worker failed: ${firstLine(e)}`));
  worker.on('exit', (code) => {
    if (!stopping) fail(`pipeline worker exited (code ${code})`);
    stoppedNow();
  });
  const silence = setInterval(() => {
    // Reports start with the stages: a start (a replay's file, the simulator's opening board) may take longer.
    if (!isReady || stopping || failed || Date.now() - lastHeard <= SILENT_WORKER_MS) return;
    fail(`pipeline worker silent for ${Math.round((Date.now() - lastHeard) / 1000)} s`);
    void worker.terminate();
  }, 1000);
  silence.unref();
  // The worker holds its feed while this copy is too far behind (`COPY_HIGH_WATER_RECORDS`).
  let received = 0;
  let told = { received: 0, unread: 0 };
  const behind = setInterval(() => {
    if (bus === null || stopping || failed) return;
    const unread = bus.backlog();
    if (received === told.received && unread === told.unread) return;
    told = { received, unread };
    post({ t: 'behind', received, unread });
  }, BEHIND_REPORT_MS);
  behind.unref();
  // A leading manual clock moves without telling anyone: the worker is told each new time.
  let toldNow = clock.now();
  const clockTicks = o.clockLeads
    ? setInterval(() => {
        if (clock.now() === toldNow) return;
        toldNow = clock.now();
        post({ t: 'clock', now: toldNow });
      }, 50)
    : null;
  clockTicks?.unref();

  let restored: boolean;
  try {
    restored = await opening;
  } catch (e) {
    stopping = true;
    clearInterval(silence);
    clearInterval(behind);
    if (clockTicks) clearInterval(clockTicks);
    await worker.terminate();
    throw e;
  }
  // A new log starts empty, so the latest-odds table does too (see `openProcessParts`).
  if (!restored) await store.exec('TRUNCATE TABLE IF EXISTS odds_latest');
  post({ t: 'go' });
  const copy = bus as unknown as ApiThreadBus;

  const pipeline: Pipeline = {
    ready,
    stats: () => status.stats,
    lag: () => status.lag,
    stop: async () => {
      if (stopping) return stopped;
      stopping = true;
      clearInterval(silence);
      clearInterval(behind);
      if (clockTicks) clearInterval(clockTicks);
      if (!failed) {
        post({ t: 'stop', commits: copy.commits() });
        await Promise.race([stopped, exited]);
      }
      // Stopped: the log is saved and nothing of the worker's is left to wait for.
      await worker.terminate();
    },
  };

  return {
    bus: copy,
    pipeline,
    worker,
    startInput: () => post({ t: 'input' }),
    drained: async (timeoutMs, stopFeed = false) => {
      if (failed) return false;
      return ask<boolean>((id) => ({ t: 'drain', id, timeoutMs, stopFeed })).catch(() => false);
    },
    stop: () => pipeline.stop(),
  };
}

/**
 * The parts of ROLE=all with the pipeline in a worker (`openProcessParts`' counterpart): the store
 * opens here, the bus is this thread's copy of the worker's log, and a test's feed (an object,
 * which cannot cross threads) runs here, its records crossing like any other send.
 */
export async function openThreadedParts(
  config: Config,
  logger: Logger,
  options: { clock?: Clock; feed?: (clock: Clock) => Feed; onFatal?: (reason: string) => void },
): Promise<{ parts: ProcessParts; thread: PipelineThread }> {
  const clock = options.clock ?? clockFor(config);
  const health = new RuntimeHealth();
  const opened = await openStore(config, logger, health);
  let thread: PipelineThread;
  try {
    thread = await startPipelineThread({
      config,
      clock,
      clockLeads: options.clock !== undefined,
      store: opened.store,
      health,
      logger,
      feedOnApiThread: options.feed !== undefined,
      ...(options.onFatal ? { onFatal: options.onFatal } : {}),
    });
  } catch (e) {
    await opened.closeCleanly().catch(() => undefined);
    throw e;
  }
  const feed = options.feed ? options.feed(clock) : null;
  return { parts: { clock, health, opened, feed, bus: thread.bus }, thread };
}
