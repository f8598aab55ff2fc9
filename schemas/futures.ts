import type { DevigMethodName } from './opportunities.js';

/**
 * Futures (outrights): markets settled at the end of a season or tournament, not by one game
 * (championship winner, MVP, regular-season wins). A book prices every outcome of such a market
 * at once, so the unit that travels is one book's whole board of one market.
 *
 * Feeds that have futures (the simulator) emit `RawFutures` on their own topic
 * (`odds.ticks.raw`, next to ticks and splits); the normalizer stage resolves the league, the
 * teams and the market into a `FuturesQuote` on `futures` (compacted, keyed
 * `${futureId}|${book}`, partitioned by future id). The futures processor de-vigs each market
 * against the sharp references and publishes `FuturesMarket` (fair line + +EV) on
 * `futures.markets`. Recordings of game odds (The Odds API replays) carry no futures.
 */

/** The reference service's `future_type` values (COMPAT §8). */
export const FUTURE_TYPES = ['TEAM', 'PLAYER', 'OVER_UNDER', 'YES_NO'] as const;
export type FutureType = (typeof FUTURE_TYPES)[number];

/** What a market is about: the canonical id is `${league}-${season}-${kind}` (+ `-${team}` for a team's own market). */
export const FUTURE_KINDS = ['championship', 'mvp', 'season_wins', 'make_playoffs'] as const;
export type FutureKind = (typeof FUTURE_KINDS)[number];

export const FUTURE_KIND_TYPES: Readonly<Record<FutureKind, FutureType>> = {
  championship: 'TEAM',
  mvp: 'PLAYER',
  season_wins: 'OVER_UNDER',
  make_playoffs: 'YES_NO',
};

/** One outcome as the book lists it: a team as it spells it, a player, `Over`/`Under`, `Yes`/`No`. */
export interface RawFutureSelection {
  name: string;
  /** Over/under markets: the threshold; null otherwise. */
  line: number | null;
  priceAmerican: number;
}

/** One book's board of one outright market, in its own names. An empty `selections` means the book pulled the market. */
export interface RawFutures {
  kind: 'futures';
  book: string;
  /** The book's own id of the market. */
  bookMarketId: string;
  sport: string;
  league: string;
  market: FutureKind;
  /** Season label, e.g. `2026-27` (or `2026` for a season within one year). */
  season: string;
  /** Team markets (season wins, playoffs): the team as the book spells it; null otherwise. */
  subject: string | null;
  /** The book's title of the market. */
  title: string;
  /** When the market settles (season end), epoch ms. */
  settlesAt: number;
  /** When the book set or confirmed these prices, epoch ms. */
  ts: number;
  selections: RawFutureSelection[];
}

/** One outcome's price on the canonical market. */
export interface FuturePrice {
  /** Display name: canonical team name, player name, `Over`, `Under`, `Yes`, `No`. */
  selection: string;
  /** Stable id of the outcome within the market: team id, player slug, `over`/`under`, `yes`/`no`. */
  selectionId: string;
  line: number | null;
  priceAmerican: number;
  priceDecimal: number;
  /** Implied probability of the price (vig included). */
  probability: number;
}

/** What identifies and describes a canonical futures market. */
export interface FutureMarketInfo {
  futureId: string;
  name: string;
  sport: string;
  league: string;
  futureType: FutureType;
  market: FutureKind;
  season: string;
  /** Team id of a team's own market (season wins, playoffs); null otherwise. */
  subjectTeamId: string | null;
  settlesAt: number;
}

/** One book's board of one market (topic `futures`, key `${futureId}|${book}`); empty `selections`: pulled. */
export interface FuturesQuote extends FutureMarketInfo {
  key: string;
  book: string;
  bookMarketId: string;
  ts: number;
  selections: FuturePrice[];
}

/** De-vig methods proper (the odds math's `DEVIG_METHODS`); `worst_case` is their per-outcome minimum. */
export type FutureFairByMethod = Record<Exclude<DevigMethodName, 'worst_case'>, number>;

/** One outcome's fair line: references' de-vigged probability, averaged, and the best price over every book. */
export interface FutureFairSelection {
  selection: string;
  selectionId: string;
  line: number | null;
  /** null when no reference prices this outcome. */
  fair: FutureFairByMethod | null;
  bestBook: string;
  bestPriceAmerican: number;
  bestPriceDecimal: number;
  /** Books pricing this outcome at this line. */
  bookCount: number;
}

/** A futures price above the references' fair probability (EV > 0 under at least one method). */
export interface FutureEvOpportunity {
  /** 16 hex digits of (future id, book, selection id, line): stable while the edge lasts. */
  id: string;
  futureId: string;
  book: string;
  selection: string;
  selectionId: string;
  line: number | null;
  priceAmerican: number;
  priceDecimal: number;
  /** When the book set the price. */
  oddsTs: number;
  methods: Record<DevigMethodName, { fairProbability: number; noVigOdds: number; evPercent: number; kellyPercent: number }>;
  /** Headline: EV % under power de-vig. */
  evPercent: number;
  /** References averaged (never the book itself). */
  sharpBooks: string[];
  /** Hold of the main reference's board, percent. */
  referenceHoldPercent: number;
  bookCount: number;
  detectedAt: number;
  lastSeenAt: number;
}

/** A market's derived state (topic `futures.markets`, keyed by future id, compacted): fair line and current +EV. */
export interface FuturesMarket extends FutureMarketInfo {
  /** Reference books whose boards were de-vigged, best first; empty when none prices the market. */
  references: string[];
  selections: FutureFairSelection[];
  opportunities: FutureEvOpportunity[];
  /** Books with an open board, and each one's hold (percent). */
  books: { book: string; holdPercent: number; ts: number }[];
  updatedAt: number;
}

export function isRawFutures(record: object): record is RawFutures {
  return (record as { kind?: unknown }).kind === 'futures';
}

export function futuresQuoteKey(futureId: string, book: string): string {
  return `${futureId}|${book}`;
}
