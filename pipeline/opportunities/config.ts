import { DEFAULT_LOW_HOLD_PERCENT, LEAGUES, SPORTSBOOKS, settingDefault } from '../../schemas/index.js';
import type { LeagueDef, MarketId, SelectionFamily, SportsbookDef } from '../../schemas/index.js';
import { DEFAULT_FRESHNESS_POLICY } from '../freshness/index.js';
import type { FreshnessPolicy } from '../freshness/index.js';
import { TYPICAL_MARGIN_SIGMA } from '../odds-math/index.js';

/** Everything an opportunity processor can be tuned with; `resolveOptions` fills the defaults. */
export interface OpportunityOptions {
  /** Reference books, best first; the fair price averages every one present. */
  referenceBooks?: readonly string[];
  /** Used only when no reference book prices the market (recorded US data has few sharps). */
  fallbackReferenceBooks?: readonly string[];
  leagues?: readonly LeagueDef[];
  /**
   * Floor of the pre-match stale threshold, seconds: a price is flagged POTENTIALLY_STALE_ODDS once
   * unconfirmed longer than its book's p95 confirmation age × the factor, and never sooner than this.
   */
  staleAfterSeconds?: number;
  /** The same floor for live prices (LIVE_STALE_ODDS). */
  liveStaleAfterSeconds?: number;
  /** The multiple of a book's p95 confirmation age after which its price is stale. */
  staleCadenceFactor?: number;
  lowHoldPercent?: number;
  /** Combinations kept per market line (arbitrage, low-hold), best first. */
  maxCombosPerLine?: number;
  /**
   * Sets of books (e.g. what each tier sees) within which low-hold markets and middles are also
   * looked for: the best over every book may use a book a caller cannot see.
   */
  bookScopes?: readonly (readonly string[])[];
  /** Middles kept per market family at most, best first. */
  maxMiddlesPerFamily?: number;
  /** State of an event is dropped (its opportunities expire) this long after its start. */
  retainAfterStartMs?: number;
  /**
   * Widest back/lay spread, in probability points (1/back - 1/lay), at which an exchange still
   * serves as a +EV reference; wider on any outcome, its midpoint is not used.
   */
  exchangeMaxSpread?: number;
  /**
   * The lowest exchange commission rate any caller is charged, percent, when it is below an
   * exchange's own: combinations are also searched with exchange rows priced at it (search-rate.ts).
   * The processor's `setSearchCommission` changes it later.
   */
  searchCommission?: number | null;
  /**
   * The API's `VERY_STALE_FACTOR`: records whose very-stale verdict today's thresholds change are
   * re-timed, so the API's phantom filter judges them by today's thresholds (retime.ts).
   */
  veryStaleFactor?: number;
}

export interface ResolvedOptions {
  referenceBooks: readonly string[];
  fallbackReferenceBooks: readonly string[];
  leagues: ReadonlyMap<string, LeagueDef>;
  staleAfterSeconds: number;
  liveStaleAfterSeconds: number;
  /** How the books' stale thresholds are measured (the floors above included). */
  freshness: FreshnessPolicy;
  lowHoldPercent: number;
  maxCombosPerLine: number;
  /** Every book (null) first, then each configured scope. */
  scopes: readonly (ReadonlySet<string> | null)[];
  maxMiddlesPerFamily: number;
  retainAfterStartMs: number;
  exchangeMaxSpread: number;
  veryStaleFactor: number;
}

const REFERENCE_RANK = ['pinnacle', 'circa', 'bookmaker', 'betfair_ex_eu', 'lowvig'];

/** The catalog's sharp books, ranked: the named order first, any other sharp book after. */
export function defaultReferenceBooks(books: readonly SportsbookDef[] = SPORTSBOOKS): string[] {
  const sharp = books.filter((b) => b.isSharp).map((b) => b.id);
  const rank = (id: string): number => {
    const i = REFERENCE_RANK.indexOf(id);
    return i < 0 ? REFERENCE_RANK.length : i;
  };
  return sharp.sort((a, b) => rank(a) - rank(b));
}

export const STALE_AFTER_SECONDS = 60;
/**
 * Three probability points: a liquid match-odds market is a tick or two wide (back 2.0 / lay 2.02
 * is half a point); past three points the ladder is thin and its midpoint moves with any small bet.
 */
export const EXCHANGE_MAX_SPREAD = 0.03;
export const LIVE_STALE_AFTER_SECONDS = 10;

export function resolveOptions(options: OpportunityOptions = {}): ResolvedOptions {
  const referenceBooks = options.referenceBooks ?? defaultReferenceBooks();
  const staleAfterSeconds = options.staleAfterSeconds ?? STALE_AFTER_SECONDS;
  const liveStaleAfterSeconds = options.liveStaleAfterSeconds ?? LIVE_STALE_AFTER_SECONDS;
  return {
    referenceBooks,
    fallbackReferenceBooks: (options.fallbackReferenceBooks ?? ['betonlineag']).filter((b) => !referenceBooks.includes(b)),
    leagues: new Map((options.leagues ?? LEAGUES).map((l) => [l.id, l])),
    staleAfterSeconds,
    liveStaleAfterSeconds,
    freshness: {
      ...DEFAULT_FRESHNESS_POLICY,
      factor: options.staleCadenceFactor ?? DEFAULT_FRESHNESS_POLICY.factor,
      floorSeconds: { live: liveStaleAfterSeconds, prematch: staleAfterSeconds },
    },
    lowHoldPercent: options.lowHoldPercent ?? DEFAULT_LOW_HOLD_PERCENT,
    maxCombosPerLine: options.maxCombosPerLine ?? 16,
    scopes: [null, ...(options.bookScopes ?? []).map((books) => new Set(books))],
    maxMiddlesPerFamily: options.maxMiddlesPerFamily ?? 32,
    retainAfterStartMs: options.retainAfterStartMs ?? 24 * 60 * 60 * 1000,
    exchangeMaxSpread: options.exchangeMaxSpread ?? EXCHANGE_MAX_SPREAD,
    veryStaleFactor: options.veryStaleFactor ?? settingDefault('VERY_STALE_FACTOR'),
  };
}

/**
 * Standard deviation of the final total about the market's total, full game. Published figures
 * where they exist (NFL about 13.5, NBA about 18 points), otherwise a Poisson-like guess from the
 * league's typical total; see docs/opportunities.md.
 */
const TOTAL_SIGMA: Readonly<Record<string, number>> = {
  nfl: 13.5,
  ncaaf: 16,
  nba: 18,
  wnba: 15,
  ncaab: 15,
  mlb: 4.4,
  nhl: 2.3,
};

const SPREAD_SIGMA: Readonly<Record<string, number>> = {
  ...TYPICAL_MARGIN_SIGMA,
  wnba: 11,
  mlb: 4.2,
  nhl: 2.4,
};

/** Periods are shorter: a half has about 1/sqrt(2) of the spread, a quarter about 1/2. */
const PERIOD_SCALE: Partial<Record<MarketId, number>> = { '1st_half': Math.SQRT1_2, '1st_quarter': 0.5 };

/**
 * Sigma of the middle hit model for a market family, in points. Player props use a
 * Poisson-like sqrt(line) scaled up for overdispersion, team totals 1/sqrt(2) of the game total.
 */
export function middleSigma(league: LeagueDef | undefined, market: MarketId, family: SelectionFamily, line: number): number {
  if (market === 'player_prop') return Math.max(1, 1.2 * Math.sqrt(Math.abs(line)));
  const typicalTotal = league?.scoring.total ?? Math.max(Math.abs(line), 1);
  const poissonLike = Math.max(1, 1.2 * Math.sqrt(typicalTotal));
  const id = league?.id ?? '';
  let sigma = family === 'side' ? (SPREAD_SIGMA[id] ?? poissonLike) : (TOTAL_SIGMA[id] ?? poissonLike);
  if (market === 'team_total') sigma *= Math.SQRT1_2;
  sigma *= PERIOD_SCALE[market] ?? 1;
  return sigma;
}
