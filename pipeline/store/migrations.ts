import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { OlapStore } from './store.js';

/** `schemas/clickhouse` relative to this file, in the source tree and in `dist/` alike. */
function defaultMigrationsDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const fromSource = join(here, '..', '..', 'schemas', 'clickhouse');
  const fromDist = join(here, '..', '..', '..', 'schemas', 'clickhouse');
  try {
    readdirSync(fromSource);
    return fromSource;
  } catch {
    return fromDist;
  }
}

export interface Migration {
  version: string;
  statements: string[];
}

export function loadMigrations(dir = defaultMigrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: f.replace(/\.sql$/, ''),
      statements: readFileSync(join(dir, f), 'utf8')
        .split(/;\s*(?:\n|$)/)
        .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
        .filter((s) => s.length > 0),
    }));
}

/**
 * Applies the DDL files not applied yet, in order, and records each in `schema_migrations` once
 * all its statements ran. A file whose statements are idempotent (IF NOT EXISTS) is repaired by
 * the next start after a crash half way; a file that moves data (005) runs once.
 */
export async function applyMigrations(store: OlapStore, migrations = loadMigrations()): Promise<string[]> {
  await store.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const applied = new Set(await appliedVersions(store));
  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    for (const statement of m.statements) await store.exec(statement);
    await store.insert('schema_migrations', [{ version: m.version }]);
    done.push(m.version);
  }
  return done;
}

export async function appliedVersions(store: OlapStore): Promise<string[]> {
  const rows = await store.query<{ version: string }>('SELECT DISTINCT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => r.version);
}
