import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent, OddsChange, Opportunity } from '../../schemas/index.js';
import { NO_BATCH } from '../bus/index.js';
import { opportunityRecords } from '../opportunities/index.js';
import type { OpportunityInput, OpportunityProcessor } from '../opportunities/index.js';
import { adoptDetections } from '../partition-state.js';
import type { PerPartition } from '../partition-state.js';
import { byPartition, collect, inWriteOrder } from './changelog-reads.js';
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
  /** The lowest exchange commission rate in use (null: none but the exchanges' own), read at each batch. */
  searchRate: () => number | null = () => null,
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
        for (const p of partitions) opportunities.of(p).setSearchCommission(searchRate(), now);
        // The three reads run at once (each is a group join on Kafka); applied in order after.
        const [events, odds, versions] = await Promise.all([
          collect(bus, TOPICS.events, { partitions, before: (p) => committed(TOPICS.events, p) }),
          collect(bus, TOPICS.snapshot, { partitions, before: (p) => committed(TOPICS.snapshot, p) }),
          collect(bus, TOPICS.opportunities, { partitions }),
        ]);
        // Both changelogs in the order they were written, as the live stage met them: an event
        // change (going live, a moved start) rebuilds its families on the stale thresholds of the
        // odds written before it. Replaying all the events first put each event's last version in
        // place before any odds, so its families were never rebuilt where the live run rebuilt
        // them, and a line that did not change after kept an older clock (docs/opportunities.md,
        // "Thresholds are a function of the partition's input").
        const eventInputs = byPartition(events, (r) =>
          r.value ? { timestamp: r.timestamp, input: { type: 'event' as const, event: r.value } } : null,
        );
        const oddsInputs = byPartition(odds, (r) =>
          r.value ? { timestamp: r.timestamp, input: { type: 'odds' as const, change: r.value } } : null,
        );
        for (const p of partitions) {
          const inputs: OpportunityInput[] = inWriteOrder<{ timestamp: number; input: OpportunityInput }>(
            eventInputs.get(p) ?? [],
            oddsInputs.get(p) ?? [],
          ).map((t) => t.input);
          if (inputs.length > 0) opportunities.of(p).handleBatch(inputs, now);
        }
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
      const processor = opportunities.of(batch.partition);
      const now = clock.now();
      // A new lowest rate re-prices the partition's state before its next inputs (nothing when unchanged).
      const repriced = processor.setSearchCommission(searchRate(), now);
      const changes = processor.handleBatch(inputs, now);
      if (repriced.length > 0) changes.unshift(...repriced);
      if (changes.length > 0) await producer.send(TOPICS.opportunities, opportunityRecords(changes), batch.hold);
    },
  };
}

/**
 * Every owned partition's state re-priced at a new search rate at once (`setSearchCommission`),
 * its changes published: what the lowest account rate changing does between batches. A batch
 * handled after it finds the rate already applied.
 */
export async function repriceOpportunities(
  ctx: StageContext,
  opportunities: PerPartition<OpportunityProcessor>,
  rate: number | null,
): Promise<void> {
  const now = ctx.clock.now();
  const changes = opportunities.all().flatMap((p) => p.setSearchCommission(rate, now));
  // Between batches, of the state of every partition: no batch's.
  if (changes.length > 0) await ctx.producer.send(TOPICS.opportunities, opportunityRecords(changes), NO_BATCH);
}
