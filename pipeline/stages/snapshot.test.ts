import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { CanonicalEvent, OddsTick } from '../../schemas/index.js';
import { batchOf, stageHarness } from '../../test/support/stage-context.js';
import { rawTick } from '../../test/support/raw-tick.js';
import { partitionFor } from '../bus/index.js';
import { Normalizer } from '../normalize/index.js';
import { PerPartition } from '../partition-state.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { snapshotStage } from './snapshot.js';

const T0 = Date.UTC(2026, 10, 22, 12);

function fixture(): { ticks: OddsTick[]; event: CanonicalEvent } {
  const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  const results = [
    rawTick(T0),
    rawTick(T0, { outcome: 'Boston Celtics', priceAmerican: 110 }),
    rawTick(T0, { book: 'draftkings', bookEventId: 'd-1', priceAmerican: -115 }),
  ].map((r) => normalizer.handle(r, T0));
  return { ticks: results.flatMap((r) => r.tick ?? []), event: results.flatMap((r) => r.events)[0] as CanonicalEvent };
}

function stage() {
  const harness = stageHarness(T0);
  const snapshots = new PerPartition(() => new SnapshotProcessor());
  return { ...harness, snapshots, spec: snapshotStage(harness.ctx, snapshots) };
}

describe('the snapshot stage', () => {
  const { ticks, event } = fixture();
  const partition = partitionFor(event.id, TOPIC_CONFIGS[TOPICS.ticks].partitions);

  it("sends the changelog of its partition's processor, keyed by row and partitioned by event", async () => {
    const { spec, sent, snapshots } = stage();
    const batch = batchOf(TOPICS.ticks, partition, ticks, (t) => t.eventId);
    await spec.handle(batch.records, batch);
    const twin = new SnapshotProcessor();
    const changes = ticks.flatMap((t) => twin.handle(t, T0) ?? []);
    expect(changes).toHaveLength(3);
    expect(sent).toEqual([{ topic: TOPICS.snapshot, records: changes.map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })) }]);
    expect(snapshots.of(partition).size).toBe(3);
  });

  it('removes every row of a closed event, and ignores an event that is still open', async () => {
    const { spec, sent } = stage();
    const ticksBatch = batchOf(TOPICS.ticks, partition, ticks, (t) => t.eventId);
    await spec.handle(ticksBatch.records, ticksBatch);
    sent.length = 0;
    const open = batchOf(TOPICS.events, partition, [{ ...event, status: 'upcoming' as const }], (e) => e.id);
    await spec.handle(open.records as never, open as never);
    expect(sent).toEqual([]);
    const final = batchOf(TOPICS.events, partition, [{ ...event, status: 'final' as const }], (e) => e.id);
    await spec.handle(final.records as never, final as never);
    const twin = new SnapshotProcessor();
    for (const t of ticks) twin.handle(t, T0);
    const removals = twin.closeEvent(event.id, T0);
    expect(removals).toHaveLength(3);
    expect(sent).toEqual([{ topic: TOPICS.snapshot, records: removals.map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })) }]);
  });

  it('rebuilds an assigned partition from its own changelog, and drops it when revoked', async () => {
    const { spec, bus, snapshots } = stage();
    const twin = new SnapshotProcessor();
    await bus.producer().send(
      TOPICS.snapshot,
      ticks.flatMap((t) => twin.handle(t, T0) ?? []).map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })),
    );
    await spec.state?.restore?.([partition], () => 0);
    expect(snapshots.of(partition).size).toBe(3);
    spec.state?.revoke?.([partition]);
    expect(snapshots.all()).toEqual([]);
    await bus.close();
  });
});
