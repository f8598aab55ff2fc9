import { TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { CanonicalEvent, GameState, OddsChange, Opportunity, TopicName } from '../../schemas/index.js';
import { partitionFor } from '../bus/index.js';
import type { BusRecord, ReadScope } from '../bus/index.js';
import { closingRow, entryRow, gradeRow, storedClosingLines, storedEntries } from '../closing/index.js';
import type { ClosingInput, ClosingProcessor } from '../closing/index.js';
import type { PerPartition } from '../partition-state.js';
import type { OlapStore } from '../store/index.js';
import { byPartition, collect } from './changelog-reads.js';
import { isFrom } from './stage.js';
import type { StageContext, StageSpec } from './stage.js';

export interface ClosingStageParts {
  closings: PerPartition<ClosingProcessor>;
  /** Where its captured closes and graded entries are restored from. */
  store: OlapStore;
  /** How long after its start an event's closes are kept (the opportunity options'). */
  retainAfterStartMs: number;
}

type ClosingTopic = typeof TOPICS.snapshot | typeof TOPICS.events | typeof TOPICS.opportunities | typeof TOPICS.gameState;

/**
 * Closing lines and CLV: one group over odds, events, opportunities and game states (all
 * co-partitioned by event id), writing its tables itself. Restored from the captured closes in
 * the store (so a captured event is never captured again from the live prices that replaced its
 * closing ones), then from its inputs up to where the group resumes.
 */
export function closingStage(ctx: StageContext, parts: ClosingStageParts): StageSpec<ClosingTopic> {
  const { bus, clock, sinks } = ctx;
  const { closings, store, retainAfterStartMs } = parts;
  // Versions of replaced closing and grade rows: grow across restarts (wall time) and within one.
  let version = Date.now() * 1000;
  return {
    name: 'closing',
    groupId: 'closing',
    input: [TOPICS.snapshot, TOPICS.events, TOPICS.opportunities, TOPICS.gameState],
    output: [],
    tables: ['clv_entries', 'closing_odds', 'clv_grades'],
    state: {
      restore: async (partitions, committed) => {
        closings.reset(partitions);
        const now = clock.now();
        const owned = new Set(partitions);
        const eventPartitions = TOPIC_CONFIGS[TOPICS.events].partitions;
        // Read through the sinks of the same tables: a store that does not answer (a rebalance
        // during an outage) is waited for as their batches are, and a stop releases the wait.
        const closes = await sinks.closing_odds.read(() => storedClosingLines(store, now - retainAfterStartMs));
        const entries = await sinks.clv_entries.read(() => storedEntries(store, now - retainAfterStartMs));
        for (const c of closes) {
          const partition = partitionFor(c.eventId, eventPartitions);
          if (owned.has(partition)) closings.of(partition).restore([c], now);
        }
        // The +EV opportunities it grades, as detected: an occurrence that expired before kickoff
        // is gone from the compacted changelog, and would otherwise never be graded or settled.
        for (const opportunity of entries) {
          const partition = partitionFor(opportunity.eventId, eventPartitions);
          if (owned.has(partition)) closings.of(partition).handleBatch([{ type: 'opportunity', opportunity }], now);
        }
        const upTo = (topic: TopicName): ReadScope => ({ partitions, before: (p) => committed(topic, p) });
        const [odds, events, versions, states] = await Promise.all([
          collect(bus, TOPICS.snapshot, upTo(TOPICS.snapshot)),
          collect(bus, TOPICS.events, upTo(TOPICS.events)),
          collect(bus, TOPICS.opportunities, upTo(TOPICS.opportunities)),
          collect(bus, TOPICS.gameState, upTo(TOPICS.gameState)),
        ]);
        const replay = <T extends TopicName>(
          records: readonly BusRecord<T>[],
          input: (value: NonNullable<BusRecord<T>['value']>) => ClosingInput,
        ): void => {
          for (const [partition, inputs] of byPartition(records, (r) => (r.value ? input(r.value) : null)))
            closings.of(partition).handleBatch(inputs, now);
        };
        // Prices before events: a live event replayed first would capture an empty close.
        replay(odds, (change) => ({ type: 'odds', change }));
        replay(events, (event) => ({ type: 'event', event }));
        replay(versions, (opportunity) => ({ type: 'opportunity', opportunity }));
        replay(states, (state) => ({ type: 'gamestate', state }));
      },
      revoke: (partitions) => closings.drop(partitions),
    },
    handle: async (records, batch) => {
      const inputs = records.flatMap((r): ClosingInput[] => {
        if (r.value === null) return [];
        if (isFrom(batch, TOPICS.events)) return [{ type: 'event', event: r.value as CanonicalEvent }];
        if (isFrom(batch, TOPICS.snapshot)) return [{ type: 'odds', change: r.value as OddsChange }];
        if (isFrom(batch, TOPICS.opportunities)) return [{ type: 'opportunity', opportunity: r.value as Opportunity }];
        return [{ type: 'gamestate', state: r.value as GameState }];
      });
      if (inputs.length === 0) return;
      const out = closings.of(batch.partition).handleBatch(inputs, clock.now());
      // Entries first: a grade never exists in the store without what it grades.
      await sinks.clv_entries.write(out.entries.map(entryRow), batch.hold);
      await sinks.closing_odds.write(
        out.closing.map((c) => closingRow(c, ++version)),
        batch.hold,
      );
      await sinks.clv_grades.write(
        out.grades.map((g) => gradeRow(g, ++version)),
        batch.hold,
      );
    },
  };
}
