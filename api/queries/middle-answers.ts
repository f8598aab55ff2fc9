import type { TierName } from '../../schemas/index.js';
import { keyNumbersOf, presentMiddle } from '../contract/index.js';
import { countBy, countByEach, matchesCommon, parseCommon } from './opportunity-filter.js';
import { ApiError } from '../errors.js';
import { requireFeatureOf } from './access.js';
import { OPPORTUNITY_SOURCE, mean4 } from './opportunity-answers.js';
import type { OpportunitySource } from './opportunity-answers.js';
import { middleMatches } from './opportunities.js';
import type { MiddleEntry } from './opportunities.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

export type MiddlesSummaryQuery = QueryOf<'/api/v1/opportunities/middles/summary'>;

/** Counts and averages over the middles the tier may see: the best visible combination per situation. */
export function middlesSummary(
  s: OpportunitySource,
  tier: TierName,
  q: MiddlesSummaryQuery,
): ReplyOf<'/api/v1/opportunities/middles/summary'> {
  requireFeatureOf(tier, 'middles');
  const { catalog, clock } = s.deps;
  const now = clock.now();
  const common = parseCommon({ sport: q.sport, league: q.league, limit: 1, offset: 0 }, catalog, tier, now, s.opportunities.phantom);
  const all = middleMatches(s.opportunities.list('middle'), { common }, catalog, now);
  const best = all.reduce<MiddleEntry | null>((b, e) => (b === null || e.o.evPercent > b.o.evPercent ? e : b), null);
  return {
    success: true,
    data: {
      total: all.length,
      positive_ev_count: all.filter((e) => e.o.evPercent > 0).length,
      guaranteed_profit_count: all.filter((e) => e.o.worstCaseProfitPercent >= 0).length,
      player_prop_count: all.filter((e) => e.o.market === 'player_prop').length,
      has_key_numbers_count: all.filter((e) => keyNumbersOf(e.o).length > 0).length,
      by_sport: countBy(all, (e) => e.o.event.sport),
      by_market: countBy(all, (e) => e.o.market),
      by_sportsbook: countByEach(all, (e) => e.o.legs.map((l) => l.book)),
      avg_middle_size: mean4(all.map((e) => e.o.windowSize)),
      avg_probability: mean4(all.map((e) => e.o.hitProbability)),
      avg_ev: mean4(all.map((e) => e.o.evPercent)),
      best_ev: best === null ? null : { ev: best.o.evPercent, sport: best.o.event.sport, market: best.o.market },
    },
    meta: { source: OPPORTUNITY_SOURCE, filters: { sport: q.sport ?? null, league: q.league ?? null } },
  };
}

/** One middle by id, if the tier may see it (every leg at a book of its tier); 404 otherwise. */
export function middleById(
  s: OpportunitySource,
  tier: TierName,
  id: string,
  bankroll: number,
): ReplyOf<'/api/v1/opportunities/middles/{id}'> {
  requireFeatureOf(tier, 'middles');
  const { catalog, clock } = s.deps;
  const now = clock.now();
  // By id, a phantom middle is still served (its warnings say what is wrong with it).
  const common = parseCommon({ limit: 1, offset: 0 }, catalog, tier, now);
  const entry = s.opportunities.list('middle').find((e) => e.o.id === id);
  if (!entry || !matchesCommon(entry, common, catalog, now))
    throw new ApiError('not_found', `Unknown middle '${id}' (or it is gone, or uses a book your tier does not see)`);
  return {
    success: true,
    data: presentMiddle(catalog, entry.o, bankroll, now, s.opportunities.phantom),
    meta: { source: OPPORTUNITY_SOURCE },
  };
}
