import { describe, expect, it } from 'vitest';
import type { LeagueDef, RawTick, TeamDef } from '../../schemas/index.js';
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
    markets: ['moneyline', 'point_spread'],
    threeWay: false,
    scoring: { total: 228, spreadStep: 0.5, totalStep: 0.5 },
    propStats: [],
  },
  {
    id: 'ncaaf',
    numericalId: 2,
    name: 'NCAAF',
    sport: 'football',
    season: { from: 8, to: 1 },
    markets: ['moneyline'],
    threeWay: false,
    scoring: { total: 52, spreadStep: 0.5, totalStep: 0.5 },
    propStats: [],
  },
];
const team = (id: string, n: number, name: string, abbreviation: string | null, league: string, aliases: string[]): TeamDef => ({
  id,
  numericalId: n,
  name,
  abbreviation,
  sport: league === 'nba' ? 'basketball' : 'football',
  leagues: [league],
  aliases,
});
const teams: TeamDef[] = [
  team('lakers', 1, 'Los Angeles Lakers', 'LAL', 'nba', ['LA Lakers', 'Lakers']),
  team('celtics', 2, 'Boston Celtics', 'BOS', 'nba', ['Celtics']),
  team('washington', 3, 'Washington Huskies', 'WASH', 'ncaaf', ['Washington']),
  team('washington-state', 4, 'Washington State Cougars', 'WSU', 'ncaaf', ['Washington State', 'Washington St']),
  team('oregon', 5, 'Oregon Ducks', 'ORE', 'ncaaf', ['Oregon']),
  team('oregon-state', 6, 'Oregon State Beavers', 'ORST', 'ncaaf', ['Oregon State', 'Oregon St']),
];

const raw = (over: Partial<RawTick>): RawTick => rawTick(T0, { bookEventId: 'p1', ...over });

const fresh = (): Normalizer => new Normalizer({ teams, leagues });

describe('Normalizer', () => {
  it('maps two books spelling the teams differently onto one event with both external ids', () => {
    const n = fresh();
    const a = n.handle(raw({}), T0);
    const b = n.handle(raw({ book: 'draftkings', bookEventId: '901', homeTeam: 'LA Lakers', awayTeam: 'BOS', outcome: 'LA Lakers' }), T0);
    expect(a.tick?.eventId).toBe('nba-20261122-bos-lal');
    expect(b.tick?.eventId).toBe('nba-20261122-bos-lal');
    expect(b.tick?.selection).toBe('home');
    expect(b.events).toHaveLength(1);
    expect(b.events[0]?.externalIds).toEqual({ pinnacle: 'p1', draftkings: '901' });
  });

  it('matches a book whose start time is 90 minutes off, and splits games more than three hours apart', () => {
    const n = fresh();
    n.handle(raw({}), T0);
    const late = n.handle(raw({ book: 'fanduel', bookEventId: 'f1', startTime: T0 + 1.5 * H }), T0);
    const otherGame = n.handle(raw({ book: 'fanduel', bookEventId: 'f2', startTime: T0 + 26 * H }), T0);
    expect(late.tick?.eventId).toBe('nba-20261122-bos-lal');
    expect(otherGame.tick?.eventId).toBe('nba-20261123-bos-lal');
  });

  it('keeps the two games of a doubleheader apart even when a book lists the second game first', () => {
    const n = fresh();
    const g1 = n.handle(raw({ bookEventId: 'p-g1', startTime: T0 }), T0).tick?.eventId;
    const g2 = n.handle(raw({ bookEventId: 'p-g2', startTime: T0 + 4 * H }), T0).tick?.eventId;
    const dkG2 = n.handle(raw({ book: 'draftkings', bookEventId: 'dk-g2', startTime: T0 + 4 * H + 20 * 60_000 }), T0).tick?.eventId;
    const dkG1 = n.handle(raw({ book: 'draftkings', bookEventId: 'dk-g1', startTime: T0 + 20 * 60_000 }), T0).tick?.eventId;
    expect(g1).toBe('nba-20261122-bos-lal');
    expect(g2).toBe('nba-20261122-bos-lal-2');
    expect([dkG1, dkG2]).toEqual([g1, g2]);
  });

  it('never lets one book list the same canonical event twice: its second listing becomes another event', () => {
    const n = fresh();
    const first = n.handle(raw({ bookEventId: 'x1' }), T0).tick?.eventId;
    const second = n.handle(raw({ bookEventId: 'x2', startTime: T0 + 30 * 60_000 }), T0).tick?.eventId;
    expect(second).not.toBe(first);
  });

  it('tells "Washington" from "Washington State"', () => {
    const n = fresh();
    const huskies = n.handle(
      raw({ sport: 'football', league: 'ncaaf', bookEventId: 'w1', homeTeam: 'Washington', awayTeam: 'Oregon', outcome: 'Washington' }),
      T0,
    );
    const cougars = n.handle(
      raw({
        sport: 'football',
        league: 'ncaaf',
        bookEventId: 'w2',
        homeTeam: 'Washington St',
        awayTeam: 'Oregon St',
        outcome: 'Washington St',
      }),
      T0,
    );
    expect(huskies.events[0]?.homeTeamId).toBe('washington');
    expect(cougars.events[0]?.homeTeamId).toBe('washington-state');
    expect(huskies.tick?.eventId).not.toBe(cougars.tick?.eventId);
  });

  it('maps outcomes by team, so a book listing home and away the other way round prices the right side', () => {
    const n = fresh();
    n.handle(raw({}), T0);
    const reversed = n.handle(
      raw({
        book: 'bovada',
        bookEventId: 'bv1',
        homeTeam: 'Boston Celtics',
        awayTeam: 'Los Angeles Lakers',
        market: 'point_spread',
        outcome: 'Boston Celtics',
        line: 4.5,
        priceAmerican: -110,
      }),
      T0,
    );
    expect(reversed.tick?.eventId).toBe('nba-20261122-bos-lal');
    expect(reversed.tick?.selection).toBe('away');
    expect(reversed.tick?.line).toBe(4.5);
  });

  it('counts an unknown team as unmatched and emits nothing for it', () => {
    const n = fresh();
    const r = n.handle(raw({ homeTeam: 'Seattle SuperSonics' }), T0);
    expect(r).toEqual({ tick: null, events: [], unmatched: 'unknown_team' });
    expect(n.counts.unmatched.get('unknown_team')).toBe(1);
  });

  it('counts an unknown league as unmatched', () => {
    const n = fresh();
    expect(n.handle(raw({ league: 'xfl' }), T0).unmatched).toBe('unknown_league');
  });

  it('turns a suspension into a suspended tick with no price', () => {
    const n = fresh();
    const r = n.handle(raw({ status: 'suspended', priceAmerican: null }), T0);
    expect(r.tick?.status).toBe('suspended');
    expect(r.tick?.priceAmerican).toBeNull();
  });

  it('emits an event update when the game goes live', () => {
    const n = fresh();
    n.handle(raw({}), T0);
    const r = n.handle(raw({ isLive: true }), T0 + 1000);
    expect(r.events.map((e) => [e.status, e.isLive])).toEqual([['live', true]]);
  });

  it('follows start time changes only from the book that created the event', () => {
    const n = fresh();
    n.handle(raw({}), T0);
    n.handle(raw({ book: 'draftkings', bookEventId: 'd1' }), T0);
    expect(n.handle(raw({ book: 'draftkings', bookEventId: 'd1', startTime: T0 + H }), T0).events).toEqual([]);
    expect(n.handle(raw({ startTime: T0 + H }), T0).events[0]?.startTime).toBe(T0 + H);
  });

  it('follows a start time corrected by seconds at kickoff (feeds report the actual start)', () => {
    const n = fresh();
    n.handle(raw({}), T0);
    expect(n.handle(raw({ startTime: T0 + 45_000, isLive: true }), T0).events[0]?.startTime).toBe(T0 + 45_000);
  });

  it('maps a team total participant to the side and keeps player names', () => {
    const n = fresh();
    const tt = n.handle(raw({ market: 'team_total', outcome: 'Over', line: 112.5, participant: 'LA Lakers' }), T0);
    const prop = n.handle(
      raw({ market: 'player_prop', outcome: 'Under', line: 27.5, participant: ' L. James ', statCategory: 'points' }),
      T0,
    );
    expect([tt.tick?.selection, tt.tick?.participant]).toEqual(['over', 'home']);
    expect([prop.tick?.selection, prop.tick?.participant, prop.tick?.statCategory]).toEqual(['under', 'L. James', 'points']);
  });
});
