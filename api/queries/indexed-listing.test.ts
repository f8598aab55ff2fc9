/**
 * GET /odds pages come from the board's indexes (per-event market and book positions, match
 * counts per filter kept until the board's shape changes). They must be exactly the pages a
 * walk of every row gives: same rows, same total, same offset, for offsets and cursors, before
 * and after rows come, go and change price and events change.
 */
import { describe, expect, it } from 'vitest';
import { oddsRowKey } from '../../schemas/index.js';
import type { OddsRow } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { buildBoard, repriced } from '../../bench/board-fixture.js';
import type { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';
import { eventMatches, rowMatches } from '../views/filters.js';
import { forEachMatch, positionOf } from './odds-query.js';
import { listOdds } from './index.js';
import type { OddsFilters, OddsPage } from './index.js';

const catalog = new Catalog();

const FILTERS: Record<string, OddsFilters> = {
  none: { event: {}, row: {} },
  sportMarketBook: {
    event: { sports: new Set(['basketball', 'football']) },
    row: { markets: new Set(['point_spread']), books: new Set(['pinnacle', 'draftkings']) },
  },
  league: { event: { leagues: new Set(['nhl']) }, row: {} },
  live: { event: { live: true }, row: { books: new Set(['fanduel', 'betmgm', 'circa']) } },
  markets: { event: {}, row: { markets: new Set(['team_total', 'moneyline']) } },
  events: { event: { eventIds: new Set(['nba-bench-0', 'nfl-bench-1', 'gone']) }, row: { books: new Set(['bovada']) } },
  nothing: { event: { leagues: new Set(['epl']) }, row: {} },
};

/** The reference: every match in board order, by walking every row of every event. */
function walked(board: LiveBoard, filters: OddsFilters): string[] {
  const out: string[] = [];
  for (const e of board.activeEvents()) {
    if (!eventMatches(e, filters.event, catalog)) continue;
    for (const r of board.rowsOf(e.id)) if (rowMatches(r, filters.row)) out.push(`${r.id}@${r.priceAmerican}`);
  }
  return out;
}

const ids = (p: OddsPage): string[] => p.page.map((m) => `${m.row.id}@${m.row.priceAmerican}`);

function expectSameAsWalk(board: LiveBoard): void {
  for (const [name, filters] of Object.entries(FILTERS)) {
    const all = walked(board, filters);
    for (const [offset, limit] of [
      [0, 100],
      [0, 1],
      [37, 50],
      [500, 7],
      [all.length - 3, 10],
      [all.length + 5, 10],
    ] as const) {
      const p = listOdds(board, catalog, { filters, sort: null, offset: Math.max(0, offset), limit });
      const from = Math.max(0, offset);
      expect({ name, offset, rows: ids(p), total: p.total, hasMore: p.hasMore }).toEqual({
        name,
        offset,
        rows: all.slice(from, from + limit),
        total: all.length,
        hasMore: from + limit < all.length,
      });
    }
    // A cursor walk visits every match once, in order, and reports where each page starts.
    let after = null;
    const seen: string[] = [];
    for (let guard = 0; guard < 10_000; guard++) {
      const p: OddsPage = listOdds(board, catalog, { filters, sort: null, after, offset: 0, limit: 333 });
      expect([name, p.offset]).toEqual([name, seen.length]);
      seen.push(...ids(p));
      const last = p.page[p.page.length - 1];
      if (!p.hasMore || !last) break;
      after = positionOf(last, null);
    }
    expect([name, seen]).toEqual([name, all]);
    // Streams' snapshots and /odds/best walk through the same index.
    const visited: string[] = [];
    forEachMatch(board, catalog, filters.event, filters.row, (r) => {
      visited.push(`${r.id}@${r.priceAmerican}`);
    });
    expect([name, visited]).toEqual([name, all]);
  }
}

describe('indexed GET /odds pages', () => {
  it('equal a walk of every row, for offsets and cursors, as the board changes', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board, rows, events } = buildBoard(12, clock);
    expectSameAsWalk(board);

    // Prices move (the shape does not), some rows go, a line moves (a key goes, another comes).
    clock.advance(1000);
    for (let i = 0; i < rows.length; i += 7) {
      const r = repriced(rows[i] as OddsRow, clock.now());
      board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: r, changedAt: clock.now() });
    }
    for (let i = 3; i < rows.length; i += 11) {
      const r = rows[i] as OddsRow;
      board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: null, changedAt: clock.now() });
    }
    const moved = { ...(rows[2] as OddsRow), line: -6.5, id: 'moved-line' };
    board.applyChange({ key: oddsRowKey(moved), eventId: moved.eventId, row: moved, changedAt: clock.now() });
    expectSameAsWalk(board);

    // An event goes live and another changes start time: filters and order follow.
    const [first, second] = events;
    if (!first || !second) throw new Error('fixture');
    board.applyEvent({ ...first, isLive: !first.isLive });
    board.applyEvent({ ...second, startTime: second.startTime + 86_400_000 });
    expectSameAsWalk(board);
  });
});
