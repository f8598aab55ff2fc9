import type { FuturesQuote } from '../../schemas/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { StoreRow } from '../store/index.js';
import type { FutureEvVersion, FutureLatestChange } from './processor.js';

/** One outcome of one book's board, as both futures price tables hold it. */
function priceRow(q: FuturesQuote, p: FuturesQuote['selections'][number]): StoreRow {
  return {
    future_id: q.futureId,
    future_name: q.name,
    sport: q.sport,
    league: q.league,
    future_type: q.futureType,
    sportsbook: q.book,
    selection: p.selection,
    selection_id: p.selectionId,
    line: p.line,
    odds_american: p.priceAmerican,
    odds_decimal: p.priceDecimal,
    implied_probability: p.probability,
    settles_at: clickHouseTime(q.settlesAt),
    odds_time: clickHouseTime(q.ts),
  };
}

/** History (`futures_odds_ticks`): every outcome of every board a book published. */
export function futuresTickRows(q: FuturesQuote): StoreRow[] {
  return q.selections.map((p) => priceRow(q, p));
}

/** Latest (`futures_odds_latest`): one row per book and outcome, replaced by newer boards; `removed` once delisted. */
export function futuresLatestRow(c: FutureLatestChange): StoreRow {
  return { ...priceRow(c.quote, c.price), removed: c.removed ? 1 : 0, version: c.quote.ts };
}

/** +EV history (`futures_ev`): one row per opportunity occurrence, replaced by later versions; `expired_at` at its end. */
export function futuresEvRow(v: FutureEvVersion): StoreRow {
  const o = v.opportunity;
  return {
    opportunity_id: o.id,
    future_id: o.futureId,
    future_name: v.market.name,
    sport: v.market.sport,
    league: v.market.league,
    future_type: v.market.futureType,
    sportsbook: o.book,
    selection: o.selection,
    selection_id: o.selectionId,
    line: o.line,
    odds_american: o.priceAmerican,
    odds_decimal: o.priceDecimal,
    ev_percent: o.evPercent,
    fair_power: o.methods.power.fairProbability,
    fair_multiplicative: o.methods.multiplicative.fairProbability,
    fair_additive: o.methods.additive.fairProbability,
    fair_shin: o.methods.shin.fairProbability,
    fair_odds_ratio: o.methods.odds_ratio.fairProbability,
    fair_logit: o.methods.logit.fairProbability,
    ev_worst_case: o.methods.worst_case.evPercent,
    sharp_books: o.sharpBooks,
    reference_hold_percent: o.referenceHoldPercent,
    detected_at: clickHouseTime(o.detectedAt),
    last_seen_at: clickHouseTime(o.lastSeenAt),
    expired_at: v.expiredAt === null ? null : clickHouseTime(v.expiredAt),
    // An expiry outranks a sighting at the same millisecond.
    version: (v.expiredAt ?? o.lastSeenAt) * 2 + (v.expiredAt === null ? 0 : 1),
  };
}
