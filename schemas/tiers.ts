import { SPORTSBOOKS, TIER_NAMES } from './reference/index.js';
import type { SportsbookDef, TierName } from './reference/index.js';

export const FEATURES = ['ev', 'arbitrage', 'middles', 'gamestate', 'deeplinks'] as const;
export type Feature = (typeof FEATURES)[number];

export interface TierLimits {
  /** Requests per minute. */
  requestsPerMinute: number;
  dataDelaySeconds: number;
  /** Sportsbooks a key may see; null = all. */
  maxSportsbooks: number | null;
  features: readonly Feature[];
  batchEvents: number;
  /** Keys an account of this tier may hold at once (keys in a rotation's grace not counted). */
  maxKeys: number;
  /** Concurrent streams (SSE, WebSocket) per account; 0 = no streaming. */
  maxStreams: number;
  /** How far back CLV history reaches (COMPAT §8), on the event start; null = unlimited. */
  clvWindowDays: number | null;
  /** How far back historical closing lines reach (COMPAT §8: a 30-day window). */
  closingHistoryDays: number;
  /** Bets an account may hold in its ledger at once (deleted ones not counted); 0 = no ledger. */
  maxBets: number;
  /** Alert rules (webhooks) an account of this tier may hold at once; 0 = none. */
  maxAlertRules: number;
}

/** The tier table of the contract, in one place: routes, headers and docs read it from here. */
export const TIERS: Record<TierName, TierLimits> = {
  free: {
    requestsPerMinute: 12,
    dataDelaySeconds: 60,
    maxSportsbooks: 2,
    features: [],
    batchEvents: 5,
    maxKeys: 1,
    maxStreams: 1,
    clvWindowDays: 7,
    closingHistoryDays: 30,
    maxBets: 0,
    maxAlertRules: 0,
  },
  hobby: {
    requestsPerMinute: 120,
    dataDelaySeconds: 0,
    maxSportsbooks: 5,
    features: ['arbitrage', 'deeplinks'],
    batchEvents: 20,
    maxKeys: 1,
    maxStreams: 2,
    clvWindowDays: 30,
    closingHistoryDays: 30,
    maxBets: 0,
    maxAlertRules: 3,
  },
  pro: {
    requestsPerMinute: 300,
    dataDelaySeconds: 0,
    maxSportsbooks: 15,
    features: ['ev', 'arbitrage', 'middles', 'deeplinks'],
    batchEvents: 50,
    maxKeys: 1,
    maxStreams: 5,
    clvWindowDays: 90,
    closingHistoryDays: 30,
    maxBets: 10_000,
    maxAlertRules: 10,
  },
  sharp: {
    requestsPerMinute: 1000,
    dataDelaySeconds: 0,
    maxSportsbooks: null,
    features: ['ev', 'arbitrage', 'middles', 'deeplinks'],
    batchEvents: 100,
    maxKeys: 2,
    maxStreams: 10,
    clvWindowDays: 365,
    closingHistoryDays: 30,
    maxBets: 50_000,
    maxAlertRules: 50,
  },
  // Enterprise is "custom" in the contract: generous defaults an operator can raise per key.
  enterprise: {
    requestsPerMinute: 10_000,
    dataDelaySeconds: 0,
    maxSportsbooks: null,
    features: ['ev', 'arbitrage', 'middles', 'gamestate', 'deeplinks'],
    batchEvents: 100,
    maxKeys: 25,
    maxStreams: 50,
    clvWindowDays: null,
    closingHistoryDays: 30,
    maxBets: 250_000,
    maxAlertRules: 500,
  },
};

/** The tiers from the cheapest up: every comparison of two tiers reads this one order. */
export const TIER_ORDER: readonly TierName[] = TIER_NAMES;
const TIER_RANK: ReadonlyMap<TierName, number> = new Map(TIER_ORDER.map((t, i) => [t, i]));
const rank = (tier: TierName): number => TIER_RANK.get(tier) ?? 0;

/** Whether `tier` is `min` or above it. */
export function tierAtLeast(tier: TierName, min: TierName): boolean {
  return rank(tier) >= rank(min);
}

/**
 * Data sets open from a tier up, beside the feature lists (they are not features of the `features`
 * array the account answers): the lowest tier of each, by the name every interface asks for.
 */
export const TIER_MINIMUMS = {
  /** `/odds/closing`, MCP `get_closing_lines` (COMPAT §8, Pro+). */
  closingLines: 'pro',
  /** `/historical/odds/closing` (COMPAT §8, Sharp+). */
  closingHistory: 'sharp',
  /** `/historical/clv`, MCP `get_clv`: Sharp+ (COMPAT §8 says Enterprise, its pricing Sharp+). */
  clvHistory: 'sharp',
  /** The MCP futures tools (COMPAT §6, Pro); REST futures follow the OpenAPI document: any key. */
  futuresTools: 'pro',
  /** `/fair`, `/events/{id}/fair` and their MCP tools: the fair-line recipe, from the tier that sees +EV. */
  fairLine: 'pro',
  /** `/bets`, MCP `log_bet` / `get_bets` / `get_bet_summary`: the ledger grades against closing lines, so from their tier. */
  betLedger: 'pro',
} as const satisfies Record<string, TierName>;
export type TierRule = keyof typeof TIER_MINIMUMS;

/** Lowest tier that has a feature, for the 403 message. */
export function lowestTierWith(feature: Feature): TierName {
  return TIER_ORDER.find((t) => TIERS[t].features.includes(feature)) ?? 'enterprise';
}

/** The next tier up that serves more sportsbooks per request than `tier`. */
export function tierWithMoreBooks(tier: TierName): TierName {
  const max = TIERS[tier].maxSportsbooks;
  return (
    TIER_ORDER.find(
      (t) => rank(t) > rank(tier) && (TIERS[t].maxSportsbooks === null || (max !== null && (TIERS[t].maxSportsbooks ?? 0) > max)),
    ) ?? 'enterprise'
  );
}

/** The tier a sportsbook needs: its own `requiresTier`; a book the catalog does not have is enterprise's. */
export function tierNeededFor(book: Pick<SportsbookDef, 'requiresTier'> | undefined): TierName {
  return book?.requiresTier ?? 'enterprise';
}

/** The lowest tier whose accounts may hold alert rules (`maxAlertRules` above 0). */
export function lowestTierWithAlertRules(): TierName {
  return TIER_ORDER.find((t) => TIERS[t].maxAlertRules > 0) ?? 'enterprise';
}

/** Books a tier may ask for by name: those whose `requiresTier` is at or below it. */
export function openBooks(tier: TierName, books: readonly SportsbookDef[]): Set<string> {
  return new Set(books.filter((b) => tierAtLeast(tier, b.requiresTier)).map((b) => b.id));
}

export type BookSelection =
  | { ok: true; books: Set<string> }
  | { ok: false; reason: 'tier'; book: string; needs: TierName }
  | { ok: false; reason: 'count'; asked: number; max: number; needs: TierName };

/**
 * The sportsbooks one request serves. Without `requested`, the tier's default set
 * (`allowedBooks`); with it, exactly those books. `added` (the `add_sportsbook` parameter) joins
 * either. Every book must be open to the tier and the union must fit the tier's maximum; what
 * does not is reported, never silently dropped. Ids must already be known catalog ids.
 */
export function selectBooks(
  tier: TierName,
  books: readonly SportsbookDef[],
  requested?: ReadonlySet<string>,
  added?: ReadonlySet<string>,
): BookSelection {
  const selected = new Set(requested ?? allowedBooks(tier, books));
  for (const b of added ?? []) selected.add(b);
  const open = openBooks(tier, books);
  const byId = new Map(books.map((b) => [b.id, b]));
  for (const id of selected) {
    if (!open.has(id)) return { ok: false, reason: 'tier', book: id, needs: tierNeededFor(byId.get(id)) };
  }
  const max = TIERS[tier].maxSportsbooks;
  if (max !== null && selected.size > max) return { ok: false, reason: 'count', asked: selected.size, max, needs: tierWithMoreBooks(tier) };
  return { ok: true, books: selected };
}

/**
 * The sportsbooks a tier may see: books open to the tier (by `requiresTier`), cheapest tier's
 * books first and catalog order within a tier, cut at the tier's maximum. Free gets the fixed
 * pair of `free` books; hobby adds the first hobby books; pro reaches the sharp books.
 */
export function allowedBooks(tier: TierName, books: readonly SportsbookDef[]): Set<string> {
  const limit = TIERS[tier].maxSportsbooks;
  const open = books
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => tierAtLeast(tier, b.requiresTier))
    .sort((x, y) => rank(x.b.requiresTier) - rank(y.b.requiresTier) || x.i - y.i)
    .map(({ b }) => b.id);
  return new Set(limit === null ? open : open.slice(0, limit));
}

/** The largest batch any tier allows: the body schema's bound; the tier's own is checked per key. */
export const MAX_BATCH_EVENTS = Math.max(...Object.values(TIERS).map((t) => t.batchEvents));

/** "free 5, hobby 20, pro 50, sharp 100, enterprise 100", for messages and docs. */
export function tiersByBatchSize(): string {
  return TIER_ORDER.map((t) => `${t} ${TIERS[t].batchEvents}`).join(', ');
}

/**
 * The book sets of the tiers that may see arbitrage, low-hold or middles, for the opportunity
 * processor's `bookScopes`: it then keeps the best market within each, so every tier finds the
 * best it can see. Here, beside the tier table, because the pipeline process needs it too.
 */
export function tierBookScopes(books: readonly SportsbookDef[] = SPORTSBOOKS): string[][] {
  const scopes = new Map<string, string[]>();
  for (const [tier, limits] of Object.entries(TIERS) as [TierName, TierLimits][]) {
    if (limits.features.length === 0 || limits.maxSportsbooks === null) continue;
    const set = [...allowedBooks(tier, books)].sort();
    scopes.set(set.join(','), set);
  }
  return [...scopes.values()];
}

/**
 * The features an account of `tier` is served, by the names the reference's `features` array
 * uses, in one fixed order. Read off the table above and `TIER_MINIMUMS`, so the account answer
 * cannot claim what the access checks refuse, or deny what they allow.
 */
export function accountFeatures(tier: TierName): string[] {
  const has = (f: Feature): boolean => TIERS[tier].features.includes(f);
  const served: [string, boolean][] = [
    ['odds', true],
    ['schedule', true],
    ['splits', true],
    ['ev', has('ev')],
    ['arbitrage', has('arbitrage')],
    ['middles', has('middles')],
    // Low-hold is served under the arbitrage gate.
    ['low_hold', has('arbitrage')],
    ['deep_links', has('deeplinks')],
    ['game_state', has('gamestate')],
    ['streaming', TIERS[tier].maxStreams > 0],
    // Futures over REST are open to every key (the MCP futures tools have their own minimum).
    ['futures', true],
    ['closing_line', tierAtLeast(tier, TIER_MINIMUMS.closingLines)],
    ['history', tierAtLeast(tier, TIER_MINIMUMS.clvHistory)],
  ];
  return served.filter(([, on]) => on).map(([name]) => name);
}
