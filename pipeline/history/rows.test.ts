import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbStore, applyMigrations } from '../store/index.js';
import { parseFootballData } from './football-data.js';
import { storeHistory, storedHistory } from './rows.js';

const FILE = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,PSCH,PSCD,PSCA,AHh,PAHH,PAHA',
  'E0,16/08/2024,20:00,Man United,Fulham,1,0,1.63,4.38,5.3,1.65,4.23,5.28,-1,2.07,1.86',
  'E0,17/08/2024,12:30,Ipswich,Liverpool,0,2,8.18,5.84,1.34,8.14,6.09,1.34,1.5,1.99,1.92',
].join('\n');

let dir: string;
let store: ChdbStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'odds-history-'));
  store = new ChdbStore(dir);
  await applyMigrations(store);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('history in the store', () => {
  it('keeps each row once when a file is imported twice, and reads back what was parsed', async () => {
    const parsed = parseFootballData(FILE);
    await storeHistory(store, parsed, 1_000);
    await storeHistory(store, parsed, 2_000);
    await store.exec('OPTIMIZE TABLE history_matches FINAL');
    await store.exec('OPTIMIZE TABLE history_prices FINAL');
    const count = async (table: string): Promise<number> =>
      Number((await store.query<{ n: string }>(`SELECT count() AS n FROM ${table}`))[0]?.n);
    expect([await count('history_matches'), await count('history_prices')]).toEqual([2, 16]);

    const back = await storedHistory(store, 'football-data');
    const order = (p: { matchId: string; book: string; market: string; selection: string; phase: string }): string =>
      [p.matchId, p.book, p.market, p.selection, p.phase].join('|');
    expect(back.matches).toEqual(parsed.matches);
    expect(back.prices.map(order).sort()).toEqual(parsed.prices.map(order).sort());
    expect(back.prices.find((p) => p.selection === 'away' && p.market === 'point_spread' && p.matchId.includes('ipswich'))).toMatchObject({
      line: -1.5,
      decimal: 1.92,
    });
  });
});
