import type { CanonicalEvent } from './events.js';
import type { MarketId } from './markets.js';
import type { RawFutures } from './futures.js';
import type { RawTick } from './ticks.js';

/**
 * Betting splits: the share of tickets (bets %) and of money (handle %) on each side of a
 * market, as a book publishes them. Two books publish them: one recreational (its public
 * shows), one sharp-friendly (where money and tickets part ways when sharp bettors are in).
 */
export const SPLITS_BOOKS = ['draftkings', 'circa'] as const;
export type SplitsBook = (typeof SPLITS_BOOKS)[number];

const SPLITS_BOOK_SET: ReadonlySet<string> = new Set(SPLITS_BOOKS);

/** Whether a book is one of the splits publishers: the normalizer drops any other book's splits. */
export function isSplitsBook(book: string): book is SplitsBook {
  return SPLITS_BOOK_SET.has(book);
}

export const SPLIT_MARKETS = ['spread', 'total', 'moneyline'] as const;
export type SplitMarket = (typeof SPLIT_MARKETS)[number];

/** The odds market a split market's line and price are read from. */
export const SPLIT_ODDS_MARKET: Readonly<Record<SplitMarket, MarketId>> = {
  spread: 'point_spread',
  total: 'total_points',
  moneyline: 'moneyline',
};

export type SplitSide = 'home' | 'away' | 'over' | 'under';

/** The two sides of a split market, in the order records present them. */
export const SPLIT_SIDES: Readonly<Record<SplitMarket, readonly [SplitSide, SplitSide]>> = {
  spread: ['home', 'away'],
  total: ['over', 'under'],
  moneyline: ['home', 'away'],
};

/** One side of one market as the book reports it: `outcome` in its words (team name, Over, Under). */
export interface RawSplitSide {
  market: SplitMarket;
  outcome: string;
  /** Shares from 0 to 1. */
  betPct: number;
  handlePct: number;
}

/**
 * A book's splits for one event at one moment, in the book's own vocabulary (like `RawTick`).
 * It travels on the feed's topic (`odds.ticks.raw`) next to the ticks, so the normalizer meets
 * it after the book's prices for the event, in the order the feed saw them.
 */
export interface RawSplits extends Pick<
  RawTick,
  'book' | 'bookEventId' | 'sport' | 'league' | 'homeTeam' | 'awayTeam' | 'startTime' | 'isLive'
> {
  kind: 'splits';
  /** When the book published these numbers, epoch ms. */
  ts: number;
  sides: RawSplitSide[];
}

/**
 * What a feed produces: prices, and (for feeds that have them) splits and futures boards. Ticks
 * carry no tag so that the hot path stays as it was; splits and futures are told apart by `kind`.
 */
export type FeedRecord = RawTick | RawSplits | RawFutures;

export function isRawSplits(record: FeedRecord): record is RawSplits {
  return (record as Partial<RawSplits>).kind === 'splits';
}

/** Splits on a canonical event and side, before the line is joined (normalizer output). */
export interface SplitsObservation {
  eventId: string;
  book: SplitsBook;
  ts: number;
  sides: { market: SplitMarket; side: SplitSide; betPct: number; handlePct: number }[];
}

/** One side with the book's line and price for it at the snapshot's moment (null when the book had none). */
export interface SplitSideRecord {
  market: SplitMarket;
  side: SplitSide;
  betPct: number;
  handlePct: number;
  /** The side's own handicap (spread) or the threshold (total); null for moneylines. */
  line: number | null;
  priceAmerican: number | null;
}

/** Money and tickets part ways: `sharpSide` has more of the handle than of the bets, by `gap`. */
export interface DivergenceSignal {
  sharpSide: SplitSide;
  /** Handle share minus bet share on the sharp side (0 to 1). */
  gap: number;
}

/** The line moved against the side most tickets are on, since the first snapshot. */
export interface RlmSignal {
  /** The side with most bets now, and its share. */
  publicSide: SplitSide;
  publicBetPct: number;
  /** The side the move favours the book against: the other one. */
  sharpSide: SplitSide;
  /** Public side's line (spread, total) or implied probability (moneyline), first snapshot and now. */
  openLine: number;
  currentLine: number;
  /** How far it moved in the public's favour (points, or probability for moneylines); always > 0. */
  move: number;
}

export interface MarketSignals {
  divergence: DivergenceSignal | null;
  rlm: RlmSignal | null;
}

export type SplitSignals = Partial<Record<SplitMarket, MarketSignals>>;

/**
 * A book's splits for a canonical event at one moment, joined to the event and to the book's
 * lines. Topic `splits` (compacted), keyed by `${eventId}|${book}` (the latest per event and
 * book survives compaction), partitioned by event id.
 */
export interface SplitsSnapshot extends Pick<CanonicalEvent, 'sport' | 'league' | 'homeTeamId' | 'awayTeamId' | 'startTime' | 'isLive'> {
  key: string;
  eventId: string;
  book: SplitsBook;
  /** When the book published the numbers, epoch ms. */
  ts: number;
  sides: SplitSideRecord[];
  signals: SplitSignals;
}

export function splitsKey(eventId: string, book: string): string {
  return `${eventId}|${book}`;
}
