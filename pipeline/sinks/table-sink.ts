import type { Logger } from 'pino';
import { settingDefault } from '../../schemas/index.js';
import { NO_BATCH, assertHeld } from '../bus/index.js';
import type { PartitionHold } from '../bus/index.js';
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
 *
 * A store that does not answer (`StoreError.unreachable`: refused, reset, timed out; the adapter
 * says so) is waited for, however long: the batch is tried again with the backoff capped at 30 s,
 * the records behind it wait in the log, `/health` says degraded (`StoreReach`), and the stage
 * catches up once the store answers. Said once when the store stops answering and once when it
 * answers again, not at every attempt. Waiting ends only with `release` (the pipeline stopping):
 * the batch then rejects uncommitted, and the next start writes it.
 *
 * Any other failure a retry might fix is tried `retries` more times; a batch that still fails, or
 * fails in a way no retry can fix (a statement or data the store rejected), rejects: the stage
 * stops uncommitted (nothing is skipped) and the runtime's failure policy takes over.
 */
export class TableSink {
  readonly counters: SinkCounters = { rowsWritten: 0, batchesWritten: 0, rowsFailed: 0, lastWriteAt: null };
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Since when the store has not answered this sink (null: it answered its last call). */
  private unanswered: { since: number; attempts: number } | null = null;
  private released = false;
  private wake: () => void = () => undefined;
  private readonly releasing = new Promise<void>((resolve) => {
    this.wake = resolve;
  });

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
   * `hold`: the hold of the batch the records are of (`NO_BATCH` for none), see `attempts`.
   */
  async writeRecords<R>(records: readonly R[], toRow: (record: R) => StoreRow | null, hold: PartitionHold): Promise<void> {
    const insertMapped = this.store.insertMapped?.bind(this.store);
    if (insertMapped) {
      const countRows = (): number => records.reduce((n, r) => n + (toRow(r) === null ? 0 : 1), 0);
      await this.attempts(() => insertMapped(this.table, records, toRow), countRows, hold);
      return;
    }
    const rows: StoreRow[] = [];
    await forEachInSlices(records, (record) => {
      const row = toRow(record);
      if (row !== null) rows.push(row);
    });
    await this.write(rows, hold);
  }

  async write(rows: readonly StoreRow[], hold: PartitionHold): Promise<void> {
    if (rows.length === 0) return;
    await this.attempts(
      async () => {
        await this.store.insert(this.table, rows);
        return rows.length;
      },
      () => rows.length,
      hold,
    );
  }

  /**
   * Reads what the stage writing this table restores from (closing's closes and entries), tried
   * as a batch is: a store that does not answer is waited for, with the same backoff and the same
   * two log lines as the batches of this table, a refusal for now is tried `retries` more times,
   * and `release` ends the wait (the read then rejects). A restore that failed on an outage once
   * stopped its stage, and with it the process.
   */
  async read<T>(query: () => Promise<T>): Promise<T> {
    const got: T[] = [];
    await this.attempts(
      async () => {
        got.push(await query());
        return 0;
      },
      () => 0,
      // A restore's read, before any batch of the partitions it rebuilds.
      NO_BATCH,
      'read from',
    );
    return got[0] as T;
  }

  /**
   * Stops waiting for a store that does not answer: a batch or a read waiting for it rejects now,
   * and so does any later one that finds it unreachable. For the pipeline's stop, once its stages
   * were told to stop (their batches in hand then fail as the stop's, not as a stage failure).
   */
  release(): void {
    this.released = true;
    this.wake();
  }

  /**
   * Runs `insert` (which resolves to the rows it wrote) until it succeeds, or fails for good.
   * Not once `hold`, the batch's hold on its partition, was lost: the partition went to another
   * member, which writes the batch itself (pipeline/bus/batch-ownership.ts). Asked before every
   * attempt: a store retried through a rebalance is one way a batch outlasts the handoff.
   */
  private async attempts(insert: () => Promise<number>, rowsOf: () => number, hold: PartitionHold, what = 'insert into'): Promise<void> {
    /** Failures other than an unreachable store: those count against `retries`. */
    let failures = 0;
    /** This batch's waits for an unreachable store: its backoff doubles with them. */
    let waits = 0;
    for (;;) {
      assertHeld(hold);
      try {
        const written = await insert();
        this.answered();
        if (written === 0) return;
        this.counters.rowsWritten += written;
        this.counters.batchesWritten++;
        this.counters.lastWriteAt = Date.now();
        return;
      } catch (e) {
        if (e instanceof StoreError && e.unreachable && !this.released) {
          this.notAnswered(e);
          await Promise.race([this.sleep(Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** Math.min(waits++, 20))), this.releasing]);
          continue;
        }
        const retryable = !(e instanceof StoreError) || e.retryable;
        if (!retryable || failures >= this.retries || this.released) {
          // Released: not failed for good, only not written by this process (the next start writes it).
          if (!this.released) this.counters.rowsFailed += rowsOf();
          throw new Error(
            `${what} ${this.table} failed${retryable ? ` after ${failures + waits + 1} attempts` : ''}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
            { cause: e },
          );
        }
        this.logger.warn({ err: e, table: this.table, attempt: failures }, 'sink insert failed, retrying');
        await this.sleep(Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** failures++));
      }
    }
  }

  /** The store did not answer: said once, when it stops answering, with why. */
  private notAnswered(e: StoreError): void {
    if (this.unanswered) {
      this.unanswered.attempts++;
      return;
    }
    this.unanswered = { since: Date.now(), attempts: 1 };
    this.logger.warn(
      { table: this.table, reason: e.message.split('\n')[0] },
      'the store does not answer: the batches for this table wait in the log and are tried again until it does',
    );
  }

  /** The store answered: said once, when it answers again after not answering (at warn, as the outage was: its end belongs beside it). */
  private answered(): void {
    if (!this.unanswered) return;
    const { since, attempts } = this.unanswered;
    this.unanswered = null;
    this.logger.warn({ table: this.table, attempts, seconds: Math.round((Date.now() - since) / 1000) }, 'the store answers again');
  }
}
