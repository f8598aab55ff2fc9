import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closingLinesOfDay, closingLinesOfEvent, clvGroups, evHistory } from '../../api/queries/closing-history.js';
import { eventKnown, oddsHistory } from '../../api/queries/odds-history.js';
import { ChdbStore, applyMigrations } from '../../pipeline/store/index.js';

/**
 * Every store query that carries a client's value (event ids, books, sports, leagues, account
 * ids) binds it as a query parameter: a value built to break out of a string literal, end the
 * statement or name another parameter is matched as text, never run. Checked on the real engine:
 * a row stored under the hostile id is found by exactly that id, and no table changes.
 */
const HOSTILE = [
  "x' OR 1 = 1 --",
  "'); DROP TABLE events; --",
  "x\\' OR \\'1\\'=\\'1",
  '{event:String}',
  "x'; INSERT INTO accounts SELECT * FROM accounts; --",
  '__proto__',
  '*/ SELECT 1 /*',
];

let dir: string;
let store: ChdbStore;

async function counts(): Promise<string> {
  const rows = await store.query<{ name: string; n: string }>(
    'SELECT name, toString(total_rows) AS n FROM system.tables WHERE database = currentDatabase() ORDER BY name',
  );
  return rows.map((r) => `${r.name}=${r.n}`).join(' ');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-sql-'));
  store = new ChdbStore(dir);
  await applyMigrations(store);
  const t = '2026-11-28 12:00:00.000';
  await store.insert(
    'events',
    HOSTILE.map((id) => ({
      id,
      sport: 'basketball',
      league: 'nba',
      home_team_id: 'h',
      away_team_id: 'a',
      start_time: t,
      status: 'scheduled',
      is_live: false,
      external_ids: {},
      updated_at: t,
    })),
  );
  await store.insert('accounts', [{ id: 'acct_1', name: 'one', created_at: t, version: 1 }]);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile values in store queries are data', () => {
  it('finds the event stored under each hostile id by that id, and nothing under a near miss', async () => {
    for (const id of HOSTILE) {
      expect(await eventKnown(store, id), id).toBe(true);
      expect(await eventKnown(store, `${id} `), id).toBe(false);
    }
  });

  it('answers every history, closing and CLV query with no rows for hostile values, and changes no table', async () => {
    const before = await counts();
    const window = { from: Date.UTC(2026, 0, 1), to: Date.UTC(2027, 0, 1) };
    for (const v of HOSTILE) {
      expect(
        await oddsHistory(store, { eventId: v, books: [v, 'draftkings'], markets: [v], selections: [v], ...window, limit: 10 }),
        v,
      ).toEqual([]);
      expect(await closingLinesOfEvent(store, v, [v]), v).toEqual([]);
      expect(await closingLinesOfDay(store, '2026-11-28', v, v), v).toEqual([]);
      expect(await clvGroups(store, { ...window, groupBy: 'sportsbook', sport: v, league: v, sportsbook: v, devigBook: v }), v).toEqual([]);
      expect(
        await evHistory(store, { ...window, event: v, sport: v, league: v, sportsbook: v, graded: null, limit: 10, offset: 0 }),
        v,
      ).toEqual({ rows: [], total: 0 });
    }
    expect(await counts()).toBe(before);
    expect(await store.query('SELECT id FROM accounts')).toEqual([{ id: 'acct_1' }]);
  });
});
