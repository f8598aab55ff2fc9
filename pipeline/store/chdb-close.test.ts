// chDB allows one open data directory per process, so this runs apart from the store contract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChdbStore } from './chdb-store.js';

describe('ChdbStore.close', () => {
  it('waits for an insert whose text is still being built, so none of its rows is lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'odds-store-close-'));
    try {
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
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
