import { describe, expect, it } from 'vitest';
import type { OddsRow, Opportunity, SelectionType } from '../../schemas/index.js';
import { LiveBoard } from './board.js';
import { SharpMoveWatch } from './sharp-moves.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;

function row(
  book: string,
  market: OddsRow['market'],
  selection: SelectionType,
  line: number | null,
  at: number,
  extra: Partial<OddsRow> = {},
): OddsRow {
  return {
    id: `${book}-${market}-${extra.participant ?? ''}-${selection}-${String(line)}`,
    eventId: 'e1',
    book,
    market,
    selection,
    line,
    participant: null,
    statCategory: null,
    priceAmerican: -110,
    priceDecimal: 1.9091,
    probability: 0.5238,
    ts: at,
    oddsChangedAt: at,
    observedAt: at,
    isLive: false,
    bookEventId: 'x',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
    ...extra,
  };
}

const keyOf = (r: OddsRow): string => r.id;
const put = (board: LiveBoard, r: OddsRow): void => board.applyChange({ key: keyOf(r), eventId: r.eventId, row: r, changedAt: r.ts });
const pull = (board: LiveBoard, r: OddsRow, at: number): void =>
  board.applyChange({ key: keyOf(r), eventId: r.eventId, row: null, changedAt: at });

/** A +EV opportunity on one price: all the watch reads of it is the event and the legs' row ids. */
const evOn = (r: OddsRow): Opportunity => ({ eventId: r.eventId, legs: [{ rowId: r.id }] }) as unknown as Opportunity;

/** Pinnacle's total at 220.5 and DraftKings' home team total, both priced ten minutes before T0. */
function market(): { board: LiveBoard; watch: SharpMoveWatch; teamOver: OddsRow; pinnacle: OddsRow[] } {
  const board = new LiveBoard({ now: () => T0 });
  const watch = new SharpMoveWatch(board);
  const pinnacle = [
    row('pinnacle', 'total_points', 'over', 220.5, T0 - 10 * MIN),
    row('pinnacle', 'total_points', 'under', 220.5, T0 - 10 * MIN),
  ];
  const teamOver = row('draftkings', 'team_total', 'over', 110.5, T0 - 10 * MIN, { participant: 'home' });
  for (const r of [...pinnacle, teamOver]) put(board, r);
  return { board, watch, teamOver, pinnacle };
}

/** Pinnacle's total at `line`, both sides at -110, priced at `at`. */
const totalAt = (line: number, at: number): OddsRow[] => [
  row('pinnacle', 'total_points', 'over', line, at),
  row('pinnacle', 'total_points', 'under', line, at),
];

/** Pinnacle moves its total from 220.5 to 222.5 at T0: the old line's rows go, the new line's come. */
function moveTotal(board: LiveBoard, pinnacle: OddsRow[]): void {
  for (const r of pinnacle) pull(board, r, T0);
  for (const r of totalAt(222.5, T0)) put(board, r);
}

describe('SharpMoveWatch', () => {
  it("counts a sharp book's two-point total move, with where it came from and when", () => {
    const { board, watch, pinnacle } = market();
    expect(watch.moveOf('e1', 'total_points')).toBeUndefined();
    moveTotal(board, pinnacle);
    expect(watch.moveOf('e1', 'total_points')).toEqual({
      eventId: 'e1',
      book: 'pinnacle',
      market: 'total_points',
      fromLine: 220.5,
      toLine: 222.5,
      at: T0,
    });
  });

  it("warns on a soft team total Over that has not repriced once its book's 60 s pre-match floor has passed, expecting it to shorten", () => {
    const { board, watch, teamOver, pinnacle } = market();
    moveTotal(board, pinnacle);
    expect(watch.staleDerivativeOf(evOn(teamOver), T0 + 60_000)).toBeNull();
    expect(watch.staleDerivativeOf(evOn(teamOver), T0 + 60_001)).toEqual({
      rowId: teamOver.id,
      warning: 'STALE_AFTER_SHARP_MOVE',
      move: { eventId: 'e1', book: 'pinnacle', market: 'total_points', fromLine: 220.5, toLine: 222.5, at: T0 },
      expected: 'shorten',
      book: 'draftkings',
      selection: 'over',
      line: 110.5,
    });
  });

  it('does not warn once the soft book has repriced after the move, nor after a half-point move', () => {
    const { board, watch, teamOver, pinnacle } = market();
    moveTotal(board, pinnacle);
    const repriced = { ...teamOver, line: 111.5, priceAmerican: -105, ts: T0 + 30_000, oddsChangedAt: T0 + 30_000 };
    put(board, repriced);
    expect(watch.staleDerivativeOf(evOn(repriced), T0 + 5 * MIN)).toBeNull();

    const small = market();
    for (const r of small.pinnacle) pull(small.board, r, T0);
    for (const r of totalAt(221, T0)) put(small.board, r);
    expect(small.watch.moveOf('e1', 'total_points')).toBeUndefined();
    expect(small.watch.staleDerivativeOf(evOn(small.teamOver), T0 + 5 * MIN)).toBeNull();
  });

  it('adds half-point drifts up from the last counted move: 220.5 to 221 to 221.5 is one move of a point', () => {
    const { board, watch, pinnacle } = market();
    for (const r of pinnacle) pull(board, r, T0);
    const at221 = totalAt(221, T0);
    for (const r of at221) put(board, r);
    for (const r of at221) pull(board, r, T0 + MIN);
    for (const r of totalAt(221.5, T0 + MIN)) put(board, r);
    expect(watch.moveOf('e1', 'total_points')).toMatchObject({ fromLine: 220.5, toLine: 221.5, at: T0 + MIN });
  });

  it('counts no move while the sharp book quotes its new total one way only, and counts it when the other side comes', () => {
    const { board, watch, teamOver, pinnacle } = market();
    for (const r of pinnacle) pull(board, r, T0);
    const [over, under] = totalAt(222.5, T0) as [OddsRow, OddsRow];
    put(board, over);
    expect(watch.moveOf('e1', 'total_points')).toBeUndefined();
    expect(watch.staleDerivativeOf(evOn(teamOver), T0 + 5 * MIN)).toBeNull();
    put(board, { ...under, ts: T0 + MIN, oddsChangedAt: T0 + MIN });
    expect(watch.moveOf('e1', 'total_points')).toMatchObject({ fromLine: 220.5, toLine: 222.5, at: T0 + MIN });
  });

  it("never warns on a sharp book's own derivative prices", () => {
    const { board, watch, pinnacle } = market();
    const sharpTeamTotal = row('circa', 'team_total', 'over', 110.5, T0 - 10 * MIN, { participant: 'home' });
    put(board, sharpTeamTotal);
    moveTotal(board, pinnacle);
    expect(watch.staleDerivativeOf(evOn(sharpTeamTotal), T0 + 5 * MIN)).toBeNull();
  });
});
