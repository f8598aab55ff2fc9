import { DEFAULT_LOW_HOLD_PERCENT, SPLITS_BOOKS, SPLIT_MARKETS, openBooks } from '../../schemas/index.js';
import type { TierName } from '../../schemas/index.js';
import { parseFilters, parseOddsFilters, parseSplitsFilters } from '../queries/index.js';
import type { SharedFilterQuery } from '../queries/index.js';
import { LIST_FEATURE, featureRefusal, hasFeature, parseCommon, requireAlertRulesOf } from '../queries/index.js';
import type { OpportunityList } from '../queries/index.js';
import type { StreamSpec } from './hub.js';
import { ODDS_CHANNEL } from './odds-source.js';
import { LIST_NAMES, OPPORTUNITIES_CHANNEL } from './opportunity-source.js';
import type { ListQuery, OpportunitySpec } from './opportunity-source.js';
import { GAMESTATE_CHANNEL } from './gamestate-source.js';
import type { GameStateSpec } from './gamestate-source.js';
import { SPLITS_CHANNEL } from './splits-source.js';
import { ALERTS_CHANNEL } from './alert-source.js';
import type { AlertSpec } from './alert-source.js';
import type { SplitsSpec } from './splits-source.js';
import type { Catalog } from '../views/index.js';
import type { LinesOf } from '../contract/index.js';
import { parseEvRowFilter } from '../queries/index.js';
import type { EvRowFilterQuery } from '../queries/index.js';
import { requestedState } from '../deeplinks/index.js';
import { EV_ROW_FIELDS } from './ev-row-fields.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';

export { GAMESTATE_CHANNEL };
/** Stream defaults (COMPAT §5): +EV of at least 2 %, arbitrage of at least 0.5 %. */
export const STREAM_MIN_EV = 2;
export const STREAM_MIN_PROFIT = 0.5;

export { LIST_FEATURE };

/** A subscription in request terms: what to stream and the filters, comma lists as given. */
export interface StreamRequest extends Pick<SharedFilterQuery, 'sport' | 'league' | 'sportsbook' | 'market' | 'event' | 'live'> {
  odds: boolean;
  lists: OpportunityList[];
  gamestate: boolean;
  /**
   * Splits: `named` when the subscriber asked for the channel by name (its filters are then
   * validated as on `/splits`); `all` carries it too, taking the odds filters where they mean
   * something for splits (books and markets that splits have).
   */
  splits: false | 'named' | 'all';
  minOdds?: number;
  maxOdds?: number;
  minEv: number;
  minProfit: number;
  /** The +EV list's row filters, as `/opportunities/ev` takes them (Kelly, confidence, player, ...). */
  evRow?: EvRowFilterQuery;
  /** US state for the deep links of the rows, as REST's `state`. */
  state?: string;
  /** `suspicious`: the phantom opportunities too, as REST's `include=suspicious`. */
  include?: 'suspicious';
  /** The account whose alerts the `alerts` channel carries; absent: no alerts channel. */
  alerts?: string;
  /** The subscriber's own exchange commission rate, percent, as REST's `commission`. */
  commission?: number;
}

/** The opportunity lists a tier may stream. */
export function allowedLists(tier: TierName): OpportunityList[] {
  return LIST_NAMES.filter((l) => hasFeature(tier, LIST_FEATURE[l]));
}

/** Throws 403 feature_required when the tier lacks a channel it asked for by name. */
export function checkAccess(req: StreamRequest, tier: TierName): void {
  for (const l of req.lists) if (!hasFeature(tier, LIST_FEATURE[l])) throw featureRefusal(`The ${l} stream`, LIST_FEATURE[l], tier);
  if (req.gamestate && !hasFeature(tier, 'gamestate')) throw featureRefusal('The gamestate stream', 'gamestate', tier);
  if (req.alerts !== undefined) requireAlertRulesOf(tier, 'The alerts stream');
}

function normalizeCsv(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const items = [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  ].sort();
  return items.length === 0 ? undefined : items.join(',');
}

/**
 * The parsed subscription, through the same filter parsers as REST (400 naming the parameter for
 * an unknown id, 403 for a sportsbook above the tier). `feed` is the board the tier reads.
 */
export function buildSpec(
  req: StreamRequest,
  catalog: Catalog,
  tier: TierName,
  feed: string,
  now: number,
  lines: LinesOf,
  phantom?: PhantomPolicy,
): StreamSpec {
  checkAccess(req, tier);
  const linkState = requestedState(req.state);
  // Checked whether or not the +EV list is streamed: a bad value is refused, never silently unused.
  const evRow = req.evRow ? parseEvRowFilter(req.evRow, catalog, lines) : undefined;
  const f = {
    sport: normalizeCsv(req.sport),
    league: normalizeCsv(req.league),
    sportsbook: normalizeCsv(req.sportsbook),
    market: normalizeCsv(req.market),
    event: normalizeCsv(req.event),
    live: req.live,
    min_odds: req.minOdds,
    max_odds: req.maxOdds,
  };
  const channels = new Map<string, unknown>();
  if (req.odds) channels.set(ODDS_CHANNEL, parseOddsFilters(f, catalog, tier));
  if (req.lists.length > 0) {
    const common = parseCommon({ ...f, include: req.include, limit: 0, offset: 0 }, catalog, tier, now, phantom);
    const lists = new Map<OpportunityList, ListQuery>();
    for (const l of LIST_NAMES) {
      if (!req.lists.includes(l)) continue;
      if (l === 'ev') lists.set(l, { common, method: 'power', minEv: req.minEv, ...(evRow ? { row: evRow } : {}) });
      else if (l === 'arbitrage') lists.set(l, { common, minProfit: req.minProfit });
      else if (l === 'middles') lists.set(l, { common });
      else lists.set(l, { common, maxHold: DEFAULT_LOW_HOLD_PERCENT });
    }
    const spec: OpportunitySpec = { lists };
    channels.set(OPPORTUNITIES_CHANNEL, spec);
  }
  if (req.gamestate) {
    const { event } = parseFilters({ sport: f.sport, league: f.league, event: f.event }, catalog);
    const spec: GameStateSpec = {
      event: {
        ...(event.sports ? { sports: event.sports } : {}),
        ...(event.leagues ? { leagues: event.leagues } : {}),
        ...(event.eventIds ? { eventIds: event.eventIds } : {}),
      },
      sport: event.sports?.size === 1 ? ([...event.sports][0] ?? null) : null,
    };
    channels.set(GAMESTATE_CHANNEL, spec);
  }
  if (req.splits) channels.set(SPLITS_CHANNEL, splitsSpec(req.splits, f, catalog, tier));
  if (req.alerts !== undefined) channels.set(ALERTS_CHANNEL, { accountId: req.alerts } satisfies AlertSpec);
  const signature = JSON.stringify([
    feed,
    tier,
    req.odds,
    LIST_NAMES.filter((l) => req.lists.includes(l)),
    req.gamestate,
    req.splits,
    f,
    req.lists.length > 0 ? [req.minEv, req.minProfit] : null,
    req.evRow ? EV_ROW_FIELDS.map((name) => req.evRow?.[name] ?? null) : null,
    linkState ?? null,
    req.include ?? null,
    // One account's alerts are its own: its subscriptions share no group with another account's.
    req.alerts ?? null,
    // The rate prices odds rows and opportunities; other channels carry no price it changes.
    req.odds || req.lists.length > 0 ? (req.commission ?? null) : null,
  ]);
  return {
    feed,
    tier,
    channels,
    signature,
    ...(linkState === undefined ? {} : { linkState }),
    ...(req.commission === undefined ? {} : { commission: req.commission }),
  };
}

/** Keeps, of a comma list, the items in `allowed`; undefined stays undefined (no filter), nothing left is an empty list (matches nothing). */
function within(v: string | undefined, allowed: readonly string[]): string[] | undefined {
  return v === undefined ? undefined : v.split(',').filter((x) => allowed.includes(x));
}

function splitsSpec(
  how: 'named' | 'all',
  f: {
    sport?: string | undefined;
    league?: string | undefined;
    sportsbook?: string | undefined;
    market?: string | undefined;
    event?: string | undefined;
    live?: boolean | undefined;
  },
  catalog: Catalog,
  tier: TierName,
): SplitsSpec {
  const pricesOpen = openBooks(tier, [...catalog.books.values()]);
  if (how === 'named') return { query: parseSplitsFilters(f, catalog), pricesOpen };
  const query = parseSplitsFilters({ sport: f.sport, league: f.league, event: f.event, live: f.live }, catalog);
  const books = within(f.sportsbook, SPLITS_BOOKS);
  const markets = within(f.market, SPLIT_MARKETS);
  return {
    query: {
      ...query,
      ...(books ? { books: new Set(books) } : {}),
      ...(markets ? { markets: new Set(markets) as NonNullable<SplitsSpec['query']['markets']> } : {}),
    },
    pricesOpen,
  };
}

/** Echo of the filters in `connected` / `subscribed`: arrays, or null when not filtered. */
export function filterEcho(req: StreamRequest): Record<string, string[] | null> {
  const list = (v: string | undefined): string[] | null => normalizeCsv(v)?.split(',') ?? null;
  return {
    sportsbook: list(req.sportsbook),
    sport: list(req.sport),
    league: list(req.league),
    event: list(req.event),
    market: list(req.market),
  };
}

/** The refusal of a stream when the account may hold none (SSE 429, WebSocket 4029); past a positive limit the oldest makes way instead. */
export function tooManyStreams(tier: TierName): string {
  return `This account may not hold a stream (its ${tier} tier's limit of concurrent streams is 0)`;
}
