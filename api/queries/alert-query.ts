import { DEFAULT_LOW_HOLD_PERCENT } from '../../schemas/index.js';
import type { AlertFilters, AlertKind, TierName } from '../../schemas/index.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';
import type { LinesOf } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import { parseEvRowFilter } from './ev-row-filter.js';
import { parseCommon } from './opportunity-filter.js';
import type { ListQuery, OpportunityList } from './opportunities.js';

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
