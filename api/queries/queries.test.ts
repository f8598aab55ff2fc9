/**
 * The query layer on a hand-built board, without HTTP: the answers REST, streams and MCP share.
 */
import { describe, expect, it } from 'vitest';
import { oddsRowKey } from '../../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsRow, SelectionType } from '../../schemas/index.js';
import { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';
import { outcomeKey, sameOutcome } from '../views/row-identity.js';
import { allOdds, batchOdds, bestOdds, compareOdds, listOdds, oddsDelta, oddsMatch } from './index.js';
import type { OddsFilters } from './index.js';

const T = Date.UTC(2026, 10, 22, 12);
const catalog = new Catalog();
const none: OddsFilters = { event: {}, row: {} };

function event(id: string, league: string, startTime: number, isLive = false): CanonicalEvent {
  return {
    id,
    sport: league === 'nfl' ? 'football' : 'basketball',
    league,
    homeTeamId: 'h',
    awayTeamId: 'a',
    startTime,
    status: isLive ? 'live' : 'upcoming',
    isLive,
    externalIds: {},
    updatedAt: T,
  };
}

function row(
  eventId: string,
  book: string,
  market: MarketId,
  selection: SelectionType,
  priceDecimal: number,
  line: number | null = null,
  ts = T,
): OddsRow {
  const ident = { eventId, book, market, selection, line, participant: null, statCategory: null };
  const american = priceDecimal >= 2 ? Math.round((priceDecimal - 1) * 100) : Math.round(-100 / (priceDecimal - 1));
  return {
    ...ident,
    id: oddsRowKey(ident),
    priceAmerican: american,
    priceDecimal,
    probability: 1 / priceDecimal,
    ts,
    oddsChangedAt: ts,
    observedAt: ts,
    isLive: false,
    bookEventId: `${book}-${eventId}`,
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
}

function boardWith(rows: OddsRow[], events: CanonicalEvent[]): LiveBoard {
  let now = T;
  const board = new LiveBoard({ now: () => now++ });
  for (const e of events) board.applyEvent(e);
  for (const r of rows) board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: r, changedAt: T });
  return board;
}

const nba = event('nba-1', 'nba', T + 3600_000);
const nfl = event('nfl-1', 'nfl', T + 7200_000);
const rows = [
  row('nba-1', 'draftkings', 'moneyline', 'home', 1.8),
  row('nba-1', 'fanduel', 'moneyline', 'home', 1.9),
  row('nba-1', 'draftkings', 'moneyline', 'away', 2.1),
  row('nba-1', 'fanduel', 'moneyline', 'away', 2.0),
  row('nba-1', 'fanduel', 'point_spread', 'home', 1.91, -2.5),
  row('nfl-1', 'draftkings', 'moneyline', 'home', 1.5),
];

describe('listOdds', () => {
  it('pages in board order (event start, market, selection, book) and counts every match', () => {
    const board = boardWith(rows, [nba, nfl]);
    const p = listOdds(board, catalog, { filters: none, sort: null, offset: 1, limit: 2 });
    expect(p.page.map((m) => `${m.row.eventId}/${m.row.market}/${m.row.selection}/${m.row.book}`)).toEqual([
      'nba-1/moneyline/home/fanduel',
      'nba-1/moneyline/away/draftkings',
    ]);
    expect([p.total, p.offset, p.hasMore]).toEqual([6, 1, true]);
  });

  it('sorts by a key, ties in board order, and continues strictly after a cursor position', () => {
    const board = boardWith(rows, [nba, nfl]);
    const sorted = listOdds(board, catalog, { filters: none, sort: { key: 'odds_decimal', desc: true }, offset: 0, limit: 2 });
    expect(sorted.page.map((m) => m.row.priceDecimal)).toEqual([2.1, 2.0]);
    const books = { ...none, row: { books: new Set(['fanduel']) } };
    const first = listOdds(board, catalog, { filters: books, sort: null, offset: 0, limit: 1 });
    const last = first.page[0];
    if (!last) throw new Error('empty page');
    const next = listOdds(board, catalog, {
      filters: books,
      sort: null,
      after: { v: null, t: last.event.startTime, e: last.event.id, r: last.row },
      offset: 0,
      limit: 10,
    });
    expect(next.page.map((m) => `${m.row.market}/${m.row.selection}`)).toEqual(['moneyline/away', 'point_spread/home']);
    expect([next.offset, next.total, next.hasMore]).toEqual([1, 3, false]);
  });
});

describe('bestOdds and compareOdds', () => {
  it('keeps the best price per outcome with the number of books quoting it', () => {
    const board = boardWith(rows, [nba, nfl]);
    const { page, total } = bestOdds(board, catalog, none, 0, 10);
    expect(total).toBe(4);
    expect(page.map((m) => [outcomeKey(m.row), m.row.book, m.bookCount])).toEqual([
      ['moneyline:home', 'fanduel', 2],
      ['moneyline:away', 'draftkings', 2],
      ['point_spread:home:-2.5', 'fanduel', 1],
      ['moneyline:home', 'draftkings', 1],
    ]);
  });

  it("lists an event's outcomes best price first, and nothing for an unknown event", () => {
    const board = boardWith(rows, [nba, nfl]);
    const c = compareOdds(board, catalog, 'nba-1', {});
    expect(c?.outcomes.map((o) => o.map((r) => r.book))).toEqual([['fanduel', 'draftkings'], ['draftkings', 'fanduel'], ['fanduel']]);
    expect(c?.books).toEqual(['draftkings', 'fanduel']);
    expect(compareOdds(board, catalog, '__proto__', {})).toBeNull();
  });

  it('one outcome identity: same event, market, participant, stat, selection and line, any book', () => {
    const [a, b, c] = rows as [OddsRow, OddsRow, OddsRow];
    expect([sameOutcome(a, b), sameOutcome(a, c)]).toEqual([true, false]);
  });
});

describe('batchOdds', () => {
  it('answers each id once, in board order, and names the ones without odds', () => {
    const board = boardWith(rows, [nba, nfl]);
    const r = batchOdds(board, ['nfl-1', 'nope', 'nfl-1'], { markets: new Set(['moneyline']) });
    expect(r.events.map((e) => [e.id, e.rows.length])).toEqual([
      ['nfl-1', 1],
      ['nope', 0],
    ]);
    expect(r.missing).toEqual(['nope']);
  });
});

describe('oddsDelta', () => {
  it('gives each changed row once at its last change, removals with the row that left, and refuses a since before the window', () => {
    const board = boardWith(rows, [nba, nfl]);
    const since = board.log.head();
    const moved = { ...(rows[0] as OddsRow), priceDecimal: 1.85 };
    board.applyChange({ key: oddsRowKey(moved), eventId: 'nba-1', row: { ...moved, priceDecimal: 1.82 }, changedAt: T });
    board.applyChange({ key: oddsRowKey(moved), eventId: 'nba-1', row: moved, changedAt: T });
    const gone = rows[5] as OddsRow;
    board.applyChange({ key: oddsRowKey(gone), eventId: 'nfl-1', row: null, changedAt: T });
    const d = oddsDelta(board, catalog, none, since, 0, 10);
    if (!d.ok) throw new Error('resync');
    expect(d.items.map((i) => [i.row.id, i.removed, i.row.priceDecimal])).toEqual([
      [moved.id, false, 1.85],
      [gone.id, true, 1.5],
    ]);
    expect(d.hasMore).toBe(false);
    expect(oddsDelta(board, catalog, none, { ms: T - 60_000, sub: 0 }, 0, 10).ok).toBe(false);
  });
});

describe('allOdds and oddsMatch', () => {
  it('agree with each other on what a filter serves', () => {
    const board = boardWith(rows, [nba, nfl]);
    const filters: OddsFilters = { event: { leagues: new Set(['nba']) }, row: { books: new Set(['fanduel']) } };
    const all = allOdds(board, catalog, filters);
    expect(all.map((m) => m.row.id)).toEqual(rows.filter((r) => r.eventId === 'nba-1' && r.book === 'fanduel').map((r) => r.id));
    expect(rows.filter((r) => oddsMatch(r, r.eventId === 'nba-1' ? nba : nfl, filters, catalog)).length).toBe(all.length);
  });
});
