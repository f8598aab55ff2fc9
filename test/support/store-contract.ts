import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, appliedVersions, loadMigrations } from '../../pipeline/store/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { StoreError } from '../../pipeline/store/index.js';

/**
 * What every OlapStore adapter must do, run against each: the same DDL, the same JSON shapes
 * back (64-bit integers as numbers, maps as objects, times as 'YYYY-MM-DD hh:mm:ss.sss'), bound
 * parameters, and typed errors.
 */
export function describeStoreContract(name: string, open: () => Promise<{ store: OlapStore; cleanup: () => Promise<void> }>): void {
  let store: OlapStore;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ store, cleanup } = await open());
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await cleanup();
  });

  describe(`${name}: the OlapStore contract and the migrations`, () => {
    it('applies every migration once and is a no-op the second time', async () => {
      const expected = loadMigrations().map((m) => m.version);
      expect(await applyMigrations(store)).toEqual(expected);
      expect(await applyMigrations(store)).toEqual([]);
      expect(await appliedVersions(store)).toEqual(expected);
    });

    it('round-trips rows with nulls, maps and millisecond times, whatever the column order of the batch', async () => {
      await store.insert('events', [
        {
          id: 'e1',
          sport: 'basketball',
          league: 'nba',
          home_team_id: 'a',
          away_team_id: 'b',
          start_time: '2026-11-22 00:30:00.000',
          status: 'upcoming',
          is_live: false,
          external_ids: { pinnacle: 'p1', draftkings: '9' },
          updated_at: '2026-11-21 10:00:00.123',
        },
      ]);
      await store.insert('odds_ticks', [
        {
          tick_time: '2026-11-21 10:00:00.456',
          event_id: 'e1',
          sportsbook: 'pinnacle',
          market: 'moneyline',
          selection: 'home',
          line: null,
          participant: null,
          stat_category: null,
          odds_american: -120,
          odds_decimal: 1.8333,
          status: 'open',
          is_live: false,
          book_event_id: 'p1',
          ingested_at: '2026-11-21 10:00:00.500',
        },
        {
          tick_time: '2026-11-21 10:00:01.000',
          event_id: 'e1',
          sportsbook: 'pinnacle',
          market: 'moneyline',
          selection: 'home',
          line: null,
          participant: null,
          stat_category: null,
          odds_american: null,
          odds_decimal: null,
          status: 'suspended',
          is_live: false,
          book_event_id: 'p1',
          ingested_at: '2026-11-21 10:00:01.000',
        },
      ]);
      const events = await store.query<{ id: string; external_ids: Record<string, string>; updated_at: string }>(
        'SELECT id, external_ids, updated_at FROM events FINAL',
      );
      expect(events).toEqual([{ id: 'e1', external_ids: { draftkings: '9', pinnacle: 'p1' }, updated_at: '2026-11-21 10:00:00.123' }]);
      const ticks = await store.query<{ status: string; odds_american: number | null; tick_time: string }>(
        'SELECT status, odds_american, tick_time FROM odds_ticks ORDER BY tick_time',
      );
      expect(ticks).toEqual([
        { status: 'open', odds_american: -120, tick_time: '2026-11-21 10:00:00.456' },
        { status: 'suspended', odds_american: null, tick_time: '2026-11-21 10:00:01.000' },
      ]);
    });

    it('keeps text outside ASCII exactly (accents, CJK, characters beyond the BMP, quotes)', async () => {
      const names = ['Atlético Madrid', '北京国安', 'Team 🏀 "Quoted" \\ back'];
      await store.insert(
        'events',
        names.map((name, i) => ({
          id: `u${i}`,
          sport: 'soccer',
          league: name,
          home_team_id: 'a',
          away_team_id: 'b',
          start_time: '2026-11-22 00:30:00.000',
          status: 'upcoming',
          is_live: false,
          external_ids: { book: name },
          updated_at: '2026-11-21 10:00:00.000',
        })),
      );
      const rows = await store.query<{ league: string; external_ids: Record<string, string> }>(
        "SELECT league, external_ids FROM events FINAL WHERE startsWith(id, 'u') ORDER BY id",
      );
      expect(rows).toEqual(names.map((name) => ({ league: name, external_ids: { book: name } })));
    });

    it('inserts every row of a large batch in order (the embedded store builds its text over several turns of the event loop)', async () => {
      await store.exec('CREATE TABLE IF NOT EXISTS contract_large_batch (i UInt32, s String) ENGINE = MergeTree ORDER BY i');
      await store.insert(
        'contract_large_batch',
        Array.from({ length: 30_000 }, (_, i) => ({ i, s: `row ${i} ${'x'.repeat(200)}` })),
      );
      const rows = await store.query<{ n: number; total: number; longest: number; last: string }>(
        'SELECT count() AS n, sum(i) AS total, max(length(s)) AS longest, argMax(s, i) AS last FROM contract_large_batch',
      );
      expect(rows).toEqual([{ n: 30_000, total: 449_985_000, longest: 210, last: `row 29999 ${'x'.repeat(200)}` }]);
    });

    it('stores a plain object given for a String column as its JSON text, exactly as JSON.stringify writes it', async () => {
      await store.exec('CREATE TABLE IF NOT EXISTS contract_object_text (id String, record String) ENGINE = MergeTree ORDER BY id');
      const record = {
        id: 'o1',
        value: 2.5,
        team: 'Atlético "Q" \\ 北京 🏀',
        legs: [{ line: null, live: true, price: -0.1 }],
        big: 1e21,
        tiny: 1e-7,
        empty: {},
      };
      await store.insert('contract_object_text', [
        { id: 'o1', record },
        { id: 'o2', record: 'already text' },
      ]);
      const rows = await store.query<{ id: string; record: string }>('SELECT id, record FROM contract_object_text ORDER BY id');
      expect(rows).toEqual([
        { id: 'o1', record: JSON.stringify(record) },
        { id: 'o2', record: 'already text' },
      ]);
    });

    it('binds query parameters server-side', async () => {
      const rows = await store.query<{ n: number }>('SELECT count() AS n FROM odds_ticks WHERE sportsbook = {book:String}', {
        book: 'pinnacle',
      });
      expect(rows).toEqual([{ n: 2 }]);
    });

    it('raises a typed, non-retryable StoreError for a bad statement', async () => {
      const failure = store.query('SELECT nope FROM no_such_table');
      await expect(failure).rejects.toBeInstanceOf(StoreError);
      await expect(failure).rejects.toMatchObject({ retryable: false });
    });
  });
}
