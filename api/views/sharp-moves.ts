import { bettableRow } from '../../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsChange, OddsRow, Opportunity } from '../../schemas/index.js';
import { DEFAULT_STALE_DERIVATIVE_POLICY, staleDerivatives } from '../../pipeline/opportunities/index.js';
import type {
  DerivativeRow,
  SharpMove,
  StaleDerivativeFlag,
  StaleDerivativeJudge,
  StaleDerivativePolicy,
} from '../../pipeline/opportunities/index.js';
import type { BoardListener, LiveBoard } from './board.js';
import { isMainLine } from './main-lines.js';

/** Markets whose prices follow the main spread or total: the only ones the detector can flag. */
const DERIVED: ReadonlySet<MarketId> = new Set<MarketId>([
  'point_spread',
  'total_points',
  'team_total',
  '1st_half',
  '1st_quarter',
  'player_prop',
]);
const MOVING: readonly SharpMove['market'][] = ['point_spread', 'total_points'];

/** One sharp book's full-game spread or total of one event: its lines, read from the home or Over side. */
interface SharpMarket {
  /** Line -> the home (spread) or Over (total) row at it. */
  lines: Map<number, OddsRow>;
  /** Its main line when the last move was counted (or when first seen): moves are measured from it. */
  anchor: number | null;
}

/**
 * The sharp books' moves of each event's main spread and total, and the soft books' derivative
 * prices, followed on the live board as a listener: what the `STALE_AFTER_SHARP_MOVE` warning is
 * judged on at the time of a request (`staleDerivatives`, pure, does the judging). Everything it
 * needs is on the board: the rows, when each last changed, each book's cadence (the board's
 * freshness ledger) and the consensus main lines. Nothing here is on the stored record, since
 * the flag turns on as time passes without any new input.
 *
 * A sharp book's main line is the line at which its home (or Over) price is nearest even money:
 * its only line when it quotes one. A move is counted when that line has moved at least the
 * policy's step away from where the last counted move left it (so that half-point drifts add up
 * instead of resetting it); the latest counted move per event and market is kept.
 */
export class SharpMoveWatch implements BoardListener, StaleDerivativeJudge {
  private readonly sharp = new Map<string, SharpMarket>();
  /** Row key -> its sharp market and line, to remove a pulled row. */
  private readonly sharpSlots = new Map<string, { market: SharpMarket; line: number }>();
  /** `event|market` -> the latest counted move. */
  private readonly moves = new Map<string, SharpMove>();
  /** Soft books' derivative rows by row id, and row key -> id to remove them. */
  private readonly derived = new Map<string, OddsRow>();
  private readonly idByKey = new Map<string, string>();

  constructor(
    private readonly board: LiveBoard,
    private readonly policy: StaleDerivativePolicy = DEFAULT_STALE_DERIVATIVE_POLICY,
  ) {
    for (const event of board.allEvents())
      for (const [key, row] of board.entriesOf(event.id)) this.applyChange({ key, eventId: event.id, row, changedAt: row.ts });
    board.subscribe(this);
  }

  applyEvent(_event: CanonicalEvent): void {}

  applyChange(change: OddsChange): void {
    const row = bettableRow(change);
    this.followDerived(change.key, row);
    this.followSharp(change, row);
  }

  private followDerived(key: string, row: OddsRow | null): void {
    const before = this.idByKey.get(key);
    if (row === null || !DERIVED.has(row.market) || this.policy.sharpBooks.has(row.book)) {
      if (before !== undefined) this.derived.delete(before);
      this.idByKey.delete(key);
      return;
    }
    this.derived.set(row.id, row);
    this.idByKey.set(key, row.id);
  }

  private followSharp(change: OddsChange, row: OddsRow | null): void {
    const slot = this.sharpSlots.get(change.key);
    if (slot !== undefined) {
      slot.market.lines.delete(slot.line);
      this.sharpSlots.delete(change.key);
    }
    let market = slot?.market;
    if (row !== null && this.isSharpMain(row)) {
      const key = `${row.eventId}|${row.market}|${row.book}`;
      market = this.sharp.get(key);
      if (market === undefined) this.sharp.set(key, (market = { lines: new Map(), anchor: null }));
      const line = row.line as number;
      market.lines.set(line, row);
      this.sharpSlots.set(change.key, { market, line });
      this.measure(market, row);
    }
  }

  private isSharpMain(row: OddsRow): boolean {
    return (
      this.policy.sharpBooks.has(row.book) &&
      row.participant === null &&
      row.line !== null &&
      ((row.market === 'point_spread' && row.selection === 'home') || (row.market === 'total_points' && row.selection === 'over'))
    );
  }

  /** Counts a move when the market's main line has gone a step from its anchor. */
  private measure(market: SharpMarket, row: OddsRow): void {
    let main: number | null = null;
    let nearest = Number.POSITIVE_INFINITY;
    for (const [line, r] of market.lines) {
      const off = Math.abs(r.probability - 0.5);
      if (off < nearest || (off === nearest && main !== null && line < main)) {
        main = line;
        nearest = off;
      }
    }
    if (main === null) return;
    if (market.anchor === null) {
      market.anchor = main;
      return;
    }
    const kind = row.market as SharpMove['market'];
    if (Math.abs(main - market.anchor) < this.policy.minMovePoints[kind]) return;
    this.moves.set(`${row.eventId}|${kind}`, {
      eventId: row.eventId,
      book: row.book,
      market: kind,
      fromLine: market.anchor,
      toLine: main,
      at: row.oddsChangedAt,
    });
    market.anchor = main;
  }

  /** The latest counted move of an event's main spread or total, if any (tests, diagnostics). */
  moveOf(eventId: string, market: SharpMove['market']): SharpMove | undefined {
    return this.moves.get(`${eventId}|${market}`);
  }

  staleDerivativeOf(o: Opportunity, now: number): StaleDerivativeFlag | null {
    const moves = MOVING.map((m) => this.moves.get(`${o.eventId}|${m}`)).filter((m): m is SharpMove => m !== undefined);
    if (moves.length === 0) return null;
    // The latest move first: it is the one a price has had the least time to follow.
    moves.sort((a, b) => b.at - a.at);
    for (const leg of o.legs) {
      const row = this.derived.get(leg.rowId);
      if (row === undefined) continue;
      const derivative = this.derivativeRow(row);
      const threshold = this.board.freshness.staleAfterSeconds(row.book, row.isLive);
      for (const move of moves) {
        const flag = staleDerivatives(move, [derivative], now, () => threshold, this.policy)[0];
        if (flag !== undefined) return { ...flag, book: row.book, selection: row.selection, line: row.line };
      }
    }
    return null;
  }

  private derivativeRow(row: OddsRow): DerivativeRow {
    const main = row.market === 'point_spread' || row.market === 'total_points' ? isMainLine(this.board.mainLines(row.eventId), row) : true;
    return {
      id: row.id,
      eventId: row.eventId,
      book: row.book,
      market: row.market,
      selection: row.selection,
      line: row.line,
      // Team totals carry the side (home or away), as the detector reads them.
      participant: row.participant,
      oddsChangedAt: row.oddsChangedAt,
      isMainLine: main,
    };
  }
}
