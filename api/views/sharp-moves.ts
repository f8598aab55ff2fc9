import { bettableRow } from '../../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsChange, OddsRow, Opportunity } from '../../schemas/index.js';
import { DEFAULT_STALE_DERIVATIVE_POLICY, canonicalLine, staleDerivatives } from '../../pipeline/opportunities/index.js';
import type {
  DerivativeRow,
  SharpMove,
  StaleDerivativeFlag,
  StaleDerivativeJudge,
  StaleDerivativePolicy,
} from '../../pipeline/opportunities/index.js';
import type { BoardListener, LiveBoard } from './board.js';
import { bookMainLine, isMainLine } from './main-lines.js';

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

/** One sharp book's full-game spread or total of one event. */
interface SharpMarket {
  /** Row key -> the book's open row of the market, both sides of every line. */
  rows: Map<string, OddsRow>;
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
 * A sharp book's main line is `bookMainLine`, the same number a key-number alert reads: the line
 * it offers both ways whose two sides are closest, so a book quoting one side only has none and
 * moves nothing. It is read again whenever one of the book's rows of the market comes, changes or
 * goes. A move is counted when that line has moved at least the policy's step away from where the
 * last counted move left it (so that half-point drifts add up instead of resetting it); the
 * latest counted move per event and market is kept. What the watch holds of an event goes when
 * the event's last row leaves the board (a closed event's rows all do).
 */
export class SharpMoveWatch implements BoardListener, StaleDerivativeJudge {
  /** Event id -> `market|book` -> that sharp book's market. */
  private readonly sharp = new Map<string, Map<string, SharpMarket>>();
  /** Row key -> the sharp market holding it, to take a pulled row out. */
  private readonly sharpOfKey = new Map<string, SharpMarket>();
  /** `event|market` -> the latest counted move. */
  private readonly moves = new Map<string, SharpMove>();
  /**
   * Soft books' derivative rows by row id. The id a change replaces or removes is read from the
   * board, which still holds that row when it tells its listeners: a map of its own from row key
   * to id (tens of thousands of keys on the soak's board) copied what the board holds.
   */
  private readonly derived = new Map<string, OddsRow>();

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
    this.followDerived(this.board.row(change.eventId, change.key), row);
    this.followSharp(change.key, row);
  }

  eventEmptied(eventId: string): void {
    this.sharp.delete(eventId);
    for (const market of MOVING) this.moves.delete(`${eventId}|${market}`);
  }

  /** Events the watch holds anything of (tests, diagnostics). */
  eventsHeld(): number {
    const events = new Set(this.sharp.keys());
    for (const move of this.moves.values()) events.add(move.eventId);
    for (const row of this.derived.values()) events.add(row.eventId);
    return events.size;
  }

  /** `before`: the board's row under the change's key, the one the change replaces or removes. */
  private followDerived(before: OddsRow | undefined, row: OddsRow | null): void {
    const kept = row !== null && DERIVED.has(row.market) && !this.policy.sharpBooks.has(row.book) ? row : null;
    if (before !== undefined && before.id !== kept?.id) this.derived.delete(before.id);
    if (kept !== null) this.derived.set(kept.id, kept);
  }

  private followSharp(key: string, row: OddsRow | null): void {
    const held = this.sharpOfKey.get(key);
    held?.rows.delete(key);
    this.sharpOfKey.delete(key);
    let market = held;
    if (row !== null && this.isSharpFullGame(row)) {
      market = this.marketOf(row);
      market.rows.set(key, row);
      this.sharpOfKey.set(key, market);
    }
    if (market !== undefined) this.measure(market);
  }

  private marketOf(row: OddsRow): SharpMarket {
    let markets = this.sharp.get(row.eventId);
    if (markets === undefined) this.sharp.set(row.eventId, (markets = new Map()));
    const key = `${row.market}|${row.book}`;
    let market = markets.get(key);
    if (market === undefined) markets.set(key, (market = { rows: new Map(), anchor: null }));
    return market;
  }

  private isSharpFullGame(row: OddsRow): boolean {
    return (
      this.policy.sharpBooks.has(row.book) &&
      row.participant === null &&
      row.line !== null &&
      (row.market === 'point_spread' || row.market === 'total_points')
    );
  }

  /** Counts a move when the market's main line has gone a step from its anchor. */
  private measure(market: SharpMarket): void {
    const first = market.rows.values().next();
    if (first.done === true) return;
    const kind = first.value.market as SharpMove['market'];
    const main = bookMainLine(market.rows.values(), kind);
    if (main === null) return;
    if (market.anchor === null) {
      market.anchor = main;
      return;
    }
    if (Math.abs(main - market.anchor) < this.policy.minMovePoints[kind]) return;
    // When the book's prices at the new number last changed: the move's time, whichever side came last.
    let at = Number.NEGATIVE_INFINITY;
    for (const r of market.rows.values()) if (canonicalLine(r) === main) at = Math.max(at, r.oddsChangedAt);
    this.moves.set(`${first.value.eventId}|${kind}`, {
      eventId: first.value.eventId,
      book: first.value.book,
      market: kind,
      fromLine: market.anchor,
      toLine: main,
      at,
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
