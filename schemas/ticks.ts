import type { ExchangeQuote } from './exchange.js';
import type { MarketId, SelectionType } from './markets.js';

/**
 * A price as a feed sees it, in the book's own vocabulary: its team spellings, its event id,
 * its outcome labels. Topic `odds.ticks.raw`, keyed by `${book}:${bookEventId}`.
 *
 * `outcome` is the book's label for the selection: a team name as the book spells it for
 * side markets (moneyline, spreads, period sides), or `Draw`, `Over`, `Under`, `Yes`, `No`.
 * Naming the team rather than "home"/"away" is what lets the normalizer cope with books that
 * list home and away the other way round.
 */
export interface RawTick {
  /** Sportsbook id from the catalog (e.g. `pinnacle`). */
  book: string;
  /** The book's own event id. */
  bookEventId: string;
  sport: string;
  league: string;
  /** Team names as this book spells them. */
  homeTeam: string;
  awayTeam: string;
  /** Start time as this book reports it, epoch ms. */
  startTime: number;
  isLive: boolean;
  market: MarketId;
  outcome: string;
  /** Handicap or threshold from the outcome's own perspective; null for markets without one. */
  line: number | null;
  /** Player name for player props; for team totals the team name as the book spells it. */
  participant: string | null;
  /** Stat of a player prop (points, rebounds, passing_yards, ...). */
  statCategory: string | null;
  /**
   * American odds. With `suspended`: the price the book froze (the line is locked and comes
   * back), or null when the book pulled the line (it leaves the board).
   */
  priceAmerican: number | null;
  /**
   * `suspended` with a price: the book locked the line for now (latest odds keep it, inactive);
   * `suspended` with a null price: the line is gone (latest odds drop it).
   */
  status: 'open' | 'suspended';
  /** When the book last set or confirmed this price, epoch ms. */
  ts: number;
  /** The book's own selection id, for deep links; null when unknown. */
  selectionId: string | null;
  /**
   * When the book last changed this price, epoch ms, where the feed knows it. Absent (or null):
   * the snapshot works it out, keeping the time of the last tick that moved the price.
   */
  oddsChangedAt?: number | null;
  /** When our feed saw the price, epoch ms; absent (or null): at `ts`. */
  observedAt?: number | null;
  /**
   * Exchange books only: both sides of the ladder, sizes, volume and commission. `priceAmerican`
   * is then the back price net of commission (what a backer is actually paid). Absent (or null)
   * for sportsbooks.
   */
  exchange?: ExchangeQuote | null;
}

/**
 * A price after normalization: canonical event id, canonical selection. Topic `odds.ticks`,
 * keyed by `eventId` so that every book's prices for one event meet in one partition.
 */
export interface OddsTick {
  eventId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  line: number | null;
  /** Player name (player props) or `home`/`away` (team totals); null otherwise. */
  participant: string | null;
  statCategory: string | null;
  /** Null when the line was pulled; the frozen price of a suspension otherwise (see RawTick). */
  priceAmerican: number | null;
  status: 'open' | 'suspended';
  ts: number;
  isLive: boolean;
  bookEventId: string;
  selectionId: string | null;
  /** As on RawTick: when the book changed the price, where the feed knows it. */
  oddsChangedAt?: number | null;
  /** As on RawTick: when our feed saw the price. */
  observedAt?: number | null;
  /** As on RawTick: the exchange's ladder, for exchange books only. */
  exchange?: ExchangeQuote | null;
}

/** Identity of one odds row: the snapshot keeps the latest price per key. */
export function oddsRowKey(t: {
  eventId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  line: number | null;
  participant: string | null;
  statCategory: string | null;
}): string {
  return `${t.eventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}|${t.selection}|${t.line ?? ''}|${t.book}`;
}
