import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateRecording, missingRecordingNote } from '../../scripts/recordings/index.js';
import { backtestBets, backtestTable, roi, unitProfit } from './backtest.js';
import { parseFootballData } from './football-data.js';

const RECORDING = 'football-data_E0_2024-25.csv';
const SEASON = locateRecording(RECORDING) ?? '';

describe('grading a bet on the result', () => {
  const bet = { market: 'point_spread' as const, selection: 'home' as const, decimal: 2 };
  it('splits a quarter handicap into two half stakes on the lines beside it', () => {
    expect(unitProfit({ ...bet, line: -0.75 }, { home: 1, away: 0 })).toBe(0.5);
    expect(unitProfit({ ...bet, line: -0.25 }, { home: 0, away: 0 })).toBe(-0.5);
    expect(unitProfit({ ...bet, line: 0.25 }, { home: 0, away: 0 })).toBe(0.5);
  });
  it('pushes a whole-goal handicap on the number and settles 1X2 and totals like the closing processor', () => {
    expect(unitProfit({ ...bet, line: -1 }, { home: 2, away: 1 })).toBe(0);
    expect(unitProfit({ market: 'moneyline', selection: 'draw', line: null, decimal: 3.4 }, { home: 1, away: 1 })).toBeCloseTo(2.4, 12);
    expect(unitProfit({ market: 'total_points', selection: 'over', line: 2.5, decimal: 1.9 }, { home: 1, away: 1 })).toBe(-1);
  });
});

describe('ROI with an interval clustered by match', () => {
  it('weighs profit by stake and widens the interval by the spread between matches', () => {
    const estimate = roi([
      { matchId: 'a', stake: 1, profit: 1 },
      { matchId: 'a', stake: 1, profit: 1 },
      { matchId: 'b', stake: 2, profit: -1 },
    ]);
    // ROI 0; per match won - 0 * staked: +2 and -2; SE = sqrt(2/1 * 8) / 4 = 1.
    expect(estimate.roiPercent).toBe(0);
    expect(estimate.interval?.map((x) => Math.round(x * 100) / 100)).toEqual([-196, 196]);
    expect(roi([{ matchId: 'a', stake: 1, profit: 1 }]).interval).toBeNull();
  });
});

describe('the backtest runs the real +EV engine', () => {
  const FILE = [
    'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,B365H,B365D,B365A,PSCH,PSCD,PSCA',
    'E0,16/08/2024,20:00,Man United,Fulham,1,0,2.0,3.5,4.0,2.2,3.2,3.6,1.9,3.6,4.2',
  ].join('\n');
  it('finds the soft price above the de-vigged reference, never the reference itself, and grades it on close and result', () => {
    const history = parseFootballData(FILE);
    const options = { referenceBook: 'pinnacle', thresholds: [0], methods: ['multiplicative' as const] };
    const bets = backtestBets(history, options);
    expect(bets.map((b) => `${b.book} ${b.selection} ${b.decimal}`)).toEqual(['bet365 home 2.2']);
    const open = 1 / 2 / (1 / 2 + 1 / 3.5 + 1 / 4);
    const close = 1 / 1.9 / (1 / 1.9 + 1 / 3.6 + 1 / 4.2);
    const [bet] = bets;
    expect(bet?.evPercent.multiplicative).toBeCloseTo((open * 2.2 - 1) * 100, 4);
    expect(bet?.clvPercent.multiplicative).toBeCloseTo((close * 2.2 - 1) * 100, 10);
    expect(bet?.profit).toBeCloseTo(1.2, 12);
    expect(backtestTable(bets, options)[0]).toMatchObject({ bets: 1, gradedBets: 1, beatCloseShare: 1, flat: { staked: 1 } });
  });
});

/**
 * The 1X2 rows of the season's table in docs/analysts.md, recomputed from the file's columns by
 * hand: Pinnacle's opening 1X2 de-vigged multiplicatively, every other book's price above it,
 * CLV against Pinnacle's closing 1X2 the same way, the result from FTR.
 */
function byHand(text: string, threshold: number): { bets: number; averageClv: number; beatClose: number; flatRoi: number } {
  const [header, ...lines] = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const at = new Map((header ?? '').split(',').map((name, i) => [name, i]));
  const fair = (cells: string[], prefix: string): number[] => {
    const implied = ['H', 'D', 'A'].map((o) => 1 / Number(cells[at.get(`${prefix}${o}`) ?? -1]));
    const sum = implied.reduce((s, x) => s + x, 0);
    return implied.map((x) => x / sum);
  };
  const clvs: number[] = [];
  let profit = 0;
  for (const line of lines) {
    const cells = line.split(',');
    const open = fair(cells, 'PS');
    const close = fair(cells, 'PSC');
    ['H', 'D', 'A'].forEach((o, i) => {
      for (const book of ['B365', 'BW', 'BF', 'WH', '1XB', 'BFE']) {
        const d = Number(cells[at.get(`${book}${o}`) ?? -1]);
        if (!(d > 1) || !(Math.round(((open[i] as number) * d - 1) * 100 * 1e4) / 1e4 > threshold)) continue;
        clvs.push(((close[i] as number) * d - 1) * 100);
        profit += cells[at.get('FTR') ?? -1] === o ? d - 1 : -1;
      }
    });
  }
  return {
    bets: clvs.length,
    averageClv: clvs.reduce((s, c) => s + c, 0) / clvs.length,
    beatClose: clvs.filter((c) => c > 0).length / clvs.length,
    flatRoi: (profit / clvs.length) * 100,
  };
}

describe('the 2024/25 Premier League backtest, recomputed from the CSV', () => {
  it.runIf(SEASON !== '')('1X2 against Pinnacle, multiplicative, EV above 0 % and 2 %', () => {
    const text = readFileSync(SEASON, 'utf8');
    const options = {
      referenceBook: 'pinnacle',
      thresholds: [0, 2],
      methods: ['multiplicative' as const],
      markets: ['moneyline' as const],
    };
    const table = backtestTable(backtestBets(parseFootballData(text), options), options);
    // The figures docs/analysts.md shows, to the digits it shows.
    expect(
      table.map((r) => [
        r.bets,
        r.averageClvPercent?.toFixed(2),
        ((r.beatCloseShare ?? 0) * 100).toFixed(1),
        r.flat.roiPercent?.toFixed(2),
      ]),
    ).toEqual([
      [710, '1.60', '57.3', '-7.47'],
      [331, '2.73', '60.1', '-12.58'],
    ]);
    for (const row of table) {
      const hand = byHand(text, row.threshold);
      expect(row.bets).toBe(hand.bets);
      expect(row.averageClvPercent).toBeCloseTo(hand.averageClv, 6);
      expect(row.beatCloseShare).toBeCloseTo(hand.beatClose, 12);
      expect(row.flat.roiPercent).toBeCloseTo(hand.flatRoi, 6);
    }
  });
  if (SEASON === '') process.stdout.write(`skipped: the Premier League backtest: ${missingRecordingNote(RECORDING)}\n`);
});
