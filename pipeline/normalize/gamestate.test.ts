import { describe, expect, it } from 'vitest';
import type { LeagueDef, RawGameState, RawTick, TeamDef } from '../../schemas/index.js';
import { Normalizer } from './normalizer.js';
import { rawTick } from '../../test/support/raw-tick.js';

const H = 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 22, 18, 0);
const leagues: LeagueDef[] = [
  {
    id: 'nba',
    numericalId: 1,
    name: 'NBA',
    sport: 'basketball',
    season: { from: 10, to: 6 },
    markets: ['moneyline'],
    threeWay: false,
    scoring: { total: 228, spreadStep: 0.5, totalStep: 0.5 },
    propStats: [],
  },
];
const teams: TeamDef[] = [
  {
    id: 'lakers',
    numericalId: 1,
    name: 'Los Angeles Lakers',
    abbreviation: 'LAL',
    sport: 'basketball',
    leagues: ['nba'],
    aliases: ['Lakers'],
  },
  {
    id: 'celtics',
    numericalId: 2,
    name: 'Boston Celtics',
    abbreviation: 'BOS',
    sport: 'basketball',
    leagues: ['nba'],
    aliases: ['Celtics'],
  },
];

const raw = (over: Partial<RawTick> = {}): RawTick => rawTick(T0, { bookEventId: 'p1', ...over });

function state(over: Partial<RawGameState> = {}): RawGameState {
  return {
    kind: 'gamestate',
    book: 'pinnacle',
    bookEventId: 'p1',
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    status: 'live',
    homeScore: 10,
    awayScore: 7,
    period: 'Q1',
    clock: '05:00',
    possession: 'home',
    server: null,
    lastPlay: 'home +2 (Q1)',
    extras: { fouls: [2, 3] },
    ts: T0 + 600_000,
    ...over,
  };
}

describe('game state in the normalizer', () => {
  it('resolves a known listing to its canonical event and makes the reported status the event status', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(raw(), T0 - H);
    const r = n.handleGameState(state(), T0 + 600_000);
    expect(r.state).toMatchObject({
      eventId: 'nba-20261122-bos-lal',
      status: 'live',
      homeScore: 10,
      awayScore: 7,
      possession: 'home',
      primaryBook: 'pinnacle',
      bookCount: 1,
    });
    expect(r.events.map((e) => [e.status, e.isLive])).toEqual([['live', true]]);
    const end = n.handleGameState(state({ status: 'final', homeScore: 101, awayScore: 99, period: 'FT' }), T0 + 3 * H);
    expect(end.events.map((e) => [e.status, e.isLive])).toEqual([['final', false]]);
  });

  it('turns scores round when the reporting book lists the teams the other way', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(raw(), T0 - H);
    n.handle(
      raw({ book: 'draftkings', bookEventId: 'd9', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', outcome: 'Boston Celtics' }),
      T0 - H,
    );
    const r = n.handleGameState(
      state({
        book: 'draftkings',
        bookEventId: 'd9',
        homeTeam: 'Boston Celtics',
        awayTeam: 'Los Angeles Lakers',
        homeScore: 7,
        awayScore: 10,
        possession: 'away',
      }),
      T0,
    );
    expect(r.state).toMatchObject({ homeScore: 10, awayScore: 7, possession: 'home', extras: { fouls: [3, 2] } });
  });

  it('turns cricket’s wickets and overs round with the scores', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(raw(), T0 - H);
    n.handle(
      raw({ book: 'draftkings', bookEventId: 'd9', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', outcome: 'Boston Celtics' }),
      T0 - H,
    );
    const reported = state({
      book: 'draftkings',
      bookEventId: 'd9',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Los Angeles Lakers',
      extras: { wickets: [7, 2], overs: ['20', '7.1'] },
    });
    expect(n.handleGameState(reported, T0).state?.extras).toEqual({ wickets: [2, 7], overs: ['7.1', '20'] });
  });

  it('counts a state for a listing it does not know and changes nothing', () => {
    const n = new Normalizer({ teams, leagues });
    expect(n.handleGameState(state(), T0)).toEqual({ state: null, events: [], unmatched: 'unknown_listing' });
  });

  it('keeps a finished event closed: a late open price is dropped, a late live flag ignored', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(raw(), T0 - H);
    n.handleGameState(state({ status: 'final' }), T0 + 3 * H);
    const late = n.handle(raw({ isLive: true, ts: T0 + 3 * H }), T0 + 3 * H);
    expect(late).toEqual({ tick: null, events: [], unmatched: 'event_closed' });
    const pulled = n.handle(raw({ priceAmerican: null, status: 'suspended', ts: T0 + 3 * H }), T0 + 3 * H);
    expect(pulled.tick?.status).toBe('suspended');
  });

  it('closes a live event nobody reports game state on six hours after its start', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(raw({ isLive: true, ts: T0 + 60_000 }), T0 + 60_000);
    expect(n.closeFinishedEvents(T0 + 6 * H - 1)).toEqual([]);
    expect(n.closeFinishedEvents(T0 + 6 * H).map((e) => [e.id, e.status])).toEqual([['nba-20261122-bos-lal', 'final']]);
    expect(n.closeFinishedEvents(T0 + 7 * H)).toEqual([]);
  });
});
