import { LEAGUES, SPORTSBOOKS, TEAMS, oddsRowKey } from '../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsRow, SelectionType } from '../schemas/index.js';
import type { ManualClock } from '../pipeline/clock.js';
import { LiveBoard } from '../api/views/board.js';

/** Every sportsbook of the catalog (21). */
export const BOARD_BOOKS = SPORTSBOOKS.map((b) => b.id);
/** Six leagues of four sports, so sport and league filters select a part of the board. */
const BOARD_LEAGUES = ['nba', 'nfl', 'nhl', 'ncaab', 'ncaaf', 'mlb'];

/** 24 outcomes per event and book, main and alternate lines included. */
const OUTCOMES: readonly [MarketId, SelectionType, number | null, string | null][] = [
  ['moneyline', 'home', null, null],
  ['moneyline', 'away', null, null],
  ['point_spread', 'home', -3.5, null],
  ['point_spread', 'away', 3.5, null],
  ['point_spread', 'home', -2.5, null],
  ['point_spread', 'away', 2.5, null],
  ['point_spread', 'home', -4.5, null],
  ['point_spread', 'away', 4.5, null],
  ['total_points', 'over', 44.5, null],
  ['total_points', 'under', 44.5, null],
  ['total_points', 'over', 43.5, null],
  ['total_points', 'under', 43.5, null],
  ['total_points', 'over', 45.5, null],
  ['total_points', 'under', 45.5, null],
  ['team_total', 'over', 22.5, 'home'],
  ['team_total', 'under', 22.5, 'home'],
  ['team_total', 'over', 21.5, 'away'],
  ['team_total', 'under', 21.5, 'away'],
  ['1st_half', 'home', null, null],
  ['1st_half', 'away', null, null],
  ['1st_half', 'home', -1.5, null],
  ['1st_half', 'away', 1.5, null],
  ['1st_quarter', 'home', null, null],
  ['1st_quarter', 'away', null, null],
];

/** Live prices per event of the fixture: every book quotes every outcome. */
export const PRICES_PER_EVENT = BOARD_BOOKS.length * OUTCOMES.length;

export interface BoardFixture {
  board: LiveBoard;
  rows: OddsRow[];
  events: CanonicalEvent[];
}

/**
 * A synthetic board of `events` events x 21 books x 24 outcomes (504 prices an event): 90 events
 * are about today's 45k-price board, 2,000 events a million prices. One event in ten is live.
 */
export function buildBoard(events: number, clock: ManualClock, board = new LiveBoard({ now: () => clock.now() })): BoardFixture {
  const rows: OddsRow[] = [];
  const list: CanonicalEvent[] = [];
  for (let i = 0; i < events; i++) {
    const league = BOARD_LEAGUES[i % BOARD_LEAGUES.length] as string;
    const sport = LEAGUES.find((l) => l.id === league)?.sport ?? 'basketball';
    const teams = TEAMS.filter((t) => t.leagues.includes(league));
    const home = teams[i % teams.length];
    const away = teams[(i + 3) % teams.length];
    if (!home || !away) throw new Error('catalog changed');
    const isLive = i % 10 === 0;
    const e: CanonicalEvent = {
      id: `${league}-bench-${i}`,
      sport,
      league,
      homeTeamId: home.id,
      awayTeamId: away.id,
      startTime: clock.now() + 3600_000 + i * 60_000,
      status: isLive ? 'live' : 'upcoming',
      isLive,
      externalIds: {},
      updatedAt: clock.now(),
    };
    board.applyEvent(e);
    list.push(e);
    for (const book of BOARD_BOOKS) {
      for (const [market, selection, line, participant] of OUTCOMES) {
        const price = -110 - (rows.length % 40);
        const row: OddsRow = {
          id: rows.length.toString(16).padStart(16, '0'),
          eventId: e.id,
          book,
          market,
          selection,
          line,
          participant,
          statCategory: null,
          priceAmerican: price,
          priceDecimal: 1 + 100 / -price,
          probability: -price / (100 - price),
          ts: clock.now(),
          oddsChangedAt: clock.now(),
          observedAt: clock.now(),
          isLive,
          bookEventId: `${book}-${i}`,
          selectionId: null,
          isActive: true,
          suspendedSince: null,
        };
        rows.push(row);
        board.applyChange({ key: oddsRowKey(row), eventId: e.id, row, changedAt: clock.now() });
      }
    }
  }
  return { board, rows, events: list };
}

/** A new price for a row, as the snapshot stage would send it. */
export function repriced(row: OddsRow, now: number, step = 5): OddsRow {
  const price = row.priceAmerican - step < -400 ? -105 : row.priceAmerican - step;
  return { ...row, priceAmerican: price, priceDecimal: 1 + 100 / -price, probability: -price / (100 - price), ts: now };
}
