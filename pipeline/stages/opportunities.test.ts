import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../schemas/index.js';
import { batchOf, partitionsOf, simulatedTopics, stageHarness } from '../../test/support/stage-context.js';
import { OpportunityProcessor, opportunityRecords } from '../opportunities/index.js';
import { PerPartition } from '../partition-state.js';
import { opportunitiesStage } from './opportunities.js';

const T0 = Date.UTC(2026, 10, 22, 12);

function stage() {
  const harness = stageHarness(T0);
  const opportunities = new PerPartition(() => new OpportunityProcessor());
  return { ...harness, opportunities, spec: opportunitiesStage(harness.ctx, opportunities) };
}

describe('the opportunities stage', () => {
  const { events, changes } = simulatedTopics(T0);
  const eventInputs = events.map((event) => ({ type: 'event' as const, event }));
  const oddsInputs = changes.map((change) => ({ type: 'odds' as const, change }));

  it("sends the records of its partition's processor for events and for changes", async () => {
    const { spec, sent, opportunities } = stage();
    const eventBatch = batchOf(TOPICS.events, 1, events, (e) => e.id);
    const changeBatch = batchOf(TOPICS.snapshot, 1, changes, (c) => c.key);
    await spec.handle(eventBatch.records as never, eventBatch as never);
    await spec.handle(changeBatch.records as never, changeBatch as never);

    const twin = new OpportunityProcessor();
    expect(twin.handleBatch(eventInputs, T0)).toEqual([]);
    const found = twin.handleBatch(oddsInputs, T0);
    expect(found.length).toBeGreaterThan(0);
    expect(sent).toEqual([{ topic: TOPICS.opportunities, records: opportunityRecords(found) }]);
    expect(opportunities.of(1).size).toBe(twin.size);
  });

  it('rebuilds its partitions from events and changes up to where the group resumes', async () => {
    const { spec, bus, opportunities } = stage();
    await bus.producer().send(
      TOPICS.events,
      events.map((e) => ({ key: e.id, value: e })),
    );
    await bus.producer().send(
      TOPICS.snapshot,
      changes.map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })),
    );
    const all = partitionsOf(TOPICS.events);
    await spec.state?.restore?.(all, () => 0);
    expect(opportunities.all().reduce((n, p) => n + p.size, 0)).toBe(0);
    await spec.state?.restore?.(all, () => Number.MAX_SAFE_INTEGER);
    const twin = new OpportunityProcessor();
    twin.handleBatch(eventInputs, T0);
    twin.handleBatch(oddsInputs, T0);
    expect(opportunities.all().reduce((n, p) => n + p.size, 0)).toBe(twin.size);
    spec.state?.revoke?.(all);
    expect(opportunities.all()).toEqual([]);
    await bus.close();
  });
});
