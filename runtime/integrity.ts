import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { OlapStore } from '../pipeline/store/index.js';

/**
 * The store's own account of damage at start: parts the engine moved aside (a truncated or
 * corrupt part is detached as `broken-on-start_...` and its rows silently vanish), and, for the
 * embedded store, row counts against the record written at the last clean shutdown. Tables the
 * process empties on purpose at start are left out of the comparison.
 */
export interface IntegrityReport {
  problems: string[];
  /** Plain row counts now (without FINAL). */
  counts: Record<string, number>;
  compared: boolean;
}

interface TableInfo {
  name: string;
  engine: string;
}

const SKIPPED_TABLES = new Set(['schema_migrations', 'odds_latest']);

/**
 * Row counts per table. `final`: with FINAL on the Replacing tables, so that a merge that collapses
 * duplicates does not read as a loss; without it a count is cheap (the parts' row totals) but a
 * merge can lower it.
 */
export async function tableCounts(store: OlapStore, final = true, only?: ReadonlySet<string>): Promise<Record<string, number>> {
  const tables = await store.query<TableInfo & Record<string, unknown>>(
    "SELECT name, engine FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name",
  );
  const counts: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const t of tables) {
    if (SKIPPED_TABLES.has(t.name) || (only && !only.has(t.name))) continue;
    const suffix = final && t.engine.startsWith('Replacing') ? ' FINAL' : '';
    const [row] = await store.query<{ n: number | string }>(`SELECT count() AS n FROM \`${t.name}\`${suffix}`);
    counts[t.name] = Number(row?.n ?? 0);
  }
  return counts;
}

interface ShutdownRecord {
  /** FINAL counts at the last clean shutdown. */
  tables?: Record<string, number>;
  /** Plain counts at the same moment. */
  plain?: Record<string, number>;
}

export async function checkStoreIntegrity(store: OlapStore, recordFile: string | null): Promise<IntegrityReport> {
  const problems: string[] = [];
  const detached = await store.query<{ table: string; name: string; reason: string | null }>(
    'SELECT table, name, reason FROM system.detached_parts WHERE database = currentDatabase() ORDER BY table, name',
  );
  if (detached.length > 0) {
    const byTable = new Map<string, string[]>();
    for (const d of detached) byTable.set(d.table, [...(byTable.get(d.table) ?? []), d.name]);
    problems.push(
      `${detached.length} detached part(s) (${[...byTable].map(([t, names]) => `${t}: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}`).join('; ')}): their rows are not readable (README, "Damaged store")`,
    );
  }
  // Plain counts first: nothing writes between a clean shutdown and this check, so a table whose
  // plain count has not dropped lost nothing. Only one that dropped (a loss, or a merge that
  // collapsed duplicates since) is counted again with FINAL, the costly read on a large table.
  const counts = await tableCounts(store, false);
  let compared = false;
  if (recordFile !== null) {
    let record: ShutdownRecord | null = null;
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8')) as ShutdownRecord;
    } catch {
      record = null;
    }
    if (record?.tables) {
      compared = true;
      const plainBefore = record.plain ?? {};
      const unproven = new Set(
        Object.keys(record.tables).filter((t) => counts[t] !== undefined && !((counts[t] ?? 0) >= (plainBefore[t] ?? Infinity))),
      );
      const final = unproven.size > 0 ? await tableCounts(store, true, unproven) : {};
      for (const [table, before] of Object.entries(record.tables)) {
        const now = unproven.has(table) ? final[table] : counts[table] === undefined ? undefined : before;
        if (now === undefined) problems.push(`table ${table} is missing (it had ${before} rows at the last clean shutdown)`);
        else if (now < before) problems.push(`${table} has ${now} rows, ${before - now} fewer than at the last clean shutdown (${before})`);
      }
    }
    // Until the next clean shutdown writes it again, a start cannot trust an old record.
    rmSync(recordFile, { force: true });
  }
  return { problems, counts, compared };
}

export async function recordCleanShutdown(store: OlapStore, recordFile: string): Promise<void> {
  const record = { writtenAt: new Date().toISOString(), tables: await tableCounts(store), plain: await tableCounts(store, false) };
  writeFileSync(recordFile, JSON.stringify(record, null, 2));
}
