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

describe('ChdbStore insert buffers', () => {
  it("reuses a settled batch's buffer for the next, and each batch arrives exactly as written", () =>
    inDataDir(async (dir) => {
      const store = new ChdbStore(dir);
      await store.exec('CREATE TABLE b (batch UInt8, i UInt32, s String) ENGINE = MergeTree ORDER BY (batch, i)');
      // The first batch's lines are longer than the second's: any of its bytes left in the reused
      // buffer past the second batch's end would show as extra or broken rows.
      await store.insert(
        'b',
        Array.from({ length: 3_000 }, (_, i) => ({ batch: 1, i, s: 'a'.repeat(100) })),
      );
      expect(store.buffers.idleCount).toBe(1);
      const idle = store.buffers.idleByteCount;
      await store.insert(
        'b',
        Array.from({ length: 1_000 }, (_, i) => ({ batch: 2, i, s: 'b' })),
      );
      expect(store.buffers.idleByteCount).toBe(idle);
      expect(
        await store.query('SELECT batch, count() AS n, sum(i) AS total, sum(length(s)) AS chars FROM b GROUP BY batch ORDER BY batch'),
      ).toEqual([
        { batch: 1, n: 3_000, total: 4_498_500, chars: 300_000 },
        { batch: 2, n: 1_000, total: 499_500, chars: 1_000 },
      ]);
      await store.close();
    }));

  it('gives inserts under way at the same time a buffer each', () =>
    inDataDir(async (dir) => {
      const store = new ChdbStore(dir);
      await store.exec('CREATE TABLE c (t UInt8, i UInt32, s String) ENGINE = MergeTree ORDER BY (t, i)');
      const batch = (t: number) => Array.from({ length: 20_000 }, (_, i) => ({ t, i, s: `${t}:${i}` }));
      await Promise.all([store.insert('c', batch(1)), store.insert('c', batch(2)), store.insert('c', batch(3))]);
      expect(store.buffers.idleCount).toBe(3);
      expect(
        await store.query(
          "SELECT t, count() AS n, sum(i) AS total, countIf(s = concat(toString(t), ':', toString(i))) AS intact FROM c GROUP BY t ORDER BY t",
        ),
      ).toEqual([
        { t: 1, n: 20_000, total: 199_990_000, intact: 20_000 },
        { t: 2, n: 20_000, total: 199_990_000, intact: 20_000 },
        { t: 3, n: 20_000, total: 199_990_000, intact: 20_000 },
      ]);
      await store.close();
    }));
});
