/**
 * Line-move rules: the key numbers a move touches, and the detector raising
 * `key_number` and `reverse_line_move` alerts from a small board and splits it is handed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oddsRowKey } from '../../schemas/index.js';
import type { AlertFilters, AlertKind, AlertRuleRecord, MarketId, OddsRow, SelectionType, SplitSideRecord } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { AlertRuleBook } from '../accounts/index.js';
import { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';
import { SplitsBoard } from '../views/splits-board.js';
import type { Alert } from './alert.js';
import { LineMoveDetector } from './line-move-detector.js';
import { keyNumbersCrossed } from './line-move.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const NFL_KEYS = [3, 7, 10, 14];

function row(book: string, market: MarketId, selection: SelectionType, line: number, priceDecimal: number, isActive = true): OddsRow {
  const ident = { eventId: 'nfl-1', book, market, selection, line, participant: null, statCategory: null };
  return {
    ...ident,
    id: createHash('sha1').update(oddsRowKey(ident)).digest('hex').slice(0, 16),
    priceAmerican: priceDecimal >= 2 ? Math.round((priceDecimal - 1) * 100) : Math.round(-100 / (priceDecimal - 1)),
    priceDecimal,
    probability: 1 / priceDecimal,
    ts: T0,
    oddsChangedAt: T0,
    observedAt: T0,
    isLive: false,
    bookEventId: `${book}-nfl-1`,
    selectionId: null,
    isActive,
    suspendedSince: null,
  };
}

/** A book's spread at `home` (the home handicap), both sides at even money. */
const spread = (book: string, home: number): OddsRow[] => [
  row(book, 'point_spread', 'home', home, 1.91),
  row(book, 'point_spread', 'away', -home, 1.91),
];

describe('keyNumbersCrossed', () => {
  it('names the key numbers a spread lands on, leaves or passes, on either side of zero', () => {
    expect(keyNumbersCrossed(-2.5, -3.5, NFL_KEYS, 'spread')).toEqual([3]);
    expect(keyNumbersCrossed(-2.5, -3, NFL_KEYS, 'spread')).toEqual([3]);
    expect(keyNumbersCrossed(-3, -3.5, NFL_KEYS, 'spread')).toEqual([3]);
    expect(keyNumbersCrossed(-10.5, -6.5, NFL_KEYS, 'spread')).toEqual([7, 10]);
    expect(keyNumbersCrossed(2.5, 3.5, NFL_KEYS, 'spread')).toEqual([3]);
    expect(keyNumbersCrossed(-1, 1.5, NFL_KEYS, 'spread')).toEqual([]);
    expect(keyNumbersCrossed(-3.5, -4, NFL_KEYS, 'spread')).toEqual([]);
    expect(keyNumbersCrossed(-3, -3, NFL_KEYS, 'spread')).toEqual([]);
  });

  it('reads totals as they are', () => {
    expect(keyNumbersCrossed(43.5, 44.5, [41, 44, 47], 'total')).toEqual([44]);
    expect(keyNumbersCrossed(40.5, 47.5, [41, 44, 47], 'total')).toEqual([41, 44, 47]);
    expect(keyNumbersCrossed(-43.5, -44.5, [41, 44, 47], 'total')).toEqual([]);
  });
});

/** A board with one NFL game, splits, rules and a detector that records what it raises. */
function setup(): {
  board: LiveBoard;
  splits: SplitsBoard;
  rules: AlertRuleBook;
  detector: LineMoveDetector;
  raised: Alert[];
  set: (rows: OddsRow[]) => void;
  rule: (id: string, kind: AlertKind, filters: AlertFilters) => void;
} {
  const clock = new ManualClock(T0);
  const board = new LiveBoard({ now: () => clock.now() });
  const splits = new SplitsBoard(clock, { syncEveryMs: 0 });
  const rules = new AlertRuleBook();
  const raised: Alert[] = [];
  board.applyEvent({
    id: 'nfl-1',
    sport: 'football',
    league: 'nfl',
    homeTeamId: 'nfl-kc',
    awayTeamId: 'nfl-buf',
    startTime: T0 + 3_600_000,
    status: 'upcoming',
    isLive: false,
    externalIds: {},
    updatedAt: T0,
  });
  const set = (rows: OddsRow[]): void => {
    for (const r of rows) board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: r, changedAt: r.ts });
  };
  const detector = new LineMoveDetector({
    odds: board,
    splits,
    rules,
    catalog: new Catalog(),
    now: () => clock.now(),
    onAlert: (_rule, alert) => raised.push(alert),
  });
  const rule = (id: string, kind: AlertKind, filters: AlertFilters): void => {
    const record: AlertRuleRecord = {
      id,
      accountId: 'acct-1',
      keyId: 'key-1',
      tier: 'sharp',
      name: null,
      kind,
      filtersJson: JSON.stringify(filters),
      webhookUrl: 'http://127.0.0.1/hook',
      secret: 'sealed',
      createdAt: T0,
      updatedAt: T0,
      active: true,
      deletedAt: null,
      version: 1,
    };
    rules.apply(record);
  };
  return { board, splits, rules, detector, raised, set, rule };
}

/** Moves a book's main spread: the old line's rows go, the new line's come. */
function moveSpread(t: ReturnType<typeof setup>, book: string, from: number, to: number): void {
  for (const r of spread(book, from)) t.board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: null, changedAt: T0 });
  t.set(spread(book, to).map((r) => ({ ...r, oddsChangedAt: T0 + 60_000 })));
  t.detector.flush();
}

describe('LineMoveDetector, key_number', () => {
  it("alerts when a watched book's main spread passes one of the sport's key numbers, once per move", () => {
    const t = setup();
    t.set([...spread('pinnacle', -2.5), ...spread('draftkings', -2.5)]);
    t.rule('alert_a', 'key_number', { sport: 'football', sportsbook: 'pinnacle' });
    moveSpread(t, 'pinnacle', -2.5, -3.5);
    moveSpread(t, 'draftkings', -2.5, -3.5);
    moveSpread(t, 'pinnacle', -3.5, -4);
    expect(t.raised.map((a) => [a.ruleId, a.kind, a.data])).toEqual([
      [
        'alert_a',
        'key_number',
        expect.objectContaining({
          event_id: 'nfl-1',
          sportsbook: 'pinnacle',
          market: 'spread',
          from_line: -2.5,
          to_line: -3.5,
          key_numbers: [3],
          moved_at: new Date(T0 + 60_000).toISOString(),
        }),
      ],
    ]);
  });

  it("takes the rule's own key numbers over the sport's, and ignores markets it does not watch", () => {
    const t = setup();
    t.set(spread('pinnacle', -3.5));
    t.rule('alert_own', 'key_number', { sportsbook: 'pinnacle', key_numbers: [4] });
    t.rule('alert_totals', 'key_number', { sportsbook: 'pinnacle', market: 'total' });
    moveSpread(t, 'pinnacle', -3.5, -4);
    expect(t.raised.map((a) => [a.ruleId, (a.data as { key_numbers: number[] }).key_numbers])).toEqual([['alert_own', [4]]]);
  });

  it('gives the same alert id for the same move on every replica', () => {
    const ids = [setup(), setup()].map((t) => {
      t.set(spread('pinnacle', -6.5));
      t.rule('alert_a', 'key_number', { sportsbook: 'pinnacle' });
      moveSpread(t, 'pinnacle', -6.5, -7.5);
      return t.raised.map((a) => a.id);
    });
    expect(ids[0]).toHaveLength(1);
    expect(ids[0]).toEqual(ids[1]);
  });
});

const sides = (homeLine: number, homeBets: number, homeHandle: number): SplitSideRecord[] => [
  { market: 'spread', side: 'home', betPct: homeBets, handlePct: homeHandle, line: homeLine, priceAmerican: -110 },
  { market: 'spread', side: 'away', betPct: 1 - homeBets, handlePct: 1 - homeHandle, line: -homeLine, priceAmerican: -110 },
];

function splitsAt(t: ReturnType<typeof setup>, ts: number, s: SplitSideRecord[]): void {
  t.splits.apply('nfl-1|draftkings', {
    key: 'nfl-1|draftkings',
    eventId: 'nfl-1',
    book: 'draftkings',
    ts,
    sport: 'football',
    league: 'nfl',
    homeTeamId: 'nfl-kc',
    awayTeamId: 'nfl-buf',
    startTime: T0 + 3_600_000,
    isLive: false,
    sides: s,
    signals: {},
  });
  t.detector.flush();
}

describe('LineMoveDetector, reverse_line_move', () => {
  it('alerts when the line moves toward the side most tickets are on, by the thresholds of each rule', () => {
    const t = setup();
    t.set(spread('pinnacle', -7));
    t.rule('alert_default', 'reverse_line_move', { sport: 'football' });
    t.rule('alert_wide', 'reverse_line_move', { min_line_move: 1 });
    t.rule('alert_money', 'reverse_line_move', { public_by: 'handle', min_public_pct: 60 });
    // 70 % of tickets on the home favourite at -7, most of the money on the away side.
    splitsAt(t, T0, sides(-7, 0.7, 0.35));
    // The favourite gets cheaper (-6.5) although the public is on it: reverse line movement.
    splitsAt(t, T0 + 300_000, sides(-6.5, 0.72, 0.35));
    splitsAt(t, T0 + 600_000, sides(-6.5, 0.73, 0.34));
    expect(t.raised.map((a) => [a.ruleId, a.kind])).toEqual([['alert_default', 'reverse_line_move']]);
    expect(t.raised[0]?.data).toMatchObject({
      event_id: 'nfl-1',
      sportsbook: 'draftkings',
      market: 'spread',
      reverse_line_move: {
        public_by: 'bets',
        public_side: 'home',
        public_pct: 72,
        sharp_side: 'away',
        open_line: -7,
        current_line: -6.5,
        move: 0.5,
      },
    });
  });

  it('reads the public side by handle when the rule says so, and raises again only after the signal went away', () => {
    const t = setup();
    t.set(spread('pinnacle', -7));
    t.rule('alert_money', 'reverse_line_move', { public_by: 'handle', min_public_pct: 60 });
    // Tickets split, 65 % of the money on home at -7; home then gets cheaper, goes back, and again.
    splitsAt(t, T0, sides(-7, 0.5, 0.65));
    splitsAt(t, T0 + 300_000, sides(-6.5, 0.5, 0.65));
    splitsAt(t, T0 + 600_000, sides(-7, 0.5, 0.65));
    splitsAt(t, T0 + 900_000, sides(-6, 0.5, 0.66));
    expect(t.raised.map((a) => (a.data as { reverse_line_move: { public_pct: number; move: number } }).reverse_line_move)).toEqual([
      expect.objectContaining({ public_by: 'handle', public_side: 'home', public_pct: 65, move: 0.5 }),
      expect.objectContaining({ public_pct: 66, move: 1 }),
    ]);
  });
});
