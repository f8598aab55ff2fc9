import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecorder } from '../../api/accounts/index.js';
import { betRow } from '../../api/bets/rows.js';
import { accountRow, keyRow, ruleRow } from '../../api/accounts/rows.js';
import { deliveryRow } from '../../api/accounts/delivery-rows.js';
import { closingRow, entryRow, gameStateRow, gradeRow } from '../closing/index.js';
import { futuresEvRow, futuresLatestRow, futuresTickRows } from '../futures/index.js';
import { matchRow, priceRow } from '../history/index.js';
import { eventRow, latestRow, opportunityRow, tickRow } from '../sinks/index.js';
import { splitsRows } from '../splits/index.js';
import { ChdbStore } from './chdb-store.js';
import { applyMigrations } from './migrations.js';
import type { OlapStore, StoreRow } from './store.js';

// The DDL (schemas/clickhouse) and the row mappers are two statements of each table's columns;
// this holds them together. The engine itself says what the columns are (DESCRIBE after every
// migration ran, ALTERs and `AS` tables included), so nothing here parses SQL.

/**
 * Any record at all: every property is this value again (but those `set` names), it reads as 100
 * (a valid price and time) where a number or text is wanted and `map` calls back once. A mapper's
 * keys do not depend on the values it is handed, so this gives every key it writes without a
 * hand-made sample of each record type that would have to follow the types.
 */
function any<T>(set: Record<string, unknown> = {}): T {
  const value: unknown = new Proxy(function anything() {}, {
    get(_target, property) {
      if (typeof property === 'string' && Object.hasOwn(set, property)) return set[property];
      if (property === Symbol.toPrimitive) return () => 100;
      if (property === 'map' || property === 'flatMap') return (f: (x: unknown) => unknown) => [f(value)];
      if (property === 'then') return undefined;
      return value;
    },
  });
  return value as T;
}

/** The one row a mapper that writes several (one per side or selection) writes for `anything`. */
const only = (rows: StoreRow[]): StoreRow => {
  expect(rows).toHaveLength(1);
  return rows[0] as StoreRow;
};

/** The usage recorder builds its rows inside its flush: the rows it hands the store. */
async function usageRow(): Promise<StoreRow> {
  const written: StoreRow[] = [];
  const store = { insert: async (_table: string, rows: readonly StoreRow[]) => void written.push(...rows) } as unknown as OlapStore;
  const usage = new UsageRecorder({ store, logger: pino({ level: 'silent' }), now: () => 0, flushMs: 60_000 });
  usage.record('account', 'key', '/odds', false);
  await usage.flush();
  await usage.stop();
  return only(written);
}

/** Every table the platform writes, with the row its mapper makes. */
const MAPPED: Record<string, () => StoreRow | Promise<StoreRow>> = {
  // Odds conversion checks its number (a proxy is not one): a tick without a price.
  odds_ticks: () => tickRow(any({ priceAmerican: null }), 0),
  odds_latest: () => latestRow(any(), 1),
  events: () => eventRow(any()),
  opportunities: () => opportunityRow(any(), 1),
  splits_history: () => only(splitsRows(any(), 0)),
  splits_latest: () => only(splitsRows(any(), 0)),
  closing_odds: () => closingRow(any(), 1),
  clv_grades: () => gradeRow(any(), 1),
  clv_entries: () => entryRow(any()),
  game_state: () => gameStateRow(any()),
  futures_odds_ticks: () => only(futuresTickRows(any())),
  futures_odds_latest: () => futuresLatestRow(any()),
  futures_ev: () => futuresEvRow(any()),
  accounts: () => accountRow(any()),
  api_keys: () => keyRow(any()),
  api_usage: usageRow,
  bets: () => betRow(any()),
  alert_rules: () => ruleRow(any()),
  alert_deliveries: () => deliveryRow(any()),
  history_matches: () => matchRow(any(), 0),
  history_prices: () => priceRow(any(), 0),
};

let dir: string;
let store: ChdbStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'odds-ddl-'));
  store = new ChdbStore(dir);
  await applyMigrations(store);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function columnsOf(table: string): Promise<string[]> {
  const rows = await store.query<{ name: string; default_type: string }>(`DESCRIBE TABLE ${table}`);
  // Computed columns cannot be inserted; a column with a DEFAULT can, and every mapper writes its own.
  return rows.filter((r) => r.default_type !== 'MATERIALIZED' && r.default_type !== 'ALIAS').map((r) => r.name);
}

describe('ClickHouse DDL against the row mappers', () => {
  it('maps every table the migrations create (schema_migrations aside)', async () => {
    const tables = await store.query<{ name: string }>('SHOW TABLES');
    const created = tables.map((t) => t.name).filter((t) => t !== 'schema_migrations');
    expect(created.sort()).toEqual(Object.keys(MAPPED).sort());
  });

  for (const [table, map] of Object.entries(MAPPED)) {
    it(`${table}: the mapper writes exactly the table's columns`, async () => {
      const row = await map();
      expect(Object.keys(row).sort(), table).toEqual((await columnsOf(table)).sort());
    });
  }
});
