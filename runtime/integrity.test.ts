import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OlapStore, StoreRow } from '../pipeline/store/index.js';
import { checkStoreIntegrity } from './integrity.js';

/**
 * The start's loss check reads plain counts and counts with FINAL (a full merge on read, the
 * slow part of a start on a large odds_ticks) only the tables whose plain count dropped.
 */
function storeWith(tables: Record<string, { plain: number; final: number }>): { store: OlapStore; queries: string[] } {
  const queries: string[] = [];
  const store = {
    kind: 'chdb',
    exec: async () => undefined,
    insert: async () => undefined,
    close: async () => undefined,
    query: async <T extends StoreRow>(sql: string): Promise<T[]> => {
      queries.push(sql);
      if (sql.includes('system.detached_parts')) return [];
      if (sql.includes('system.tables'))
        return Object.keys(tables).map((name) => ({ name, engine: 'ReplacingMergeTree' })) as unknown as T[];
      const m = /FROM `([a-z_]+)`( FINAL)?/.exec(sql);
      const t = tables[m?.[1] ?? ''];
      return [{ n: m?.[2] ? t?.final : t?.plain }] as unknown as T[];
    },
  } as OlapStore;
  return { store, queries };
}

function recordOf(tables: Record<string, number>, plain?: Record<string, number>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'integrity-')), 'store-counts.json');
  writeFileSync(file, JSON.stringify({ tables, ...(plain ? { plain } : {}) }));
  return file;
}

const finalReads = (queries: string[]): string[] => queries.filter((q) => q.endsWith(' FINAL'));

describe('the store integrity check at start', () => {
  it('reads no table with FINAL when no plain count dropped since the clean shutdown', async () => {
    const { store, queries } = storeWith({ odds_ticks: { plain: 500, final: 480 }, events: { plain: 10, final: 10 } });
    const report = await checkStoreIntegrity(store, recordOf({ odds_ticks: 480, events: 10 }, { odds_ticks: 500, events: 10 }));
    expect([report.problems, report.compared, finalReads(queries)]).toEqual([[], true, []]);
  });

  it('does not call a merge that collapsed duplicates a loss: the FINAL count is unchanged', async () => {
    const { store, queries } = storeWith({ odds_ticks: { plain: 490, final: 480 } });
    const report = await checkStoreIntegrity(store, recordOf({ odds_ticks: 480 }, { odds_ticks: 500 }));
    expect(report.problems).toEqual([]);
    expect(finalReads(queries)).toEqual(['SELECT count() AS n FROM `odds_ticks` FINAL']);
  });

  it('reports rows lost, counted with FINAL, naming the table', async () => {
    const { store } = storeWith({ odds_ticks: { plain: 400, final: 390 } });
    const report = await checkStoreIntegrity(store, recordOf({ odds_ticks: 480 }, { odds_ticks: 500 }));
    expect(report.problems).toEqual(['odds_ticks has 390 rows, 90 fewer than at the last clean shutdown (480)']);
  });

  it('checks every table with FINAL against a record written before plain counts were kept', async () => {
    const { store, queries } = storeWith({ odds_ticks: { plain: 500, final: 470 } });
    const report = await checkStoreIntegrity(store, recordOf({ odds_ticks: 480 }));
    expect(report.problems).toEqual(['odds_ticks has 470 rows, 10 fewer than at the last clean shutdown (480)']);
    expect(finalReads(queries)).toHaveLength(1);
  });

  it('reports a table that is gone', async () => {
    const { store } = storeWith({});
    const report = await checkStoreIntegrity(store, recordOf({ odds_ticks: 480 }, { odds_ticks: 500 }));
    expect(report.problems).toEqual(['table odds_ticks is missing (it had 480 rows at the last clean shutdown)']);
  });
});
