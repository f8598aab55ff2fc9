import type { OpportunityChange, TOPICS } from '../../schemas/index.js';
import type { OutgoingRecord } from '../bus/index.js';

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
