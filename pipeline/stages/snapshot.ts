import { TOPICS, isClosedStatus } from '../../schemas/index.js';
import type { CanonicalEvent, OddsTick } from '../../schemas/index.js';
import type { OutgoingRecord } from '../bus/index.js';
import type { PerPartition } from '../partition-state.js';
import type { SnapshotProcessor } from '../snapshot/index.js';
import { isFrom } from './stage.js';
import type { StageContext, StageSpec } from './stage.js';

/**
 * The snapshot: ticks in, the changelog out, and a finished, postponed or cancelled event's open
 * rows suspended. One group over both topics (co-partitioned by event id); its state is its own
 * changelog, rebuilt to the end for every partition this process is assigned.
 */
export function snapshotStage(
  ctx: StageContext,
  snapshots: PerPartition<SnapshotProcessor>,
): StageSpec<typeof TOPICS.ticks | typeof TOPICS.events> {
  const { bus, producer, clock } = ctx;
  return {
    name: 'snapshot',
    groupId: 'snapshot',
    input: [TOPICS.ticks, TOPICS.events],
    output: [TOPICS.snapshot],
    tables: [],
    state: {
      restore: async (partitions) => {
        snapshots.reset(partitions);
        await bus.readToEnd(
          TOPICS.snapshot,
          (records) => {
            for (const r of records) if (r.value) snapshots.of(r.partition).restore(r.value);
          },
          { partitions },
        );
      },
      revoke: (partitions) => snapshots.drop(partitions),
    },
    handle: async (records, batch) => {
      const now = clock.now();
      const snapshot = snapshots.of(batch.partition);
      const changes: OutgoingRecord<typeof TOPICS.snapshot>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        if (isFrom(batch, TOPICS.events)) {
          const event = record.value as CanonicalEvent;
          if (!isClosedStatus(event.status)) continue;
          for (const change of snapshot.closeEvent(event.id, now))
            changes.push({ key: change.key, partitionKey: change.eventId, value: change });
        } else {
          const change = snapshot.handle(record.value as OddsTick, now);
          if (change) changes.push({ key: change.key, partitionKey: change.eventId, value: change });
        }
      }
      if (changes.length > 0) await producer.send(TOPICS.snapshot, changes, batch.hold);
    },
  };
}
