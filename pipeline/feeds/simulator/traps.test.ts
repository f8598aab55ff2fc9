import { describe, expect, it } from 'vitest';
import { LEAGUES, type RawTick, type TeamDef, foldName } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { MarketSimulator, type TrueEvent, syntheticTeams } from './index.js';
import { findNameTwins } from './traps.js';

const NOVEMBER = Date.UTC(2026, 10, 21, 4, 35);
const APRIL = Date.UTC(2026, 3, 10, 9, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function simulator(at = NOVEMBER, teams: readonly TeamDef[] = syntheticTeams(LEAGUES)): MarketSimulator {
  return new MarketSimulator({ clock: new ManualClock(at), catalog: { teams } });
}

const withTrap = (events: readonly TrueEvent[], trap: string): TrueEvent[] => events.filter((e) => e.traps.some((t) => t === trap));

describe('matcher traps in a default run', () => {
  it('reports start times exactly at most books, off by 5-90 minutes at a few, rounded to the hour at one', () => {
    const events = simulator().trueEvents();
    const offsets = new Map<string, Set<number>>();
    for (const e of events) {
      for (const [book, l] of Object.entries(e.books)) {
        offsets.set(book, (offsets.get(book) ?? new Set()).add((l.startTime - e.startTime) / MINUTE));
      }
    }
    const exact = [...offsets].filter(([, o]) => o.size === 1 && o.has(0)).map(([b]) => b);
    const off = [...offsets].filter(([, o]) => [...o].some((m) => Math.abs(m) >= 5)).map(([b]) => b);
    expect(exact.length).toBeGreaterThanOrEqual(15);
    expect(off.sort()).toEqual(['betonlineag', 'betus', 'mybookieag', 'sportsbet']);
    for (const book of ['betus', 'mybookieag', 'sportsbet']) {
      for (const m of offsets.get(book) ?? []) expect(m === 0 || (Math.abs(m) >= 5 && Math.abs(m) <= 90)).toBe(true);
    }
    const rounding = events.flatMap((e) => (e.books['betonlineag'] ? [e.books['betonlineag'].startTime] : []));
    expect(rounding.every((t) => t % HOUR === 0)).toBe(true);
    expect(events.some((e) => e.startTime % HOUR !== 0)).toBe(true);
  });

  it('lists a doubleheader: the same teams twice on one day, 3-6 hours apart, under separate ids', () => {
    const games = withTrap(simulator().trueEvents(), 'doubleheader');
    expect(games).toHaveLength(2);
    const [a, b] = games;
    if (a === undefined || b === undefined) return;
    expect([b.league, b.homeTeamId, b.awayTeamId]).toEqual([a.league, a.homeTeamId, a.awayTeamId]);
    expect(a.league).toBe('nhl'); // MLB is out of season in November
    expect(Math.floor(a.startTime / (24 * HOUR))).toBe(Math.floor(b.startTime / (24 * HOUR)));
    const gap = b.startTime - a.startTime;
    expect(gap).toBeGreaterThanOrEqual(3 * HOUR);
    expect(gap).toBeLessThanOrEqual(6 * HOUR);
    expect(Object.keys(a.books).length).toBeGreaterThanOrEqual(20);
    for (const [book, l] of Object.entries(a.books)) expect(b.books[book]?.bookEventId).not.toBe(l.bookEventId);
  });

  it('plays Washington and Washington State the same day at similar times, against different opponents', () => {
    const sim = simulator();
    const games = withTrap(sim.trueEvents(), 'name_twin');
    expect(games).toHaveLength(2);
    const [a, b] = games;
    if (a === undefined || b === undefined) return;
    const teams = (e: TrueEvent): string[] => [e.homeTeamId, e.awayTeamId];
    expect([...teams(a), ...teams(b)]).toEqual(expect.arrayContaining(['ncaaf-washington-huskies', 'ncaaf-washington-state-cougars']));
    expect(new Set([...teams(a), ...teams(b)]).size).toBe(4);
    expect(Math.abs(a.startTime - b.startTime)).toBeLessThanOrEqual(30 * MINUTE);
    const names = (id: string): Set<string> =>
      new Set(
        [a, b].flatMap((e) =>
          Object.values(e.books).flatMap((l) => {
            const [home, away] = l.flipped ? [l.awayTeam, l.homeTeam] : [l.homeTeam, l.awayTeam];
            return e.homeTeamId === id ? [home] : e.awayTeamId === id ? [away] : [];
          }),
        ),
      );
    expect([...names('ncaaf-washington-huskies')].sort()).toEqual(['UW Huskies', 'Washington', 'Washington Huskies']);
    expect([...names('ncaaf-washington-state-cougars')].sort()).toEqual([
      'Washington St',
      'Washington St.',
      'Washington State',
      'Washington State Cougars',
    ]);
  });

  it('lists neutral-site games home/away reversed at some books, outcomes still naming the right team', () => {
    const sim = simulator();
    const board = sim.snapshot();
    const flippedGames = sim.trueEvents().filter((e) => Object.values(e.books).some((l) => l.flipped));
    expect(flippedGames.length).toBeGreaterThan(0);
    for (const e of flippedGames) {
      expect(e.neutralSite).toBe(true);
      const pin = e.books['pinnacle'];
      const flipped = Object.entries(e.books).find(([, l]) => l.flipped);
      if (pin === undefined || flipped === undefined) continue;
      const [book, l] = flipped;
      const ticks = (b: string, id: string, market: string): RawTick[] =>
        board.filter((t) => t.book === b && t.bookEventId === id && t.market === market);
      // The flipped book's "away" team is the true home team: its prices lean the same way as Pinnacle's home price.
      const pinHome = ticks('pinnacle', pin.bookEventId, 'moneyline').find((t) => t.outcome === pin.homeTeam);
      const theirHome = ticks(book, l.bookEventId, 'moneyline').find((t) => t.outcome === l.awayTeam);
      expect(theirHome).toBeDefined();
      if (pinHome !== undefined && theirHome !== undefined && Math.abs(pinHome.priceAmerican ?? 0) >= 150) {
        expect(Math.sign(theirHome.priceAmerican ?? 0)).toBe(Math.sign(pinHome.priceAmerican ?? 0));
      }
      const spread = ticks(book, l.bookEventId, 'point_spread');
      if (spread.length === 2) {
        const pinSpread = ticks('pinnacle', pin.bookEventId, 'point_spread').find((t) => t.outcome === pin.homeTeam);
        const theirs = spread.find((t) => t.outcome === l.awayTeam);
        expect(Math.sign(theirs?.line ?? 0)).toBe(Math.sign(pinSpread?.line ?? 0));
      }
    }
  });

  it('finds the look-alike pair in another league when college football is out of season', () => {
    const team = (id: string, name: string, aliases: string[]): TeamDef => ({
      id,
      numericalId: 0,
      name,
      abbreviation: null,
      sport: 'basketball',
      leagues: ['ncaab'],
      aliases,
    });
    const teams = [
      ...syntheticTeams(LEAGUES.filter((l) => l.id !== 'ncaab')),
      team('kansas-jayhawks', 'Kansas Jayhawks', ['Kansas']),
      team('kansas-state-wildcats', 'Kansas State Wildcats', ['Kansas St', 'Kansas State']),
      team('duke', 'Duke Blue Devils', ['Duke']),
      team('baylor', 'Baylor Bears', ['Baylor']),
      team('gonzaga', 'Gonzaga Bulldogs', ['Gonzaga']),
    ];
    const games = withTrap(simulator(APRIL, teams).trueEvents(), 'name_twin');
    expect(games.map((g) => g.league)).toEqual(['ncaab', 'ncaab']);
    const ids = games.flatMap((g) => [g.homeTeamId, g.awayTeamId]);
    expect(ids).toEqual(expect.arrayContaining(['kansas-jayhawks', 'kansas-state-wildcats']));
    const doubleheader = withTrap(simulator(APRIL, teams).trueEvents(), 'doubleheader');
    expect(doubleheader.map((g) => g.league)).toEqual(['mlb', 'mlb']);
  });
});

describe('findNameTwins', () => {
  const team = (id: string, name: string, aliases: string[] = []): TeamDef => ({
    id,
    numericalId: 0,
    name,
    abbreviation: null,
    sport: 'football',
    leagues: ['ncaaf'],
    aliases,
  });

  it('prefers Washington over other word-prefix pairs', () => {
    const miami = team('miami', 'Miami Hurricanes', ['Miami']);
    const miamiOh = team('miami-oh', 'Miami (OH) RedHawks', ['Miami OH']);
    const uw = team('uw', 'Washington Huskies', ['Washington']);
    const wsu = team('wsu', 'Washington State Cougars', ['Washington St']);
    expect(findNameTwins([miami, miamiOh, wsu, uw])).toEqual([uw, wsu]);
    expect(findNameTwins([miami, miamiOh])).toEqual([miami, miamiOh]);
    expect(foldName('Washington St.')).toBe('washington st');
  });

  it('falls back to a shared first word, and to nothing', () => {
    const lakers = team('lal', 'Los Angeles Lakers');
    const clippers = team('lac', 'Los Angeles Clippers');
    const celtics = team('bos', 'Boston Celtics');
    expect(findNameTwins([celtics, lakers, clippers])).toEqual([lakers, clippers]);
    expect(findNameTwins([celtics, lakers])).toBeNull();
  });
});
