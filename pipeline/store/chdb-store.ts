import { mkdirSync } from 'node:fs';
import { Session } from 'chdb';
import type { OlapStore, StoreRow } from './store.js';
import { StoreError } from './store.js';

const PERMANENT = /Syntax error|Unknown table|doesn't exist|Missing columns|There is no column|Cannot parse|Type mismatch|Unknown identifier|ILLEGAL_TYPE|NO_SUCH_COLUMN/i;

/** ClickHouse engine in process (chDB): the embedded default, data under one directory. */
export class ChdbStore implements OlapStore {
  readonly kind = 'chdb' as const;
  private readonly session: Session;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.session = new Session(dataDir);
  }

  async exec(sql: string): Promise<void> {
    await this.wrap(() => this.session.queryAsync(sql));
  }

  /**
   * Rows of one batch share their columns (one mapper made them), so they go as
   * JSONCompactEachRow text: 207k rows/s against 145k for chDB's object insert, measured on
   * 200k odds_ticks rows in batches of 20k (2-core EPYC, Node 20).
   */
  async insert(table: string, rows: readonly StoreRow[]): Promise<void> {
    const first = rows[0];
    if (first === undefined) return;
    const columns = Object.keys(first);
    let text = '';
    for (const row of rows) text += JSON.stringify(columns.map((c) => row[c] ?? null)) + '\n';
    await this.wrap(() => this.session.insert({ table, values: text, format: 'JSONCompactEachRow', columns }));
  }

  async query<T extends StoreRow>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
    const result = await this.wrap(() =>
      params
        ? this.session.queryBindAsync(sql, params, { format: 'JSONEachRow' })
        : this.session.queryAsync(sql, { format: 'JSONEachRow' }),
    );
    const text = result.text();
    if (text.length === 0) return [];
    return text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as T);
  }

  /**
   * One statement's output as text, in the FORMAT the statement names, else `defaultFormat`
   * (the ClickHouse HTTP interface's behaviour): what the analyst endpoint passes through.
   */
  async queryText(sql: string, defaultFormat = 'TabSeparated'): Promise<string> {
    return (await this.wrap(() => this.session.queryAsync(sql, { format: defaultFormat }))).text();
  }

  async close(): Promise<void> {
    this.session.close();
  }

  private async wrap<R>(op: () => Promise<R>): Promise<R> {
    try {
      return await op();
    } catch (e) {
      // In process there is no network, but there are transient refusals (memory limit, too many
      // parts, a merge holding a lock): retry those; a statement the engine cannot understand
      // or data it cannot parse fails the same way every time.
      const message = e instanceof Error ? e.message : String(e);
      throw new StoreError(message, !PERMANENT.test(message), { cause: e });
    }
  }
}
