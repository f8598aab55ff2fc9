/**
 * The OLAP store port: ClickHouse SQL in both adapters (chDB in process, ClickHouse server over
 * HTTP). Rows cross it as plain objects keyed by column name. A plain object as the value of a
 * String column is stored as its JSON text, exactly as `JSON.stringify` writes it.
 */
export type StoreRow = Record<string, unknown>;

export interface OlapStore {
  readonly kind: 'chdb' | 'clickhouse';
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

/** Typed store failure, classified for the sink's retry decision. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
