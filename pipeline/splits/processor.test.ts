import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsTick, SplitsBook, SplitsObservation } from '../../schemas/index.js';
import { SplitsProcessor } from './processor.js';
import { divergence, reverseLineMovement } from './signals.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const MIN = 60_000;

const event: CanonicalEvent = {
  id: 'nfl-20261123-buf-kc',
  sport: 'football',
  league: 'nfl',
  homeTeamId: 'kansas-city-chiefs',
  awayTeamId: 'buffalo-bills',
  startTime: T0 + 24 * 60 * MIN,
  status: 'upcoming',
  isLive: false,
  externalIds: { draftkings: 'dk-1', circa: 'c-1' },
  updatedAt: T0,
};

function tick(
  book: string,
  market: OddsTick['market'],
  selection: OddsTick['selection'],
  line: number | null,
  price: number | null,
  ts: number,
): OddsTick {
  return {
    eventId: event.id,
    book,
    market,
    selection,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: price === null ? 'suspended' : 'open',
    ts,
    isLive: false,
    bookEventId: 'x',
    selectionId: null,
  };
}

/** Spread shares: home bets/handle; away gets the rest. */
function spread(book: SplitsBook, ts: number, homeBets: number, homeHandle: number): SplitsObservation {
  return {
    eventId: event.id,
    book,
    ts,
    sides: [
      { market: 'spread', side: 'home', betPct: homeBets, handlePct: homeHandle },
      { market: 'spread', side: 'away', betPct: round(1 - homeBets), handlePct: round(1 - homeHandle) },
    ],
  };
}
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

describe('divergence', () => {
  it('names the side with more of the money than of the tickets, and the gap', () => {
    const sides = spread('circa', T0, 0.7, 0.45).sides.map((s) => ({ ...s, line: null, priceAmerican: null }));
    expect(divergence(sides)).toEqual({ sharpSide: 'away', gap: 0.25 });
  });

  it('is not flagged below a 10-point gap, and is at exactly 10', () => {
    const below = spread('circa', T0, 0.6, 0.51).sides.map((s) => ({ ...s, line: null, priceAmerican: null }));
    const at = spread('circa', T0, 0.6, 0.5).sides.map((s) => ({ ...s, line: null, priceAmerican: null }));
    expect(divergence(below)).toBeNull();
    expect(divergence(at)).toEqual({ sharpSide: 'away', gap: 0.1 });
  });
});

describe('reverse line movement', () => {
  const side = (s: 'home' | 'away' | 'over' | 'under', betPct: number, line: number | null, price: number | null) => ({
    market: 'spread' as const,
    side: s,
    betPct,
    handlePct: betPct,
    line,
    priceAmerican: price,
  });

  it('flags a spread that moved in favour of the side most tickets are on', () => {
    const open = [side('home', 0.7, -7, -110), side('away', 0.3, 7, -110)];
    const now = [side('home', 0.72, -6, -110), side('away', 0.28, 6, -110)];
    expect(reverseLineMovement('spread', open, now)).toEqual({
      publicSide: 'home',
      publicBetPct: 0.72,
      sharpSide: 'away',
      openLine: -7,
      currentLine: -6,
      move: 1,
    });
  });

  it('does not flag a line that moved with the public, or by less than half a point', () => {
    const open = [side('home', 0.7, -7, -110), side('away', 0.3, 7, -110)];
    expect(reverseLineMovement('spread', open, [side('home', 0.7, -7.5, -110), side('away', 0.3, 7.5, -110)])).toBeNull();
    expect(reverseLineMovement('spread', open, [side('home', 0.7, -7, -105), side('away', 0.3, 7, -115)])).toBeNull();
  });

  it('needs a clear public side (55% of tickets)', () => {
    const open = [side('home', 0.54, -7, -110), side('away', 0.46, 7, -110)];
    expect(reverseLineMovement('spread', open, [side('home', 0.54, -5, -110), side('away', 0.46, 5, -110)])).toBeNull();
  });

  it('reads totals from the over and under, moneylines from implied probability', () => {
    const t = (s: 'over' | 'under', betPct: number, line: number) => ({
      market: 'total' as const,
      side: s,
      betPct,
      handlePct: betPct,
      line,
      priceAmerican: -110,
    });
    expect(
      reverseLineMovement('total', [t('over', 0.8, 47.5), t('under', 0.2, 47.5)], [t('over', 0.8, 46.5), t('under', 0.2, 46.5)]),
    ).toEqual({ publicSide: 'over', publicBetPct: 0.8, sharpSide: 'under', openLine: 47.5, currentLine: 46.5, move: 1 });
    expect(
      reverseLineMovement('total', [t('over', 0.3, 47.5), t('under', 0.7, 47.5)], [t('over', 0.3, 46.5), t('under', 0.7, 46.5)]),
    ).toBeNull();
    const m = (s: 'home' | 'away', betPct: number, price: number) => ({
      market: 'moneyline' as const,
      side: s,
      betPct,
      handlePct: betPct,
      line: null,
      priceAmerican: price,
    });
    // -200 (0.6667) to -170 (0.6296): the favourite the public backs got cheaper.
    expect(
      reverseLineMovement('moneyline', [m('home', 0.75, -200), m('away', 0.25, 170)], [m('home', 0.75, -170), m('away', 0.25, 150)]),
    ).toEqual({ publicSide: 'home', publicBetPct: 0.75, sharpSide: 'away', openLine: 0.6667, currentLine: 0.6296, move: 0.037 });
  });
});

describe('SplitsProcessor', () => {
  it('joins each snapshot to the event and the line the book had at that moment, per book', () => {
    const p = new SplitsProcessor();
    p.observeTick(tick('draftkings', 'point_spread', 'home', -3.5, -110, T0));
    p.observeTick(tick('draftkings', 'point_spread', 'away', 3.5, -110, T0));
    p.observeTick(tick('circa', 'point_spread', 'home', -3, -105, T0));
    p.observeTick(tick('fanduel', 'point_spread', 'home', -4, -110, T0));
    const s = p.handle(spread('draftkings', T0 + MIN, 0.64, 0.6), event, T0 + MIN);
    expect(s).toEqual({
      key: `${event.id}|draftkings`,
      eventId: event.id,
      sport: 'football',
      league: 'nfl',
      homeTeamId: 'kansas-city-chiefs',
      awayTeamId: 'buffalo-bills',
      startTime: event.startTime,
      isLive: false,
      book: 'draftkings',
      ts: T0 + MIN,
      sides: [
        { market: 'spread', side: 'home', betPct: 0.64, handlePct: 0.6, line: -3.5, priceAmerican: -110 },
        { market: 'spread', side: 'away', betPct: 0.36, handlePct: 0.4, line: 3.5, priceAmerican: -110 },
      ],
      signals: { spread: { divergence: null, rlm: null } },
    });
    const c = p.handle(spread('circa', T0 + MIN, 0.64, 0.6), event, T0 + MIN);
    expect(c.sides.map((x) => [x.line, x.priceAmerican])).toEqual([
      [-3, -105],
      [null, null],
    ]);
  });

  it('follows a line move (new line opened, old line suspended) and a pulled market', () => {
    const p = new SplitsProcessor();
    p.observeTick(tick('draftkings', 'total_points', 'over', 47.5, -110, T0));
    p.observeTick(tick('draftkings', 'total_points', 'over', 47, -105, T0 + 1));
    p.observeTick(tick('draftkings', 'total_points', 'over', 47.5, null, T0 + 1));
    const obs: SplitsObservation = {
      eventId: event.id,
      book: 'draftkings',
      ts: T0 + 2,
      sides: [{ market: 'total', side: 'over', betPct: 0.7, handlePct: 0.7 }],
    };
    expect(p.handle(obs, event, T0 + 2).sides[0]).toMatchObject({ line: 47, priceAmerican: -105 });
    // Locked (suspended at a price): the line stands at its last price, as the odds board shows it.
    p.observeTick({ ...tick('draftkings', 'total_points', 'over', 47, -120, T0 + 3), status: 'suspended' });
    expect(p.handle(obs, event, T0 + 3).sides[0]).toMatchObject({ line: 47, priceAmerican: -105 });
    p.observeTick(tick('draftkings', 'total_points', 'over', 47, null, T0 + 4));
    expect(p.handle(obs, event, T0 + 4).sides[0]).toMatchObject({ line: null, priceAmerican: null });
  });

  it('flags divergence at circa and then RLM once the line moves toward the sharp side, measured from the first snapshot', () => {
    const p = new SplitsProcessor();
    const lines = (home: number, at: number): void => {
      p.observeTick(tick('circa', 'point_spread', 'home', home, -110, at));
      p.observeTick(tick('circa', 'point_spread', 'away', -home, -110, at));
    };
    lines(-7, T0);
    // 1. the public is on the home favourite; money is balanced.
    const s1 = p.handle(spread('circa', T0, 0.68, 0.66), event, T0);
    expect(s1.signals.spread).toEqual({ divergence: null, rlm: null });
    // 2. sharp money arrives on the away dog: tickets stay with home, handle swings away.
    const s2 = p.handle(spread('circa', T0 + 5 * MIN, 0.7, 0.42), event, T0 + 5 * MIN);
    expect(s2.signals.spread).toEqual({ divergence: { sharpSide: 'away', gap: 0.28 }, rlm: null });
    // 3. the book moves toward the sharp side: home -7 -> -6.5 (the public side got a better number).
    lines(-6.5, T0 + 6 * MIN);
    const s3 = p.handle(spread('circa', T0 + 10 * MIN, 0.71, 0.4), event, T0 + 10 * MIN);
    expect(s3.signals.spread).toEqual({
      divergence: { sharpSide: 'away', gap: 0.31 },
      rlm: { publicSide: 'home', publicBetPct: 0.71, sharpSide: 'away', openLine: -7, currentLine: -6.5, move: 0.5 },
    });
    // 4. the line goes back to -7: no movement since the first snapshot any more.
    lines(-7, T0 + 11 * MIN);
    expect(p.handle(spread('circa', T0 + 15 * MIN, 0.71, 0.4), event, T0 + 15 * MIN).signals.spread?.rlm).toBeNull();
  });

  it("measures RLM from the first snapshot that had the book's lines", () => {
    const p = new SplitsProcessor();
    // No line yet: this snapshot cannot be the opening.
    p.handle(spread('draftkings', T0, 0.7, 0.7), event, T0);
    p.observeTick(tick('draftkings', 'point_spread', 'home', -3, -110, T0 + 1));
    p.observeTick(tick('draftkings', 'point_spread', 'away', 3, -110, T0 + 1));
    p.handle(spread('draftkings', T0 + 5 * MIN, 0.7, 0.7), event, T0 + 5 * MIN);
    p.observeTick(tick('draftkings', 'point_spread', 'home', -2, -110, T0 + 6 * MIN));
    p.observeTick(tick('draftkings', 'point_spread', 'away', 2, -110, T0 + 6 * MIN));
    expect(p.handle(spread('draftkings', T0 + 10 * MIN, 0.7, 0.7), event, T0 + 10 * MIN).signals.spread?.rlm).toEqual({
      publicSide: 'home',
      publicBetPct: 0.7,
      sharpSide: 'away',
      openLine: -3,
      currentLine: -2,
      move: 1,
    });
  });

  it('forgets a game 48 hours after its last tick or snapshot, on ticks alone too (feeds without splits)', () => {
    const p = new SplitsProcessor();
    p.observeTick(tick('draftkings', 'moneyline', 'home', null, -120, T0));
    expect(p.eventCount).toBe(1);
    const other = { ...tick('circa', 'moneyline', 'home', null, -110, 0), eventId: 'other' };
    // Eviction runs every 20,000 watched ticks; these come 48 h and a minute later.
    for (let i = 0; i < 20_000; i++) p.observeTick({ ...other, ts: T0 + 48 * 60 * MIN + MIN });
    expect(p.eventCount).toBe(1);
  });
});
