import { describe, expect, it } from 'vitest';
import type { RawTick } from '../../../schemas/index.js';
import { bookmaker, event, market } from './fixtures/builders.js';
import type { BookmakerJson, EventJson } from './fixtures/builders.js';
import { EMPTY_STATE, mapSnapshot } from './snapshot-diff.js';

const T0 = Date.parse('2025-11-09T12:00:00Z');
const T1 = Date.parse('2025-11-09T12:30:00Z');
const LU0 = '2025-11-09T11:58:00Z';
const LU1 = '2025-11-09T12:20:00Z';
const KICKOFF = '2025-11-09T18:00:00Z';

const nfl = (books: BookmakerJson[], id = 'evt-1'): EventJson =>
  event(id, 'americanfootball_nfl', KICKOFF, 'Baltimore Ravens', 'Minnesota Vikings', books);

const compact = (t: RawTick): string =>
  `${t.status} ${t.book} ${t.market} ${t.participant ?? '-'} ${t.statCategory ?? '-'} ${t.outcome} ${t.line ?? '-'} ${t.priceAmerican ?? '-'} ${new Date(t.ts).toISOString()}`;

describe('mapping one snapshot', () => {
  it('maps a two-way moneyline into ticks in the book vocabulary', () => {
    const body = [
      nfl([
        bookmaker('draftkings', LU0, [
          market('h2h', LU0, [
            { name: 'Baltimore Ravens', price: -180 },
            { name: 'Minnesota Vikings', price: 150 },
          ]),
        ]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks[0]).toEqual({
      book: 'draftkings',
      bookEventId: 'evt-1',
      sport: 'football',
      league: 'nfl',
      homeTeam: 'Baltimore Ravens',
      awayTeam: 'Minnesota Vikings',
      startTime: Date.parse(KICKOFF),
      isLive: false,
      market: 'moneyline',
      outcome: 'Baltimore Ravens',
      line: null,
      participant: null,
      statCategory: null,
      priceAmerican: -180,
      status: 'open',
      ts: Date.parse(LU0),
      selectionId: null,
      oddsChangedAt: Date.parse(LU0),
      observedAt: T0,
    });
    expect(ticks.map(compact)).toEqual([
      'open draftkings moneyline - - Baltimore Ravens - -180 2025-11-09T11:58:00.000Z',
      'open draftkings moneyline - - Minnesota Vikings - 150 2025-11-09T11:58:00.000Z',
    ]);
    expect(stats.events).toBe(1);
    expect(stats.ticks).toBe(2);
  });

  it('maps a three-way moneyline with its Draw outcome', () => {
    const body = [
      event('wc-1', 'soccer_fifa_world_cup', '2026-06-21T22:00:00Z', 'Uruguay', 'Cape Verde', [
        bookmaker('betrivers', LU0, [
          market('h2h', LU0, [
            { name: 'Cape Verde', price: 1900 },
            { name: 'Uruguay', price: 510 },
            { name: 'Draw', price: -590 },
          ]),
        ]),
      ]),
    ];
    const { ticks } = mapSnapshot(body, Date.parse('2026-06-22T00:00:45Z'), EMPTY_STATE);
    expect(ticks.map((t) => [t.league, t.sport, t.outcome, t.priceAmerican, t.isLive])).toEqual([
      ['fifa_world_cup', 'soccer', 'Cape Verde', 1900, true],
      ['fifa_world_cup', 'soccer', 'Uruguay', 510, true],
      ['fifa_world_cup', 'soccer', 'Draw', -590, true],
    ]);
  });

  it('maps spreads with each side its own point, and totals as Over/Under', () => {
    const body = [
      nfl([
        bookmaker('williamhill_us', LU0, [
          market('spreads', LU0, [
            { name: 'Baltimore Ravens', price: -110, point: -3.5 },
            { name: 'Minnesota Vikings', price: -110, point: 3.5 },
          ]),
          market('totals', LU0, [
            { name: 'Over', price: -105, point: 47.5 },
            { name: 'Under', price: -115, point: 47.5 },
          ]),
        ]),
      ]),
    ];
    const { ticks } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks.map(compact)).toEqual([
      'open caesars point_spread - - Baltimore Ravens -3.5 -110 2025-11-09T11:58:00.000Z',
      'open caesars point_spread - - Minnesota Vikings 3.5 -110 2025-11-09T11:58:00.000Z',
      'open caesars total_points - - Over 47.5 -105 2025-11-09T11:58:00.000Z',
      'open caesars total_points - - Under 47.5 -115 2025-11-09T11:58:00.000Z',
    ]);
  });

  it('counts a spread or total outcome without a point as malformed and skips it', () => {
    const body = [
      nfl([
        bookmaker('draftkings', LU0, [
          market('spreads', LU0, [
            { name: 'Baltimore Ravens', price: -110 },
            { name: 'Minnesota Vikings', price: -110, point: 3.5 },
          ]),
          market('totals', LU0, [{ name: 'Over', price: -110 }]),
        ]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks.map(compact)).toEqual(['open draftkings point_spread - - Minnesota Vikings 3.5 -110 2025-11-09T11:58:00.000Z']);
    expect(stats.malformed.outcomes).toBe(2);
  });

  it('counts unknown sports, bookmakers and markets by key without failing', () => {
    const body = [
      event('afl-1', 'aussierules_afl', KICKOFF, 'Carlton', 'Geelong', [bookmaker('sportsbet', LU0, [])]),
      nfl([
        bookmaker('pointsbetau', LU0, [market('h2h', LU0, [{ name: 'Baltimore Ravens', price: -180 }])]),
        bookmaker('betfair_ex_eu', LU0, [
          market('h2h_lay', LU0, [{ name: 'Baltimore Ravens', price: -170 }]),
          market('h2h', LU0, [{ name: 'Baltimore Ravens', price: 1.55 }]),
        ]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(stats.unknownSports).toEqual({ aussierules_afl: 1 });
    expect(stats.unknownBookmakers).toEqual({ pointsbetau: 1 });
    expect(stats.unknownMarkets).toEqual({ h2h_lay: 1 });
    // The exchange's decimal 1.55 arrives as American -182.
    expect(ticks.map(compact)).toEqual(['open betfair_ex_eu moneyline - - Baltimore Ravens - -182 2025-11-09T11:58:00.000Z']);
  });

  it('counts malformed events, bookmakers and markets and keeps the rest', () => {
    const body = [
      { id: 'no-teams', sport_key: 'americanfootball_nfl', commence_time: KICKOFF, bookmakers: [] },
      'not an event',
      nfl([
        { key: 'draftkings', markets: 'none' } as unknown as BookmakerJson,
        bookmaker('fanduel', LU0, [
          { key: 'h2h', last_update: LU0, outcomes: null } as unknown as ReturnType<typeof market>,
          market('h2h', LU0, [{ name: 'Baltimore Ravens', price: -175 }, { name: 'Minnesota Vikings', price: 'x' } as never]),
        ]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(stats.malformed).toEqual({ snapshots: 0, events: 2, bookmakers: 1, markets: 1, outcomes: 1 });
    expect(ticks.map(compact)).toEqual(['open fanduel moneyline - - Baltimore Ravens - -175 2025-11-09T11:58:00.000Z']);
  });

  it('maps team totals with the team as participant, and player props with the player', () => {
    const body = [
      nfl([
        bookmaker('fanduel', LU0, [
          market('team_totals', LU0, [
            { name: 'Over', description: 'Baltimore Ravens', price: -115, point: 26.5 },
            { name: 'Under', description: 'Baltimore Ravens', price: -105, point: 26.5 },
          ]),
          market('player_pass_yds', LU0, [
            { name: 'Over', description: 'Lamar Jackson', price: -114, point: 224.5 },
            { name: 'Under', description: 'Lamar Jackson', price: -114, point: 224.5 },
            { name: 'Over', price: -110, point: 180.5 },
          ]),
        ]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks.map(compact)).toEqual([
      'open fanduel team_total Baltimore Ravens - Over 26.5 -115 2025-11-09T11:58:00.000Z',
      'open fanduel team_total Baltimore Ravens - Under 26.5 -105 2025-11-09T11:58:00.000Z',
      'open fanduel player_prop Lamar Jackson passing_yards Over 224.5 -114 2025-11-09T11:58:00.000Z',
      'open fanduel player_prop Lamar Jackson passing_yards Under 224.5 -114 2025-11-09T11:58:00.000Z',
    ]);
    // A prop outcome without its player is unusable.
    expect(stats.malformed.outcomes).toBe(1);
  });

  it('takes one bookmaker key per book when regional copies are both present', () => {
    const body = [
      nfl([
        bookmaker('betfair_ex_uk', LU0, [market('h2h', LU0, [{ name: 'Baltimore Ravens', price: -185 }])]),
        bookmaker('betfair_ex_eu', LU0, [market('h2h', LU0, [{ name: 'Baltimore Ravens', price: -180 }])]),
      ]),
    ];
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks.map((t) => [t.book, t.priceAmerican])).toEqual([['betfair_ex_eu', -180]]);
    expect(stats.duplicateBookmakers).toBe(1);
  });

  it('leaves the state as it was when the body is not an events array', () => {
    const first = mapSnapshot(
      [nfl([bookmaker('draftkings', LU0, [market('h2h', LU0, [{ name: 'Baltimore Ravens', price: -180 }])])])],
      T0,
      EMPTY_STATE,
    );
    const { ticks, state, stats } = mapSnapshot({ message: 'oops' }, T1, first.state);
    expect(ticks).toEqual([]);
    expect(state).toBe(first.state);
    expect(stats.malformed.snapshots).toBe(1);
  });
});

describe('diffing successive snapshots', () => {
  const dk = (h2h: [number, number], lastUpdate = LU0, extra: BookmakerJson['markets'] = []): BookmakerJson =>
    bookmaker('draftkings', lastUpdate, [
      market('h2h', lastUpdate, [
        { name: 'Baltimore Ravens', price: h2h[0] },
        { name: 'Minnesota Vikings', price: h2h[1] },
      ]),
      ...extra,
    ]);
  const fd = bookmaker('fanduel', LU0, [
    market('h2h', LU0, [
      { name: 'Baltimore Ravens', price: -175 },
      { name: 'Minnesota Vikings', price: 146 },
    ]),
  ]);

  it('emits nothing for an unchanged price', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-180, 150])])], T1, first.state);
    expect(first.ticks).toHaveLength(2);
    expect(second.ticks).toEqual([]);
    expect(second.state.rows.size).toBe(2);
  });

  it('emits one tick for a moved price', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-190, 150])])], T1, first.state);
    expect(second.ticks.map(compact)).toEqual(['open draftkings moneyline - - Baltimore Ravens - -190 2025-11-09T11:58:00.000Z']);
  });

  it('emits a confirmation for the same price with a newer last_update', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-180, 150], LU1)])], T1, first.state);
    expect(second.ticks.map(compact)).toEqual([
      'open draftkings moneyline - - Baltimore Ravens - -180 2025-11-09T12:20:00.000Z',
      'open draftkings moneyline - - Minnesota Vikings - 150 2025-11-09T12:20:00.000Z',
    ]);
    expect(second.stats.confirmations).toBe(2);
  });

  it('keeps the time a price changed through its confirmations, and stamps each tick with the poll that saw it', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-180, 155], LU1)])], T1, first.state);
    expect(second.ticks.map((t) => [t.outcome, t.ts, t.oddsChangedAt, t.observedAt])).toEqual([
      ['Baltimore Ravens', Date.parse(LU1), Date.parse(LU0), T1],
      ['Minnesota Vikings', Date.parse(LU1), Date.parse(LU1), T1],
    ]);
  });

  it('suspends every row of a bookmaker that disappears', () => {
    const first = mapSnapshot([nfl([dk([-180, 150]), fd])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-180, 150])])], T1, first.state);
    expect(second.ticks.map(compact)).toEqual([
      'suspended fanduel moneyline - - Baltimore Ravens - - 2025-11-09T12:30:00.000Z',
      'suspended fanduel moneyline - - Minnesota Vikings - - 2025-11-09T12:30:00.000Z',
    ]);
    expect(second.stats.suspendedTicks).toBe(2);
  });

  it('suspends the old line rows and opens the new ones when a spread moves from -3.5 to -4', () => {
    const spread = (point: number, lastUpdate: string): BookmakerJson['markets'] => [
      market('spreads', lastUpdate, [
        { name: 'Baltimore Ravens', price: -110, point: -point },
        { name: 'Minnesota Vikings', price: -110, point },
      ]),
    ];
    const first = mapSnapshot([nfl([dk([-180, 150], LU0, spread(3.5, LU0))])], T0, EMPTY_STATE);
    const second = mapSnapshot([nfl([dk([-180, 150], LU0, spread(4, LU1))])], T1, first.state);
    expect(second.ticks.map(compact)).toEqual([
      'suspended draftkings point_spread - - Baltimore Ravens -3.5 - 2025-11-09T12:20:00.000Z',
      'suspended draftkings point_spread - - Minnesota Vikings 3.5 - 2025-11-09T12:20:00.000Z',
      'open draftkings point_spread - - Baltimore Ravens -4 -110 2025-11-09T12:20:00.000Z',
      'open draftkings point_spread - - Minnesota Vikings 4 -110 2025-11-09T12:20:00.000Z',
    ]);
  });

  it('suspends every row of an event that leaves the response, live by then', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])]), nfl([fd], 'evt-2')], T0, EMPTY_STATE);
    const afterKickoff = Date.parse('2025-11-09T21:30:00Z');
    const second = mapSnapshot([nfl([dk([-180, 150])])], afterKickoff, first.state);
    expect(second.ticks.map((t) => [t.bookEventId, t.book, t.outcome, t.status, t.priceAmerican, t.isLive, t.ts])).toEqual([
      ['evt-2', 'fanduel', 'Baltimore Ravens', 'suspended', null, true, afterKickoff],
      ['evt-2', 'fanduel', 'Minnesota Vikings', 'suspended', null, true, afterKickoff],
    ]);
    expect(second.state.rows.size).toBe(2);
  });

  it('opens a row again when a pulled line comes back', () => {
    const first = mapSnapshot([nfl([dk([-180, 150])])], T0, EMPTY_STATE);
    const pulled = mapSnapshot([nfl([])], T1, first.state);
    const back = mapSnapshot([nfl([dk([-180, 150])])], T1 + 60_000, pulled.state);
    expect(pulled.ticks.map((t) => t.status)).toEqual(['suspended', 'suspended']);
    expect(back.ticks.map((t) => [t.status, t.priceAmerican])).toEqual([
      ['open', -180],
      ['open', 150],
    ]);
  });
});
