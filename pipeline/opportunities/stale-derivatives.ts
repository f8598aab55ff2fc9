import type { MarketId, Opportunity, SelectionType } from '../../schemas/index.js';
import { defaultReferenceBooks } from './config.js';

/**
 * The stale-derivative detector (issue 31): when a sharp book moves an event's main spread or
 * total far enough, the markets derived from it (halves and quarters, team totals, player props,
 * alternate lines) should follow. A soft book's derivative that has not repriced since the move,
 * once the book's own cadence has passed, is probably a price the book forgot: flagged
 * `STALE_AFTER_SHARP_MOVE`, with the move and the direction the price is expected to go.
 * Pure: the caller supplies the move, the rows and each book's stale threshold.
 */

export const STALE_AFTER_SHARP_MOVE = 'STALE_AFTER_SHARP_MOVE';

/** A sharp book's main line moving, from the home side's (spread) or the Over's (total) perspective. */
export interface SharpMove {
  eventId: string;
  book: string;
  market: 'point_spread' | 'total_points';
  fromLine: number;
  toLine: number;
  /** When the sharp book changed the line, epoch ms. */
  at: number;
}

/** A price the detector judges: an odds row's identity and when its book last changed it. */
export interface DerivativeRow {
  id: string;
  eventId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  line: number | null;
  /** `home`/`away` for team totals; a player for props. */
  participant: string | null;
  /** Epoch ms of the book's last change of the price (a confirmation is not a reprice). */
  oddsChangedAt: number;
  /** False for an alternate line of the main spread or total market; derivatives markets ignore it. */
  isMainLine: boolean;
}

/** `shorten`: the price should get shorter (lower decimal), `lengthen`: longer. */
export type ExpectedDirection = 'shorten' | 'lengthen';

export interface StaleDerivative {
  rowId: string;
  warning: typeof STALE_AFTER_SHARP_MOVE;
  move: SharpMove;
  expected: ExpectedDirection;
}

export interface StaleDerivativePolicy {
  /** Smallest move of the sharp main line that counts, points, per market. */
  minMovePoints: Readonly<Record<SharpMove['market'], number>>;
  /** Books whose prices are the reference, never flagged. */
  sharpBooks: ReadonlySet<string>;
}

export const DEFAULT_STALE_DERIVATIVE_POLICY: StaleDerivativePolicy = {
  // A point on a total or a spread is well past the half-point steps books shade by.
  minMovePoints: { point_spread: 1, total_points: 1 },
  sharpBooks: new Set(defaultReferenceBooks()),
};

const PERIOD_MARKETS: ReadonlySet<MarketId> = new Set(['1st_half', '1st_quarter']);

const flip = (d: ExpectedDirection): ExpectedDirection => (d === 'shorten' ? 'lengthen' : 'shorten');

/**
 * Which way a derivative's price should go after the move, or null when it does not follow it.
 * A higher total makes every Over likelier (game alternates, periods, both team totals, player
 * props); a spread moving towards the home side (a lower home line) makes the home side of
 * spread alternates and periods likelier, and the home team's total Over, the away one's less.
 * Period markets carry both families; the row's selection says which one it is.
 */
export function expectedDirection(move: SharpMove, row: DerivativeRow): ExpectedDirection | null {
  const up = move.toLine > move.fromLine;
  const isTotalSelection = row.selection === 'over' || row.selection === 'under';
  if (move.market === 'total_points') {
    const follows =
      (row.market === 'total_points' && !row.isMainLine) ||
      (PERIOD_MARKETS.has(row.market) && isTotalSelection) ||
      row.market === 'team_total' ||
      row.market === 'player_prop';
    if (!follows || !isTotalSelection) return null;
    const overDirection: ExpectedDirection = up ? 'shorten' : 'lengthen';
    return row.selection === 'over' ? overDirection : flip(overDirection);
  }
  // A lower home line (more negative): the home team is more favoured.
  const homeDirection: ExpectedDirection = up ? 'lengthen' : 'shorten';
  if ((row.market === 'point_spread' && !row.isMainLine) || (PERIOD_MARKETS.has(row.market) && !isTotalSelection)) {
    if (row.selection === 'home') return homeDirection;
    if (row.selection === 'away') return flip(homeDirection);
    return null;
  }
  if (row.market === 'team_total' && isTotalSelection && (row.participant === 'home' || row.participant === 'away')) {
    const overDirection = row.participant === 'home' ? homeDirection : flip(homeDirection);
    return row.selection === 'over' ? overDirection : flip(overDirection);
  }
  return null;
}

/**
 * The soft-book derivatives of the move's event that have not repriced since it, once their
 * book's threshold (seconds, as the freshness ledger gives it) has passed since the move.
 */
export function staleDerivatives(
  move: SharpMove,
  rows: readonly DerivativeRow[],
  now: number,
  staleAfterSeconds: (book: string) => number,
  policy: StaleDerivativePolicy = DEFAULT_STALE_DERIVATIVE_POLICY,
): StaleDerivative[] {
  if (Math.abs(move.toLine - move.fromLine) < policy.minMovePoints[move.market]) return [];
  const out: StaleDerivative[] = [];
  for (const row of rows) {
    if (row.eventId !== move.eventId || policy.sharpBooks.has(row.book)) continue;
    if (row.oddsChangedAt >= move.at) continue;
    if (now - move.at <= staleAfterSeconds(row.book) * 1000) continue;
    const expected = expectedDirection(move, row);
    if (expected !== null) out.push({ rowId: row.id, warning: STALE_AFTER_SHARP_MOVE, move, expected });
  }
  return out;
}

/** A flagged opportunity: which of its prices is the stale derivative, and after which move. */
export interface StaleDerivativeFlag extends StaleDerivative {
  book: string;
  selection: SelectionType;
  line: number | null;
}

/**
 * Judges an opportunity at the time of a request: the flag of its first price that is a stale
 * derivative of a sharp move, or null. Whoever holds the board (every book's rows, their
 * cadences and the sharp books' main lines) implements it; the presenters only ask.
 */
export interface StaleDerivativeJudge {
  staleDerivativeOf(o: Opportunity, now: number): StaleDerivativeFlag | null;
}
