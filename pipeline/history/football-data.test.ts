import { describe, expect, it } from 'vitest';
import { parseFootballData } from './football-data.js';

// A football-data.co.uk file cut down to the columns read: result, Pinnacle and Bet365 1X2,
// Pinnacle over/under 2.5 and Asian handicap, opening and closing.
const HEADER =
  '\uFEFFDiv,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,B365H,B365D,B365A,PSH,PSD,PSA,P>2.5,P<2.5,AHh,PAHH,PAHA,B365CH,B365CD,B365CA,PSCH,PSCD,PSCA,PC>2.5,PC<2.5,AHCh,PCAHH,PCAHA';
const SUMMER =
  'E0,16/08/2024,20:00,Man United,Fulham,1,0,H,1.6,4.2,5.25,1.63,4.38,5.3,1.56,2.56,-1,2.07,1.86,1.67,4.1,5,1.65,4.23,5.28,1.63,2.38,-0.75,1.83,2.11';
const WINTER =
  "E0,04/01/2025,15:00,Nott'm Forest,Wolves,3,0,H,1.9,3.5,4.2,1.95,3.6,4.3,2.1,1.8,-0.25,1.9,2,,,,1.9,3.7,4.4,2.05,1.85,-0.5,2.1,1.8";

describe('football-data.co.uk files', () => {
  it('reads a match with its result, an id from its own facts and the kickoff in UTC (UK summer time is UTC+1)', () => {
    const { matches, problems } = parseFootballData([HEADER, SUMMER, WINTER].join('\r\n'));
    expect(problems).toEqual([]);
    expect(matches).toEqual([
      {
        source: 'football-data',
        matchId: 'epl-20240816-fulham-man-united',
        league: 'epl',
        kickoff: Date.UTC(2024, 7, 16, 19, 0),
        homeTeam: 'Man United',
        awayTeam: 'Fulham',
        homeGoals: 1,
        awayGoals: 0,
      },
      expect.objectContaining({ matchId: 'epl-20250104-wolves-nott-m-forest', kickoff: Date.UTC(2025, 0, 4, 15, 0) }),
    ]);
  });

  it('reads every priced outcome per book and phase, the handicap on both sides and the total at 2.5; an empty cell is no price', () => {
    const { prices } = parseFootballData([HEADER, WINTER].join('\n'));
    const of = (book: string, phase: string): string[] =>
      prices.filter((p) => p.book === book && p.phase === phase).map((p) => `${p.market} ${p.selection} ${String(p.line)} ${p.decimal}`);
    expect(of('pinnacle', 'opening')).toEqual([
      'moneyline home null 1.95',
      'moneyline draw null 3.6',
      'moneyline away null 4.3',
      'total_points over 2.5 2.1',
      'total_points under 2.5 1.8',
      'point_spread home -0.25 1.9',
      'point_spread away 0.25 2',
    ]);
    expect(of('pinnacle', 'closing').slice(5)).toEqual(['point_spread home -0.5 2.1', 'point_spread away 0.5 1.8']);
    expect(of('bet365', 'closing')).toEqual([]);
    expect(of('bet365', 'opening')).toEqual(['moneyline home null 1.9', 'moneyline draw null 3.5', 'moneyline away null 4.2']);
  });

  it('reports a bad cell by line and column and keeps the rest of the row; a match it cannot name is reported and skipped', () => {
    const badPrice = SUMMER.replace(',1.63,4.38,', ',abc,1,');
    const badDate = WINTER.replace('04/01/2025', '31/02/2025');
    const badGoals = SUMMER.replace('Fulham,1,0', 'Fulham,1,');
    const { matches, prices, problems } = parseFootballData([HEADER, badPrice, badDate, badGoals].join('\n'));
    expect(problems).toEqual([
      { line: 2, field: 'PSH', reason: "'abc' is not a decimal price above 1" },
      { line: 2, field: 'PSD', reason: "'1' is not a decimal price above 1" },
      { line: 3, field: 'Date', reason: 'not a dd/mm/yyyy date (with an HH:MM time)' },
      { line: 4, field: 'FTAG', reason: 'not a whole number of goals' },
    ]);
    expect(matches.map((m) => m.matchId)).toEqual(['epl-20240816-fulham-man-united']);
    expect(
      prices.filter((p) => p.book === 'pinnacle' && p.phase === 'opening' && p.market === 'moneyline').map((p) => p.selection),
    ).toEqual(['away']);
  });
});
