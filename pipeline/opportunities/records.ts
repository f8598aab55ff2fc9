import type { Opportunity, OpportunityChange, TOPICS } from '../../schemas/index.js';
import type { OutgoingRecord } from '../bus/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { StoreRow } from '../store/index.js';

/**
 * Topic records of a processor step: creates and updates as the new version; an expiry as its
 * final version (expiredAt set, which the table sink records) followed by a tombstone.
 */
export function opportunityRecords(changes: readonly OpportunityChange[]): OutgoingRecord<typeof TOPICS.opportunities>[] {
  const out: OutgoingRecord<typeof TOPICS.opportunities>[] = [];
  for (const c of changes) {
    const o = c.opportunity;
    out.push({ key: o.id, partitionKey: o.eventId, value: o });
    if (c.type === 'expire') out.push({ key: o.id, partitionKey: o.eventId, value: null });
  }
  return out;
}

/** One version of an opportunity as a row of `opportunities`; `version` must grow per id. */
export function opportunityRow(o: Opportunity, version: number): StoreRow {
  return {
    id: o.id,
    kind: o.kind,
    event_id: o.eventId,
    sport: o.event.sport,
    league: o.event.league,
    market: o.market,
    participant: o.participant,
    stat_category: o.statCategory,
    sportsbooks: o.legs.map((l) => l.book),
    selections: o.legs.map((l) => l.selection),
    lines: o.legs.map((l) => l.line),
    odds_american: o.legs.map((l) => l.priceAmerican),
    is_live: o.event.isLive,
    start_time: clickHouseTime(o.event.startTime),
    detected_at: clickHouseTime(o.detectedAt),
    last_seen_at: clickHouseTime(o.lastSeenAt),
    expired_at: o.expiredAt === null ? null : clickHouseTime(o.expiredAt),
    expire_reason: o.expireReason,
    value: o.value,
    peak_value: o.peakValue,
    oldest_odds_time: clickHouseTime(o.oldestOddsTs),
    possibly_stale: o.possiblyStale,
    record: JSON.stringify(o),
    version,
  };
}
