// chDB allows one open data directory per process, so these run apart from the store contract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChdbStore } from './chdb-store.js';

/** Runs `use` with a fresh data directory, removed afterwards. */
async function inDataDir(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'odds-store-insert-'));
  try {
    await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('ChdbStore.close', () => {
  it('waits for an insert whose text is still being built, so none of its rows is lost', () =>
    inDataDir(async (dir) => {
      const store = new ChdbStore(dir);
      await store.exec('CREATE TABLE t (i UInt32, s String) ENGINE = MergeTree ORDER BY i');
      const rows = Array.from({ length: 50_000 }, (_, i) => ({ i, s: `row ${i} ${'y'.repeat(300)}` }));
      const inserted = store.insert('t', rows);
      // Closed at once: the insert has only started building its text.
      await store.close();
      await inserted;
      const reopened = new ChdbStore(dir);
      expect(await reopened.query('SELECT count() AS n, max(i) AS top FROM t')).toEqual([{ n: 50_000, top: 49_999 }]);
      await reopened.close();
    }));
});

describe('ChdbStore.insertMapped', () => {
  it('inserts the rows the records map to, leaves out records that map to null, and says how many', () =>
    inDataDir(async (dir) => {
      const store = new ChdbStore(dir);
      await store.exec('CREATE TABLE m (i UInt32, s String) ENGINE = MergeTree ORDER BY i');
      const records = Array.from({ length: 20_000 }, (_, i) => ({ i, deleted: i % 4 === 3 }));
      const inserted = await store.insertMapped('m', records, (r) => (r.deleted ? null : { i: r.i, s: `r${r.i}` }));
      expect(inserted).toBe(15_000);
      expect(await store.query('SELECT count() AS n, sum(i) AS total, min(s) AS first, countIf(i % 4 = 3) AS deleted FROM m')).toEqual([
        { n: 15_000, total: 149_985_000, first: 'r0', deleted: 0 },
      ]);
      expect(await store.insertMapped('m', [1, 2], () => null)).toBe(0);
      await store.close();
    }));
});
