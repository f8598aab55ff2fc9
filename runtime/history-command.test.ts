/**
 * `make import-history` and `make backtest` on the embedded store. (Its own file: chDB allows
 * one data directory per process.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHistoryCommand } from './history-command.js';

const FILE = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,B365H,B365D,B365A,PSCH,PSCD,PSCA',
  'E0,16/08/2024,20:00,Man United,Fulham,1,0,2.0,3.5,4.0,2.2,3.2,3.6,1.9,3.6,4.2',
  'E0,17/08/2024,12:30,Ipswich,Liverpool,0,2,x,5.84,1.34,8.5,5.5,1.33,8.14,6.09,1.34',
].join('\n');

describe('make import-history and make backtest', () => {
  it('imports a file (and again: rows replaced, the same answer), names its bad cells, and backtests what the store holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'odds-history-command-'));
    const env = { DATA_DIR: dir };
    const file = join(dir, 'E0.csv');
    writeFileSync(file, FILE);
    try {
      await expect(runHistoryCommand(['backtest'], env)).rejects.toThrow(
        /no football-data history imported: run make import-history first/,
      );
      const first = await runHistoryCommand(['import', '--file', file, '--format', 'football-data'], env);
      expect(first).toEqual([
        `${file}:3: PSH: 'x' is not a decimal price above 1`,
        `${file}: 2 matches and 17 prices imported (football-data); 1 cells not read`,
      ]);
      expect(await runHistoryCommand(['import', '--file', file, '--format', 'football-data'], env)).toEqual(first);

      const report = await runHistoryCommand(['backtest', '--thresholds', '0,2', '--markets', 'moneyline'], env);
      expect(report[0]).toMatch(/^2 matches from the store \(football-data\); .* 1 \+EV prices in /);
      // Bet365's 2.2 on the home side: close fair 0.5263 / 1.0422 = 0.505, CLV 11.10 %; it won: +1.2 a unit.
      const rows = (report[2] ?? '').split('\n');
      expect(rows[0]).toMatch(/^method +EV > +bets +avg CLV % +beat close +flat ROI % \[95% CI\] +Kelly ROI % \[95% CI\]$/);
      expect(rows.find((r) => r.startsWith('multiplicative') && r.includes(' 0% '))).toMatch(
        /^multiplicative +0% +1 +11\.10 +100\.0% +120\.00 +120\.00$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a bad request with what to type, before opening any store', async () => {
    await expect(runHistoryCommand(['import', '--format', 'football-data'], {})).rejects.toThrow(
      /FILE is required\nusage: make import-history/,
    );
    await expect(runHistoryCommand(['import', '--file', 'x.csv', '--format', 'oddsportal'], {})).rejects.toThrow(
      /FORMAT 'oddsportal' is not one of football-data/,
    );
    await expect(runHistoryCommand(['backtest', '--file', 'x.csv', '--thresholds', '1,abc'], {})).rejects.toThrow(/THRESHOLDS must be/);
    await expect(runHistoryCommand(['backtest', '--file', 'x.csv', '--markets', 'player_prop'], {})).rejects.toThrow(
      /MARKETS: 'player_prop'/,
    );
    await expect(runHistoryCommand(['import', '--file', '/nonexistent/x.csv', '--format', 'football-data'], {})).rejects.toThrow(
      /cannot read FILE/,
    );
    await expect(runHistoryCommand(['replay'], {})).rejects.toThrow(/usage: make import-history/);
  });
});
