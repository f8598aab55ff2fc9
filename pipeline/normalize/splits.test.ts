import { describe, expect, it } from 'vitest';
import type { LeagueDef, RawSplits, RawTick, TeamDef } from '../../schemas/index.js';
import { Normalizer } from './normalizer.js';

const T0 = Date.UTC(2026, 10, 22, 18, 0);
const leagues: LeagueDef[] = [
  {
    id: 'nba',
    numericalId: 1,
    name: 'NBA',
    sport: 'basketball',
    season: { from: 10, to: 6 },
    markets: ['moneyline', 'point_spread', 'total_points'],
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
    aliases: ['LA Lakers'],
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

const tick = (over: Partial<RawTick> = {}): RawTick => ({
  book: 'draftkings',
  bookEventId: 'dk-1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Los Angeles Lakers',
  awayTeam: 'Boston Celtics',
  startTime: T0,
  isLive: false,
  market: 'moneyline',
  outcome: 'Los Angeles Lakers',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -120,
  status: 'open',
  ts: T0 - 1000,
  selectionId: null,
  ...over,
});

const splits = (over: Partial<RawSplits> = {}): RawSplits => ({
  kind: 'splits',
  book: 'draftkings',
  bookEventId: 'dk-1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Los Angeles Lakers',
  awayTeam: 'Boston Celtics',
  startTime: T0,
  isLive: false,
  ts: T0,
  sides: [
    { market: 'spread', outcome: 'Boston Celtics', betPct: 0.4, handlePct: 0.3 },
    { market: 'spread', outcome: 'Los Angeles Lakers', betPct: 0.6, handlePct: 0.7 },
    { market: 'total', outcome: 'OVER', betPct: 0.55, handlePct: 0.5 },
    { market: 'total', outcome: 'Under', betPct: 0.45, handlePct: 0.5 },
  ],
  ...over,
});

describe('Normalizer.handleSplits', () => {
  it('maps a known listing onto its canonical event, outcomes onto sides', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(tick(), T0);
    const r = n.handleSplits(splits(), T0);
    expect(r.unmatched).toBeNull();
    expect(r.events).toEqual([]);
    expect(r.event?.id).toBe('nba-20261122-bos-lal');
    expect(r.splits).toEqual({
      eventId: 'nba-20261122-bos-lal',
      book: 'draftkings',
      ts: T0,
      sides: [
        { market: 'spread', side: 'away', betPct: 0.4, handlePct: 0.3 },
        { market: 'spread', side: 'home', betPct: 0.6, handlePct: 0.7 },
        { market: 'total', side: 'over', betPct: 0.55, handlePct: 0.5 },
        { market: 'total', side: 'under', betPct: 0.45, handlePct: 0.5 },
      ],
    });
  });

  it('matches a book listing it has not seen by teams and start time, and adds it to the event', () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(tick(), T0);
    // circa lists the game the other way round and spells the teams its own way.
    const r = n.handleSplits(
      splits({
        book: 'circa',
        bookEventId: 'c-9',
        homeTeam: 'Celtics',
        awayTeam: 'LA Lakers',
        startTime: T0 + 10 * 60_000,
        sides: [{ market: 'moneyline', outcome: 'Celtics', betPct: 0.3, handlePct: 0.45 }],
      }),
      T0,
    );
    expect(r.splits?.sides).toEqual([{ market: 'moneyline', side: 'away', betPct: 0.3, handlePct: 0.45 }]);
    expect(r.events.map((e) => e.externalIds)).toEqual([{ draftkings: 'dk-1', circa: 'c-9' }]);
    expect(n.handleSplits(splits({ book: 'circa', bookEventId: 'c-9', homeTeam: 'Celtics', awayTeam: 'LA Lakers' }), T0).events).toEqual(
      [],
    );
  });

  it('never creates an event, drops unknown outcomes and shares outside 0..1, and counts what it drops', () => {
    const n = new Normalizer({ teams, leagues });
    expect(n.handleSplits(splits(), T0)).toEqual({ splits: null, events: [], event: null, unmatched: 'splits_without_event' });
    expect(n.eventCount).toBe(0);
    n.handle(tick(), T0);
    const r = n.handleSplits(
      splits({
        sides: [
          { market: 'spread', outcome: 'Chicago Bulls', betPct: 0.5, handlePct: 0.5 },
          { market: 'total', outcome: 'Los Angeles Lakers', betPct: 0.5, handlePct: 0.5 },
          { market: 'moneyline', outcome: 'Boston Celtics', betPct: 1.2, handlePct: 0.5 },
          { market: 'moneyline', outcome: 'Los Angeles Lakers', betPct: Number.NaN, handlePct: 0.5 },
        ],
      }),
      T0,
    );
    expect([r.splits, r.unmatched]).toEqual([null, 'unknown_outcome']);
    expect(n.handleSplits(splits({ league: 'nhl' }), T0).unmatched).toBe('unknown_league');
    expect(n.handleSplits(splits({ bookEventId: 'dk-2', homeTeam: 'Nobody' }), T0).unmatched).toBe('unknown_team');
    expect(Object.fromEntries(n.counts.unmatched)).toEqual({
      splits_without_event: 1,
      unknown_outcome: 1,
      unknown_league: 1,
      unknown_team: 1,
    });
  });

  it("drops a book's splits unless the book is a splits publisher, which the splits contract names", () => {
    const n = new Normalizer({ teams, leagues });
    n.handle(tick(), T0);
    const r = n.handleSplits(splits({ book: 'fanduel' }), T0);
    expect([r.splits, r.events, r.unmatched]).toEqual([null, [], 'splits_unknown_book']);
  });
});
