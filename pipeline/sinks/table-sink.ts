import type { Logger } from 'pino';
import { settingDefault } from '../../schemas/index.js';
import { assertBatchOwned } from '../bus/index.js';
import type { OlapStore, StoreRow } from '../store/index.js';
import { StoreError } from '../store/index.js';
import { forEachInSlices } from '../event-loop-slices.js';

export interface TableSinkOptions {
  retries?: number;
  /** First retry delay; doubles each attempt. */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface SinkCounters {
  rowsWritten: number;
  batchesWritten: number;
  rowsFailed: number;
  lastWriteAt: number | null;
}

/** Longest wait between two attempts, whatever the attempt. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Writes one batch into one table, retrying with backoff. The runner commits the batch's
 * offsets only after `write` resolved, so a crash between insert and commit replays the batch;
 * the tables are keyed so that a replayed row replaces its twin (ticks by their identity, the
 * others by key and version), which makes at-least-once delivery exactly once in ClickHouse.
 * A batch that still fails after the retries, or fails in a way no retry can fix, rejects: the
 * stage stops uncommitted (nothing is skipped) and the runtime's failure policy takes over.
 */
export class TableSink {
  readonly counters: SinkCounters = { rowsWritten: 0, batchesWritten: 0, rowsFailed: 0, lastWriteAt: null };
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly store: OlapStore,
    readonly table: string,
    private readonly logger: Logger,
    options: TableSinkOptions = {},
  ) {
    this.retries = options.retries ?? settingDefault('SINK_RETRIES');
    this.backoffMs = options.backoffMs ?? 200;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Maps a batch's records to rows (a record mapping to null has no row: a tombstone) and writes
   * them, in slices (see `SLICE_MS`): a sink's batch holds up to a second of records, and
   * opportunity rows carry their record as JSON. A store that can write each row as it is mapped
   * (`insertMapped`) gets the records, so no array of rows outlives a turn of the event loop.
   */
  async writeRecords<R>(records: readonly R[], toRow: (record: R) => StoreRow | null): Promise<void> {
    const insertMapped = this.store.insertMapped?.bind(this.store);
    if (insertMapped) {
      const countRows = (): number => records.reduce((n, r) => n + (toRow(r) === null ? 0 : 1), 0);
      await this.attempts(() => insertMapped(this.table, records, toRow), countRows);
      return;
    }
    const rows: StoreRow[] = [];
    await forEachInSlices(records, (record) => {
      const row = toRow(record);
      if (row !== null) rows.push(row);
    });
    await this.write(rows);
  }

  async write(rows: readonly StoreRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.attempts(
      async () => {
        await this.store.insert(this.table, rows);
        return rows.length;
      },
      () => rows.length,
    );
  }

  /**
   * Runs `insert` (which resolves to the rows it wrote) until it succeeds, or fails for good.
   * Not once the partition of the batch being written went to another member, which writes the
   * batch itself (pipeline/bus/batch-ownership.ts). Asked before every attempt: a store retried
   * through a rebalance is one way a batch outlasts the handoff.
   */
  private async attempts(insert: () => Promise<number>, rowsOf: () => number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      assertBatchOwned();
      try {
        const written = await insert();
        if (written === 0) return;
        this.counters.rowsWritten += written;
        this.counters.batchesWritten++;
        this.counters.lastWriteAt = Date.now();
        return;
      } catch (e) {
        const retryable = !(e instanceof StoreError) || e.retryable;
        if (!retryable || attempt >= this.retries) {
          this.counters.rowsFailed += rowsOf();
          throw new Error(
            `insert into ${this.table} failed${retryable ? ` after ${attempt + 1} attempts` : ''}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
            { cause: e },
          );
        }
        this.logger.warn({ err: e, table: this.table, attempt }, 'sink insert failed, retrying');
        await this.sleep(Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** attempt));
      }
    }
  }
}
