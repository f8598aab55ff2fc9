import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';

/** The closing/CLV/game-state queries docs/analysts.md offers run against the real DDL. */
it('runs every query of the closing-line section of docs/analysts.md on the current schema', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analysts-sql-'));
  const store = new ChdbStore(join(dir, 'chdb'));
  try {
    await applyMigrations(store);
    const md = readFileSync(new URL('../docs/analysts.md', import.meta.url), 'utf8');
    const start = md.indexOf('## Closing lines, closing-line value and game state');
    const end = md.indexOf('\n## ', start + 1);
    const section = md.slice(start, end < 0 ? undefined : end);
    const queries = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].flatMap((m) =>
      (m[1] ?? '')
        .split(/;\s*\n/)
        .map((q) => q.trim())
        .filter((q) => q.length > 0),
    );
    expect(queries.length).toBe(8);
    for (const q of queries) await expect(store.query(q), q.slice(0, 60)).resolves.toBeDefined();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
