import type { MarketId, SelectionFamily, SelectionType } from './markets.js';

/**
 * Opportunity records: what the opportunity processors derive from the latest odds, topic
 * `opportunities` (compacted, keyed by `id`, partitioned by `eventId`). Times are epoch ms,
 * percentages are percent (4.2 = 4.2 %), probabilities are fractions. An expiry is sent as the
 * final version (`expiredAt` set) followed by a tombstone, so that the table sink can record when
 * and why it ended while compaction still forgets it.
 */

export const OPPORTUNITY_KINDS = ['ev', 'arbitrage', 'middle', 'low_hold'] as const;
export type OpportunityKind = (typeof OPPORTUNITY_KINDS)[number];

/**
 * The de-vig methods a fair price is computed with (the odds math implements each), in the order
 * the Avro enums list them: one list for the engines, the API's parameters and the schemas.
 */
export const DEVIG_METHODS = ['power', 'multiplicative', 'additive', 'shin', 'odds_ratio', 'logit'] as const;
export type DevigMethod = (typeof DEVIG_METHODS)[number];

/**
 * Every de-vig method the odds math implements: the stored ones above, then the ones only a
 * fair-line recipe (`/fair`, `/opportunities/ev` re-priced) asks for. Those stay out of
 * DEVIG_METHODS so the records on the bus and the per-method values every opportunity carries
 * keep their shape.
 */
export const RECIPE_ONLY_DEVIG_METHODS = ['efficient_shin', 'goto'] as const;
export type RecipeOnlyDevigMethod = (typeof RECIPE_ONLY_DEVIG_METHODS)[number];
export const RECIPE_DEVIG_METHODS = [...DEVIG_METHODS, ...RECIPE_ONLY_DEVIG_METHODS] as const;
export type RecipeDevigMethod = (typeof RECIPE_DEVIG_METHODS)[number];

/** What a caller may pick, and what every +EV opportunity carries values for: each method, or the per-outcome minimum over all of them. */
export const DEVIG_CHOICES = [...DEVIG_METHODS, 'worst_case'] as const;
export type DevigMethodName = (typeof DEVIG_CHOICES)[number];

/**
 * What `/opportunities/ev` takes as `devig_method`: a stored choice, or a recipe-only method,
 * which re-prices the rows by a recipe while the list itself stays on the default stored method.
 */
export const EV_LIST_DEVIG_CHOICES = [...DEVIG_CHOICES, ...RECIPE_ONLY_DEVIG_METHODS] as const;
export type EvListDevigChoice = (typeof EV_LIST_DEVIG_CHOICES)[number];

export const OPPORTUNITY_WARNINGS = ['POTENTIALLY_STALE_ODDS', 'LIVE_STALE_ODDS', 'SINGLE_SHARP_REF', 'FALLBACK_SHARP_REF'] as const;
export type OpportunityWarning = (typeof OPPORTUNITY_WARNINGS)[number];

export const EXPIRE_REASONS = ['condition', 'leg_removed', 'event_closed'] as const;
/**
 * `condition`: the prices no longer make it an opportunity; `leg_removed`: a price it used was
 * suspended or pulled; `event_closed`: the event ended or was forgotten.
 */
export type ExpireReason = (typeof EXPIRE_REASONS)[number];

/**
 * Low-hold threshold by default: best-price hold at or below 5 %, the reference's `max_hold`
 * default, so every `max_hold` up to it finds what it asks for.
 */
export const DEFAULT_LOW_HOLD_PERCENT = 5;

/** The event as the opportunity saw it (from the `events` topic). */
export interface OpportunityEventInfo {
  sport: string;
  league: string;
  homeTeamId: string;
  awayTeamId: string;
  startTime: number;
  isLive: boolean;
}

/** One price an opportunity uses: a bet to place (leg) or a reference price. */
export interface OpportunityPrice {
  book: string;
  selection: SelectionType;
  /** The line from the selection's own perspective, as quoted. */
  line: number | null;
  priceAmerican: number;
  priceDecimal: number;
  /** When the book last set or confirmed the price. */
  ts: number;
  /** Odds row id (stable per event, market, participant, selection, line and book). */
  rowId: string;
  bookEventId: string;
  selectionId: string | null;
}

/** Which side of an exchange's ladder a leg takes: every sportsbook bet is a back. */
export const LEG_SIDES = ['back', 'lay'] as const;
export type LegSide = (typeof LEG_SIDES)[number];

export interface OpportunityLeg extends OpportunityPrice {
  /** Share of the total stake, proportional to 1/decimal; legs sum to 1 (1 for a lone +EV bet). */
  stakeShare: number;
  /**
   * Set on every leg of a combination that lays on an exchange, absent on the others (all backs,
   * as before). A lay leg's `selection` is the runner laid; its price is that lay as a back of
   * the runner losing, net of commission, so its stake share is the lay's liability.
   */
  side?: LegSide;
  /** A lay leg's price as the exchange quotes it (decimal); absent on backs. */
  layPrice?: number;
  /**
   * On exchange legs only (absent on sportsbook legs, and on records written before): what it
   * takes to price the leg again at another commission rate, without the board. `commission`
   * is the rate (percent) its price is net of, `backPrice` a back leg's price as quoted, and
   * `maxLegStake` the most stake the leg is matched for (the size at a back price; at a lay
   * price, the liability `max_lay` x (L - 1)).
   */
  commission?: number;
  backPrice?: number;
  maxLegStake?: number;
}

export interface OpportunityCommon {
  /** Stable hash of kind, event, market group, books, selections and lines. */
  id: string;
  kind: OpportunityKind;
  eventId: string;
  /**
   * The situation without the books (event, market group, selections, lines): several
   * combinations of books can show the same arbitrage, middle or low-hold market.
   */
  situation: string;
  market: MarketId;
  family: SelectionFamily;
  /** Player (props) or `home`/`away` (team totals); null otherwise. */
  participant: string | null;
  statCategory: string | null;
  event: OpportunityEventInfo;
  legs: OpportunityLeg[];
  /** Oldest `ts` among every price used (legs and references). */
  oldestOddsTs: number;
  /** Age of that price when this version was computed, seconds. */
  oldestOddsAgeSeconds: number;
  /**
   * When the first of its prices passes its book's stale threshold, epoch ms, and that threshold
   * in seconds (docs/opportunities.md, "Stale prices"); null on records written before both existed.
   */
  freshUntil: number | null;
  staleAfterSeconds: number | null;
  possiblyStale: boolean;
  warnings: OpportunityWarning[];
  detectedAt: number;
  /** When this version was computed. */
  lastSeenAt: number;
  expiredAt: number | null;
  expireReason: ExpireReason | null;
  /** Headline value: EV % (power), profit %, middle EV %, or hold %. */
  value: number;
  /** Best headline value over the opportunity's life (lowest hold for low-hold). */
  peakValue: number;
}

export interface EvMethodValues {
  fairProbability: number;
  /** Fair American odds of the selection. */
  noVigOdds: number;
  evPercent: number;
  kellyPercent: number;
  /** 0-100, computed with this method's EV and the age when the version was computed. */
  confidenceScore: number;
}

/**
 * Inputs of the confidence score that do not change with method (docs/opportunities.md,
 * "confidence_score"). `sharpCount`, `marketWidth` and `bookCount` were parts of the first
 * definition; the score no longer reads them, the record keeps them.
 */
export interface ConfidenceInputs {
  /** Reference books averaged; 0 when only the fallback reference priced the market. */
  sharpCount: number;
  /** Width in cents of the main reference's two-way market; null for other markets. */
  marketWidth: number | null;
  /** Hold of the main reference's market, percent. */
  referenceHoldPercent: number;
  bookCount: number;
  /** When the book last changed this price (`oddsChangedAt`), epoch ms; null on records written before. */
  bookChangedAt: number | null;
  /** The latest `oddsChangedAt` among the reference prices de-vigged, epoch ms; null on records written before. */
  referenceChangedAt: number | null;
  /** Other books (neither this book nor a reference used) pricing this selection at this line; 0 on records written before. */
  otherBooks: number;
  /** Of those, the books offering at least this price less one point of implied probability. */
  otherBooksInCompany: number;
}

export interface EvOpportunity extends OpportunityCommon {
  kind: 'ev';
  book: string;
  selection: SelectionType;
  line: number | null;
  priceAmerican: number;
  priceDecimal: number;
  bookEventId: string;
  selectionId: string | null;
  methods: Record<DevigMethodName, EvMethodValues>;
  /** Best-ranked reference used; `sharpBooks` lists all of them, averaged. */
  sharpBook: string;
  sharpBooks: string[];
  /** The reference prices (every outcome of every reference book used). */
  references: OpportunityPrice[];
  marketWidth: number | null;
  /** Books pricing this selection at this line. */
  bookCount: number;
  arbAvailable: boolean;
  arbProfitPercent: number | null;
  confidence: ConfidenceInputs;
  peakEvPercent: Record<DevigMethodName, number>;
}

/**
 * How much money a combination of bets can carry, where a leg is on an exchange: the exchange
 * matches a bet only up to the size waiting at its price, so the whole stake is bounded by the
 * smallest of size / stake share over the exchange legs (market currency). Absent when no leg
 * says (sportsbooks publish no limit): records of sportsbook-only combinations are unchanged.
 */
export interface StakeCapacity {
  maxStake?: number;
}

/** A combination of bets (arbitrage, middle, low-hold), as the search found it. */
export interface SearchRate {
  /**
   * Set only on a combination found at a search rate below an
   * exchange's own commission rate (docs/opportunities.md, "Searched at the lowest rate in use"):
   * that rate, percent, which its exchange legs are priced at. Such a record is served only to
   * callers on their own rate, re-checked at it; callers at the board's rate never see it.
   */
  foundAtCommission?: number;
}

/**
 * Whether the pipeline found a record only with exchange rows priced below their own rate
 * (`foundAtCommission`): callers at the board's rates are not served it, and the store does not
 * keep it.
 */
export function foundBelowBoardRate(o: { kind: string; foundAtCommission?: number }): boolean {
  return o.kind !== 'ev' && o.foundAtCommission !== undefined;
}

export interface ArbitrageOpportunity extends OpportunityCommon, StakeCapacity, SearchRate {
  kind: 'arbitrage';
  /** Line of the market group, from the home side's (sides) or the Over's (totals) perspective. */
  line: number | null;
  profitPercent: number;
  /** Sum of 1/decimal over the legs (below 1). */
  impliedSum: number;
}

export interface MiddleOpportunity extends OpportunityCommon, StakeCapacity, SearchRate {
  kind: 'middle';
  /** Both legs win when lowerBound < X < upperBound (X: the total, or the home margin). */
  lowerBound: number;
  upperBound: number;
  windowSize: number;
  /** The whole-number outcomes that win both legs. */
  windowOutcomes: number[];
  hitProbability: number;
  /** Model expected profit, % of the total stake, pushes included. */
  evPercent: number;
  /** Profit when only one leg wins (negative: the cost of a miss), %. */
  missProfitPercent: number;
  maxProfitPercent: number;
  worstCaseProfitPercent: number;
  /** The hit model: normal outcome with this mean and standard deviation, in points. */
  model: { mean: number; sigma: number };
}

export interface LowHoldOpportunity extends OpportunityCommon, StakeCapacity, SearchRate {
  kind: 'low_hold';
  line: number | null;
  /** 1 - 1/sum(1/d) over the best prices, percent; negative is an arbitrage. */
  holdPercent: number;
  impliedSum: number;
}

export type Opportunity = EvOpportunity | ArbitrageOpportunity | MiddleOpportunity | LowHoldOpportunity;

/** What a processor step emits; the pipeline turns `expire` into a final version and a tombstone. */
export interface OpportunityChange {
  type: 'create' | 'update' | 'expire';
  opportunity: Opportunity;
}
