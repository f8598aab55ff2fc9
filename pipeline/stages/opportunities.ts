import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent, OddsChange, Opportunity } from '../../schemas/index.js';
import { opportunityRecords } from '../opportunities/index.js';
import type { OpportunityInput, OpportunityProcessor } from '../opportunities/index.js';
import { adoptDetections } from '../partition-state.js';
import type { PerPartition } from '../partition-state.js';
import { byPartition, collect } from './changelog-reads.js';
import { isFrom } from './stage.js';
import type { StageContext, StageSpec } from './stage.js';

/**
 * Opportunities: one group over the events and the snapshot changelog, co-partitioned by event
 * id, so one process owns an event's odds and its event record. Its state is rebuilt from both
 * inputs up to where the group resumes; expiries leave as a final version and a tombstone.
 */
export function opportunitiesStage(
  ctx: StageContext,
  opportunities: PerPartition<OpportunityProcessor>,
): StageSpec<typeof TOPICS.events | typeof TOPICS.snapshot> {
  const { bus, producer, clock } = ctx;
  return {
    name: 'opportunities',
    groupId: 'opportunities',
    input: [TOPICS.events, TOPICS.snapshot],
    output: [TOPICS.opportunities],
    tables: [],
    state: {
      restore: async (partitions, committed) => {
        opportunities.reset(partitions);
        const now = clock.now();
        // The three reads run at once (each is a group join on Kafka); applied in order after.
        const [events, odds, versions] = await Promise.all([
          collect(bus, TOPICS.events, { partitions, before: (p) => committed(TOPICS.events, p) }),
          collect(bus, TOPICS.snapshot, { partitions, before: (p) => committed(TOPICS.snapshot, p) }),
          collect(bus, TOPICS.opportunities, { partitions }),
        ]);
        for (const [partition, inputs] of byPartition(events, (r) => (r.value ? { type: 'event' as const, event: r.value } : null)))
          opportunities.of(partition).handleBatch(inputs, now);
        for (const [partition, inputs] of byPartition(odds, (r) => (r.value ? { type: 'odds' as const, change: r.value } : null)))
          opportunities.of(partition).handleBatch(inputs, now);
        const listed = new Map<string, Opportunity>();
        for (const r of versions) {
          if (r.value) listed.set(r.key, r.value);
          else listed.delete(r.key);
        }
        for (const p of partitions) adoptDetections(opportunities.of(p).active(), listed);
      },
      revoke: (partitions) => opportunities.drop(partitions),
    },
    handle: async (records, batch) => {
      const inputs: OpportunityInput[] = isFrom(batch, TOPICS.events)
        ? records.flatMap((r) => (r.value ? [{ type: 'event' as const, event: r.value as CanonicalEvent }] : []))
        : records.flatMap((r) => (r.value ? [{ type: 'odds' as const, change: r.value as OddsChange }] : []));
      const changes = opportunities.of(batch.partition).handleBatch(inputs, clock.now());
      if (changes.length > 0) await producer.send(TOPICS.opportunities, opportunityRecords(changes));
    },
  };
}
