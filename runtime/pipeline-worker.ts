import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import { NO_BATCH } from '../pipeline/bus/index.js';
import type { MemoryBus } from '../pipeline/bus/index.js';
import type { StoredRecord } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import type { Clock } from '../pipeline/clock.js';
import type { OlapStore, StoreRow } from '../pipeline/store/index.js';
import { CompactLines, InsertBuffers, StoreError } from '../pipeline/store/index.js';
import type { TopicName } from '../schemas/index.js';
import { drain } from './drain.js';
import { clockFor, makeFeed, startFeed } from './feed.js';
import { RuntimeHealth } from './health.js';
import { inProcessPriority } from './in-process-priority.js';
import { logFormatFor, makeLogger } from './logger.js';
import { COPY_HIGH_WATER_RECORDS, PIPELINE_ONLY_TOPICS, STATUS_MS } from './pipeline-thread-messages.js';
import type { FromWorker, PipelineWorkerData, RecordsBatch, StoreCall, StoreFailure, ToWorker } from './pipeline-thread-messages.js';
import { startConfiguredPipeline } from './process-parts.js';
import { openMemoryBus } from './saved-bus-log.js';
import { firstLine } from './startup-error.js';

/**
 * The pipeline worker of PIPELINE_THREAD=worker: the feed, every stage and the log's home, on a
 * thread of their own so that their work never delays the API's event loop. What it appends to a
 * topic the API reads goes to the API thread as one message per event-loop turn.
 */

/**
 * Records per message at most. A message is copied into the API thread in one piece before its
 * handler runs, so its size bounds that thread's pause: per turn alone, the opening board's
 * changelog (40k+ rows) went as one message, and the bench saw the API thread stall for seconds.
 */
const MAX_RECORDS_PER_MESSAGE = 1000;

/** Passes the records appended on the worker's bus to the API thread, batched per turn (and by `MAX_RECORDS_PER_MESSAGE`), in order. */
class Forwarder {
  private batches: RecordsBatch[] = [];
  private waiting = 0;
  private scheduled = false;
  /** Records handed to the API thread so far (counted as they are added: on their way from then). */
  forwarded = 0;

  constructor(
    private readonly port: MessagePort,
    private readonly clock: Clock,
  ) {}

  add(topic: TopicName, partition: number, records: readonly StoredRecord[]): void {
    this.forwarded += records.length;
    // A send larger than a message (the opening board's changelog) is cut into several.
    for (let from = 0; from < records.length;) {
      const room = MAX_RECORDS_PER_MESSAGE - this.waiting;
      const part = records.slice(from, from + room);
      from += part.length;
      const last = this.batches.at(-1);
      if (last && last.topic === topic && last.partition === partition) for (const r of part) last.records.push(r);
      else this.batches.push({ topic, partition, records: part });
      this.waiting += part.length;
      if (this.waiting >= MAX_RECORDS_PER_MESSAGE) this.flush();
    }
    if (this.waiting > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Sends what is waiting now: before an answer that promises the API thread holds those records. */
  flush(): void {
    this.scheduled = false;
    this.waiting = 0;
    if (this.batches.length === 0) return;
    const message: FromWorker = { t: 'records', now: this.clock.now(), batches: this.batches };
    this.batches = [];
    this.port.postMessage(message);
  }
}

/** The store on the API thread, reached by message: chDB runs one engine per process, opened there. */
class ApiThreadStore implements OlapStore {
  private next = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private readonly buffers = new InsertBuffers();

  constructor(
    readonly kind: 'chdb' | 'clickhouse',
    private readonly port: MessagePort,
  ) {}

  answer(id: number, value: unknown, error: StoreFailure | null): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    // Classified where the store is (its adapter), carried as it was: the sinks wait out an unreachable store.
    if (error) call.reject(new StoreError(error.message, error.retryable, { unreachable: error.unreachable }));
    else call.resolve(value);
  }

  private call(call: StoreCall, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.port.postMessage({ t: 'store', id, call } satisfies FromWorker, transfer);
    });
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql });
  }

  /**
   * Rows the stages made themselves (splits, futures, the closing stage's) go as insert text too:
   * as objects they were cloned into the API thread and written out there (a tenth of its busy
   * time at 2,000 ticks/s, in pieces of up to 100 ms, docs/performance.md).
   */
  async insert(table: string, rows: readonly StoreRow[]): Promise<void> {
    if (this.kind === 'chdb') await this.insertMapped(table, rows, (row) => row);
    else await this.call({ op: 'insert', table, rows: [...rows] });
  }

  /**
   * Rows are made here, where the records are. For the embedded store their insert text is too,
   * and its bytes are moved to the API thread, which only hands them to chDB: a batch of rows as
   * objects would be copied into that thread in one piece (20k rows: tens of ms of its loop) and
   * written out there.
   */
  async insertMapped<R>(table: string, records: readonly R[], toRow: (record: R) => StoreRow | null): Promise<number> {
    if (this.kind !== 'chdb') {
      const rows: StoreRow[] = [];
      for (const r of records) {
        const row = toRow(r);
        if (row !== null) rows.push(row);
      }
      if (rows.length > 0) await this.insert(table, rows);
      return rows.length;
    }
    let lines: CompactLines | null = null;
    let count = 0;
    for (const r of records) {
      const row = toRow(r);
      if (row === null) continue;
      // The columns are the first row's: one mapper made every row of a batch.
      lines ??= new CompactLines(Object.keys(row), records.length, this.buffers);
      lines.add(row);
      count++;
    }
    if (lines === null) return 0;
    const bytes = new Uint8Array(lines.bytes());
    const columns = [...lines.columns];
    lines.release();
    await this.call({ op: 'insertLines', table, columns, bytes }, [bytes.buffer]);
    return count;
  }

  async query<T extends StoreRow>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
    return (await this.call({ op: 'query', sql, ...(params ? { params } : {}) })) as T[];
  }

  /** The API thread closes the store, once the worker stopped. */
  async close(): Promise<void> {}
}

async function run(port: MessagePort, data: PipelineWorkerData): Promise<void> {
  const { config } = data;
  const logger: Logger = makeLogger(data.logLevel, logFormatFor(config.logFormat, false)).child({ thread: 'pipeline' });
  const post = (message: FromWorker): void => port.postMessage(message);
  const clock = data.clockLeads === 'api' ? new ManualClock(data.now) : clockFor(config);
  const follow = (now: number): void => {
    if (data.clockLeads === 'api' && clock instanceof ManualClock) clock.set(now);
  };
  const bus: MemoryBus = openMemoryBus(config.dataDir, config.busLogRetentionMinutes, () => clock.now(), logger);
  bus.prioritize(inProcessPriority(config.replicaId));
  const forward = new Forwarder(port, clock);
  // What the API thread last said of its copy; the records sent since count as behind until it says more.
  let copy = { received: 0, unread: 0 };
  let copyHeld = true;
  const tellBehind = (): void => bus.copyBehind(copyHeld ? forward.forwarded - copy.received + copy.unread : 0);
  bus.watchAppends(
    (topic, partition, records) => {
      forward.add(topic, partition, records);
      tellBehind();
    },
    PIPELINE_ONLY_TOPICS,
    COPY_HIGH_WATER_RECORDS,
  );
  const feed = data.feedOnApiThread ? null : await makeFeed(config, clock, logger);
  const store = new ApiThreadStore(config.clickhouse ? 'clickhouse' : 'chdb', port);
  const health = new RuntimeHealth();

  let go: () => void = () => undefined;
  const going = new Promise<void>((resolve) => (go = resolve));
  let pipeline: ReturnType<typeof startConfiguredPipeline> | null = null;
  let status: NodeJS.Timeout | null = null;

  port.on('message', (m: ToWorker) => {
    switch (m.t) {
      case 'go':
        go();
        break;
      case 'input':
        if (feed) void startFeed(feed, bus).catch((e: unknown) => post({ t: 'fatal', reason: `feed failed to start: ${firstLine(e)}` }));
        break;
      case 'send':
        follow(m.now);
        void bus
          .producer()
          // The API thread's writes (accounts, bets, a test's feed) belong to no batch.
          .send(m.topic, m.records, NO_BATCH)
          .then(
            () => null,
            (e: unknown) => firstLine(e),
          )
          .then((error) => {
            forward.flush();
            post({ t: 'sent', id: m.id, error });
          });
        break;
      case 'stored':
        store.answer(m.id, m.value, m.error);
        break;
      case 'clock':
        follow(m.now);
        break;
      case 'behind':
        copy = { received: m.received, unread: m.unread };
        tellBehind();
        break;
      case 'drain':
        void (async () => {
          if (m.stopFeed) await feed?.stop();
          const ok = await drain(
            () => pipeline?.lag() ?? 0,
            m.timeoutMs,
            () => health.failed,
          );
          forward.flush();
          post({ t: 'drained', id: m.id, ok });
        })();
        break;
      case 'stop':
        // The API thread's views are stopped by now: nothing there reads the copy any more.
        copyHeld = false;
        tellBehind();
        void (async () => {
          await feed?.stop();
          if (status) clearInterval(status);
          await pipeline?.stop();
          bus.adoptCommits(m.commits);
          await bus.close();
          forward.flush();
          post({ t: 'stopped' });
          port.close();
        })();
        break;
    }
  });

  post({ t: 'opened', image: bus.image(), restored: bus.restored });
  await going;
  pipeline = startConfiguredPipeline(
    config,
    { clock, health, opened: { store, analystUrl: null, closeCleanly: () => Promise.resolve() }, feed, bus },
    logger,
    { onFatal: (reason) => post({ t: 'fatal', reason }) },
  );
  const running = pipeline;
  status = setInterval(() => post({ t: 'status', now: clock.now(), lag: running.lag(), stats: running.stats() }), STATUS_MS);
  await running.ready;
  post({ t: 'ready' });
}

if (parentPort) {
  const port = parentPort;
  run(port, workerData as PipelineWorkerData).catch((e: unknown) => {
    port.postMessage({ t: 'fatal', reason: `pipeline worker failed to start: ${firstLine(e)}` } satisfies FromWorker);
  });
}
