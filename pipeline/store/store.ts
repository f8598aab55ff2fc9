/**
 * The OLAP store port: ClickHouse SQL in both adapters (chDB in process, ClickHouse server over
 * HTTP). Rows cross it as plain objects keyed by column name. A plain object as the value of a
 * String column is stored as its JSON text, exactly as `JSON.stringify` writes it.
 */
export type StoreRow = Record<string, unknown>;

export interface OlapStore {
  readonly kind: 'chdb' | 'clickhouse';
  /** How this process's calls found the store: answering or not, as of the latest one (both adapters keep it). */
  readonly reach?: StoreReach;
  /** Runs one statement that returns nothing (DDL). */
  exec(sql: string): Promise<void>;
  insert(table: string, rows: readonly StoreRow[]): Promise<void>;
  /**
   * Optional: maps records to rows (null: no row) and inserts the rows, writing each one out as it
   * is mapped, so a large batch never holds all its rows at once. Resolves to the rows inserted.
   */
  insertMapped?<R>(table: string, records: readonly R[], toRow: (record: R) => StoreRow | null): Promise<number>;
  /** `{name:Type}` placeholders are bound server-side from `params`. */
  query<T extends StoreRow>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Typed store failure, classified by the adapter (which knows what its connection failures look
 * like) for the sinks' retry decision: `retryable`, a retry might fix it; `unreachable`, the
 * store did not answer at all (connection refused, reset or cut, no answer in time), so the same
 * statement may well succeed unchanged once it answers again. An unreachable store is always
 * worth a retry; a store that answered with a refusal for now (memory, too many parts) is
 * retryable but reachable; a statement or data it rejected is neither.
 */
export class StoreError extends Error {
  readonly retryable: boolean;
  readonly unreachable: boolean;

  constructor(message: string, retryable: boolean, options: { cause?: unknown; unreachable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreError';
    this.unreachable = options.unreachable ?? false;
    this.retryable = retryable || this.unreachable;
  }
}

/** The store's latest answer to this process: when, whether it answered, and if not, why. */
export interface StoreAnswer {
  at: number;
  ok: boolean;
  message: string;
}

/**
 * Whether the store answers, as this process's own calls to it found: the latest outcome wins.
 * A failure a retry might fix (connection refused or cut, a timeout, the server's load refusals:
 * `StoreError.retryable`, as the sinks judge it) says it does not; an answer, a statement it
 * refused included, says it does. `/health` reads this rather than asking the store at every
 * probe, so a sink's failed insert or a failed history query counts at once (`StoreHealth`, in
 * the API's `/health` and the pipeline process's).
 */
export class StoreReach {
  private latest: StoreAnswer | null = null;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The latest outcome, or null before the first call ended. */
  get last(): StoreAnswer | null {
    return this.latest;
  }

  answered(): void {
    this.latest = { at: this.now(), ok: true, message: 'answered' };
  }

  /** Records a failed call: as the store not answering when a retry might fix it, else as an answer. */
  failed(e: unknown): void {
    if (e instanceof StoreError && !e.retryable) return this.answered();
    this.latest = { at: this.now(), ok: false, message: e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e) };
  }
}
