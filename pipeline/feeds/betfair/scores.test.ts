/**
 * Betfair's cricket score messages as game-state reports: each part a message carries replaces
 * the last one, runs, wickets and overs add up per batting side, and a message that moves
 * nothing gives no report.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueMarket } from './catalogue.js';
import { CricketScoreMapper } from './scores.js';

const MARKET: CatalogueMarket = {
  marketId: '1.5',
  marketName: 'Match Odds',
  marketStartTime: '2022-07-11T11:30:00.000Z',
  marketType: 'MATCH_ODDS',
  eventTypeId: '4',
  eventTypeName: 'Cricket',
  competitionName: null,
  eventId: '99',
  eventName: 'Netherlands v Papua New Guinea',
  runners: [],
};
const catalogue = (id: string): CatalogueMarket | undefined => (id === '1.5' ? MARKET : undefined);

const fixture = (status: string) => ({ homeTeam: 'Netherlands', awayTeam: 'Papua New Guinea', fixtureStatus: status });
const innings = (n: number, batting: string, runs: number, overs: string, wickets: number) => ({
  inningsNum: n,
  battingTeam: batting,
  inningsRuns: runs,
  inningsOvers: overs,
  inningsWickets: wickets,
});
const ccm = (pt: number, change: Record<string, unknown>): string =>
  JSON.stringify({ op: 'ccm', clk: String(pt), pt, cc: [{ eventId: '99', marketId: '1.5', ...change }] });

describe('cricket score messages as game state', () => {
  it('reports the fixture’s status, each side’s runs, wickets and overs, and the innings being played', () => {
    const m = new CricketScoreMapper('betfair_ex_eu', catalogue);
    expect(m.receive(ccm(1_000, { fixtureInfo: fixture('PRE_MATCH') }))).toEqual({
      kind: 'scores',
      publishTime: 1_000,
      states: [
        {
          kind: 'gamestate',
          book: 'betfair_ex_eu',
          bookEventId: '99',
          sport: 'cricket',
          league: 'test_cricket',
          homeTeam: 'Netherlands',
          awayTeam: 'Papua New Guinea',
          ts: 1_000,
          status: 'upcoming',
          homeScore: 0,
          awayScore: 0,
          period: null,
          clock: null,
          possession: null,
          server: null,
          lastPlay: null,
          extras: {},
        },
      ],
    });
    const stats = {
      currentInnings: 2,
      inningsStats: [innings(1, 'Netherlands', 163, '20', 7), innings(2, 'Papua New Guinea', 35, '7.1', 2)],
    };
    const live = m.receive(ccm(2_000, { fixtureInfo: fixture('IN_RUNNING'), matchStats: stats }));
    expect(live).toMatchObject({
      states: [
        { status: 'live', homeScore: 163, awayScore: 35, period: 'I2', extras: { wickets: [7, 2], overs: ['20', '7.1'] }, ts: 2_000 },
      ],
    });
  });

  it('keeps the parts a message leaves out, and sends nothing when the state did not move', () => {
    const m = new CricketScoreMapper('betfair_ex_eu', catalogue);
    m.receive(
      ccm(1_000, {
        fixtureInfo: fixture('IN_RUNNING'),
        matchStats: { currentInnings: 1, inningsStats: [innings(1, 'Netherlands', 12, '2.3', 1)] },
      }),
    );
    // The same score with its overs written "2.3" again, and a status-only message: no new report.
    expect(m.receive(ccm(2_000, { fixtureInfo: fixture('IN_RUNNING') }))).toEqual({ kind: 'scores', publishTime: 2_000, states: [] });
    const next = m.receive(ccm(3_000, { matchStats: { currentInnings: 1, inningsStats: [innings(1, 'Netherlands', 16, '2.4', 1)] } }));
    expect(next).toMatchObject({ states: [{ status: 'live', homeScore: 16, extras: { wickets: [1, 0], overs: ['2.4', '0'] } }] });
  });

  it('adds up a side’s innings in balls (a two-innings match)', () => {
    const m = new CricketScoreMapper('betfair_ex_eu', catalogue);
    const stats = {
      currentInnings: 3,
      inningsStats: [
        innings(1, 'Netherlands', 200, '50.4', 10),
        innings(2, 'Papua New Guinea', 150, '40', 10),
        innings(3, 'Netherlands', 20, '5.3', 0),
      ],
    };
    expect(m.receive(ccm(1_000, { fixtureInfo: fixture('IN_RUNNING'), matchStats: stats }))).toMatchObject({
      states: [{ homeScore: 220, awayScore: 150, period: 'I3', extras: { wickets: [10, 10], overs: ['56.1', '40'] } }],
    });
  });

  it('says why a message cannot be read, and ignores other operations', () => {
    const m = new CricketScoreMapper('betfair_ex_eu', catalogue);
    expect(m.receive('{"op":"ccm","pt":')).toEqual({ kind: 'invalid', reason: 'not JSON', marketId: null });
    expect(m.receive('{"op":"ccm","cc":[]}')).toEqual({ kind: 'invalid', reason: 'ccm without a publish time (pt)', marketId: null });
    expect(m.receive('{"op":"ccm","pt":5}')).toEqual({ kind: 'invalid', reason: 'ccm without its changes (cc)', marketId: null });
    expect(m.receive('{"op":"heartbeat","pt":5}')).toEqual({ kind: 'other' });
  });

  it('reports nothing for a market the catalogue does not name', () => {
    const m = new CricketScoreMapper('betfair_ex_eu', () => undefined);
    expect(m.receive(ccm(1_000, { fixtureInfo: fixture('IN_RUNNING') }))).toEqual({ kind: 'scores', publishTime: 1_000, states: [] });
  });
});
