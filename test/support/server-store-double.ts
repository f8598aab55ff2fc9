import { StoreError, StoreReach } from '../../pipeline/store/index.js';
import type { OlapStore, StoreRow } from '../../pipeline/store/index.js';

/**
 * A server store as the adapters are: every call's outcome goes to its `reach`. Every query
 * answers `rows`; `reachable` switches whether it answers at all (a refused connection, as the
 * server adapter reports one); `sql` lists what it was asked.
 */
export function serverStoreDouble(rows: readonly StoreRow[]): { store: OlapStore; reachable: { value: boolean }; sql: string[] } {
  const reachable = { value: true };
  const sql: string[] = [];
  const reach = new StoreReach();
  const call = async <R>(statement: string, result: R): Promise<R> => {
    sql.push(statement);
    if (!reachable.value) {
      const error = new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });
      reach.failed(error);
      throw error;
    }
    reach.answered();
    return result;
  };
  const store = {
    kind: 'clickhouse',
    reach,
    query: (statement: string) => call(statement, rows),
    insert: (table: string) => call(`INSERT INTO ${table}`, undefined),
  } as unknown as OlapStore;
  return { store, reachable, sql };
}
