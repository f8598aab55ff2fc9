import { DEFAULT_LOW_HOLD_PERCENT, KEY_NUMBERS, allowedBooks, openBooks } from '../../schemas/index.js';
import type { AlertFilters, AlertKind, KeyNumberSet, LeagueKeyNumbers, LineMoveKind, TierName } from '../../schemas/index.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';
import { SPLITS_RLM } from '../../pipeline/splits/index.js';
import type { RlmThresholds } from '../../pipeline/splits/index.js';
import type { LinesOf } from '../contract/index.js';
import { oneOf, parseSplitsFilters } from './splits-filters.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import type { EventFilter } from '../views/index.js';
import { parseEvRowFilter } from './ev-row-filter.js';
import { parseCommon } from './opportunity-filter.js';
import type { ListQuery, OpportunityList } from './opportunities.js';
import { parseFilters, parseOddsFilters } from './parse-filters.js';
import type { SplitsQuery } from './splits-query.js';

/** Rule defaults where a filter is left out: the streams' thresholds (+EV 2 %, arbitrage 0.5 %). */
export const ALERT_DEFAULTS = { min_ev: 2, min_profit: 0.5 } as const;

/** The list an opportunity rule watches (line-move kinds watch none). */
export function alertList(kind: AlertKind): OpportunityList | null {
  return kind === 'ev' || kind === 'arbitrage' || kind === 'middles' || kind === 'low_hold' ? kind : null;
}

/**
 * A rule's filters as the query its list's REST endpoint would be asked, through the same parsers
 * (unknown ids and books above the tier are refused naming the field, as on the list). The
 * messages name body fields: a rule's filters arrive in a body.
 */
export function alertListQuery(
  list: OpportunityList,
  f: AlertFilters,
  catalog: Catalog,
  tier: TierName,
  now: number,
  lines: LinesOf,
  /** What the lists leave out as phantom: a rule never fires on it (rules have no include=suspicious). */
  phantom?: PhantomPolicy,
): ListQuery {
  return asBodyFields(() => {
    const common = parseCommon(
      {
        sport: f.sport,
        league: f.league,
        sportsbook: f.sportsbook,
        market: f.market,
        live: f.live,
        max_odds_age: f.max_odds_age,
        limit: 0,
        offset: 0,
      },
      catalog,
      tier,
      now,
      phantom,
    );
    switch (list) {
      case 'ev': {
        const row = parseEvRowFilter({ min_confidence: f.min_confidence }, catalog, lines);
        return { common, method: 'power', minEv: f.min_ev ?? ALERT_DEFAULTS.min_ev, ...(row ? { row } : {}) };
      }
      case 'arbitrage':
        return { common, minProfit: f.min_profit ?? ALERT_DEFAULTS.min_profit };
      case 'middles':
        return { common, ...(f.min_ev === undefined ? {} : { minEv: f.min_ev }) };
      case 'low_hold':
        return { common, maxHold: DEFAULT_LOW_HOLD_PERCENT };
    }
  });
}

/** The game markets a `key_number` rule watches, by the splits' names: spread and total. */
export type KeyNumberMarket = 'spread' | 'total';
const KEY_NUMBER_MARKETS: ReadonlySet<string> = new Set<KeyNumberMarket>(['spread', 'total']);

/** A `key_number` rule, parsed: which events, whose main lines, which markets, and its own key numbers if it gave any. */
export interface KeyNumberQuery {
  kind: 'key_number';
  event: EventFilter;
  books: ReadonlySet<string>;
  markets: ReadonlySet<KeyNumberMarket>;
  /** The rule's key numbers; absent: the sport's (`KEY_NUMBERS`). */
  spread?: readonly number[];
  totals?: readonly number[];
}

/** A `reverse_line_move` rule, parsed: the `/splits` filters and the rule's thresholds. */
export interface RlmQuery {
  kind: 'reverse_line_move';
  splits: Omit<SplitsQuery, 'delayMs'>;
  thresholds: RlmThresholds;
  /** Books whose lines and prices the rule's tier may read (the alert shows the others' as null, as `/splits`). */
  pricesOpen: ReadonlySet<string>;
}

export type LineMoveQuery = KeyNumberQuery | RlmQuery;

/** The fields each kind takes beyond the ones every rule has; a field of another kind is refused, naming it. */
const EVERY_RULE = ['sport', 'league', 'sportsbook', 'market', 'live'] as const;
// The opportunity lists' thresholds stay accepted on every list (an unused one filters nothing), as before line moves.
const LIST_FIELDS = [...EVERY_RULE, 'max_odds_age', 'min_ev', 'min_profit', 'min_confidence'] as const;
const KIND_FIELDS: Readonly<Record<AlertKind, readonly (keyof AlertFilters)[]>> = {
  ev: LIST_FIELDS,
  arbitrage: LIST_FIELDS,
  middles: LIST_FIELDS,
  low_hold: LIST_FIELDS,
  key_number: [...EVERY_RULE, 'key_numbers', 'key_totals'],
  reverse_line_move: [...EVERY_RULE, 'public_by', 'min_public_pct', 'min_line_move', 'min_probability_move'],
};

/** Refuses a filter the rule's kind does not read (400 naming the field and the kinds that take it). */
export function checkKindFields(kind: AlertKind, f: AlertFilters): void {
  const allowed = KIND_FIELDS[kind];
  for (const name of Object.keys(f) as (keyof AlertFilters)[]) {
    if (f[name] === undefined || allowed.includes(name)) continue;
    const kinds = (Object.keys(KIND_FIELDS) as AlertKind[]).filter((k) => KIND_FIELDS[k].includes(name));
    throw new ApiError(
      'invalid_request',
      `Invalid body field '${name}': a ${kind} rule does not take it (it is for ${kinds.join(', ')} rules)`,
    );
  }
}

/**
 * A line-move rule's filters parsed by the parsers of the endpoints they come from: the events
 * and books as the odds filters take them (a book above the tier is 403), the splits filters as
 * `/splits` takes them. Refusals name body fields.
 */
export function lineMoveQuery(kind: LineMoveKind, f: AlertFilters, catalog: Catalog, tier: TierName): LineMoveQuery {
  return asBodyFields(() => {
    if (kind === 'reverse_line_move') {
      const splits = parseSplitsFilters(
        { sport: f.sport, league: f.league, live: f.live, sportsbook: f.sportsbook, market: f.market },
        catalog,
      );
      return {
        kind,
        splits,
        thresholds: {
          publicBy: f.public_by ?? SPLITS_RLM.publicBy,
          minPublicShare: f.min_public_pct === undefined ? SPLITS_RLM.minPublicShare : f.min_public_pct / 100,
          minLineMove: f.min_line_move ?? SPLITS_RLM.minLineMove,
          minProbabilityMove: f.min_probability_move === undefined ? SPLITS_RLM.minProbabilityMove : f.min_probability_move / 100,
        },
        pricesOpen: openBooks(tier, [...catalog.books.values()]),
      };
    }
    const { event } = parseFilters({ sport: f.sport, league: f.league, live: f.live }, catalog);
    const books =
      f.sportsbook === undefined
        ? defaultLineBooks(catalog, tier)
        : (parseOddsFilters({ sportsbook: f.sportsbook }, catalog, tier).row.books ?? new Set(catalog.books.keys()));
    const markets = (oneOf('market', f.market, KEY_NUMBER_MARKETS) ?? KEY_NUMBER_MARKETS) as ReadonlySet<KeyNumberMarket>;
    // A sport or league named without key numbers of its own would never fire: refused, naming the field to give them in.
    const named = [...(event.sports ?? []), ...(event.leagues ?? [])];
    const has = (id: string, pick: (k: LeagueKeyNumbers) => KeyNumberSet): boolean =>
      [...catalog.leagues.values()].some((l) => {
        const keys = KEY_NUMBERS.get(l.id);
        return (l.id === id || l.sport === id) && keys !== undefined && pick(keys).primary.length > 0;
      });
    for (const id of named) {
      if (markets.has('spread') && f.key_numbers === undefined && !has(id, (k) => k.spread))
        throw new ApiError(
          'invalid_request',
          `Invalid body field 'key_numbers': ${id} has no default key numbers for spreads; give the rule its own`,
        );
      if (markets.has('total') && f.key_totals === undefined && !has(id, (k) => k.totals))
        throw new ApiError(
          'invalid_request',
          `Invalid body field 'key_totals': ${id} has no default key numbers for totals; give the rule its own`,
        );
    }
    return {
      kind,
      event,
      books,
      markets,
      ...(f.key_numbers ? { spread: f.key_numbers } : {}),
      ...(f.key_totals ? { totals: f.key_totals } : {}),
    };
  });
}

/** Whose main lines a `key_number` rule follows by default: the sharp books the tier sees, else the tier's books. */
function defaultLineBooks(catalog: Catalog, tier: TierName): ReadonlySet<string> {
  const books = [...catalog.books.values()];
  const open = openBooks(tier, books);
  const sharp = books.filter((b) => b.isSharp && open.has(b.id)).map((b) => b.id);
  return sharp.length > 0 ? new Set(sharp) : allowedBooks(tier, books);
}

/** Runs a parser written for query parameters, rewording its refusals for a body. */
function asBodyFields<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ApiError)
      throw new ApiError(err.code, err.message.replace(/\bquery parameter\b/g, 'body field'), err.headers, err.extras);
    throw err;
  }
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '[::1]']);

/**
 * Why a webhook URL is refused, or null: HTTPS anywhere; plain HTTP only to this machine (tests,
 * a local relay), since the body and its signature would otherwise cross the network in clear.
 */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (the signature authenticates the sender)';
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return `must be https (got ${url.protocol.replace(/:$/, '')})`;
  const host = url.hostname;
  if (LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host)) return null;
  return 'must be https; plain http is accepted only on loopback (127.0.0.1, [::1], localhost)';
}
