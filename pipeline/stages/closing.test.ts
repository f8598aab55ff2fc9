import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent } from '../../schemas/index.js';
import { batchOf, partitionsOf, simulatedTopics, stageHarness } from '../../test/support/stage-context.js';
import { ClosingProcessor, closingRow } from '../closing/index.js';
import type { ClosingInput } from '../closing/index.js';
import { PerPartition } from '../partition-state.js';
import { closingStage } from './closing.js';

const T0 = Date.UTC(2026, 10, 22, 12);

describe('the closing stage', () => {
  const { events, changes } = simulatedTopics(T0);
  const event = events[0] as CanonicalEvent;
  const prices = changes.filter((c) => c.eventId === event.id);

  it('writes the closes it captures when an event goes live, versioned in order, and produces nothing', async () => {
    const { ctx, sent, inserts, store } = stageHarness(T0);
    const spec = closingStage(ctx, { closings: new PerPartition(() => new ClosingProcessor()), store, retainAfterStartMs: 0 });
    const odds = batchOf(TOPICS.snapshot, 2, prices, (c) => c.key);
    const live = batchOf(TOPICS.events, 2, [{ ...event, status: 'live' as const }], (e) => e.id);
    await spec.handle(odds.records, odds);
    expect(inserts).toEqual([]);
    await spec.handle(live.records, live);

    const twin = new ClosingProcessor();
    const inputs: ClosingInput[] = prices.map((change) => ({ type: 'odds', change }));
    twin.handleBatch(inputs, T0);
    const out = twin.handleBatch([{ type: 'event', event: { ...event, status: 'live' } }], T0);
    expect(out.closing.length).toBeGreaterThan(0);
    expect(sent).toEqual([]);
    expect(inserts.map((i) => i.table)).toEqual(['closing_odds']);
    const rows = inserts[0]?.rows ?? [];
    expect(rows.map((r) => ({ ...r, version: 0 }))).toEqual(out.closing.map((c) => closingRow(c, 0)));
    const versions = rows.map((r) => r['version'] as number);
    expect(versions).toEqual(versions.map((_, i) => (versions[0] ?? 0) + i));
  });

  it('restores from the store, then from its inputs up to where the group resumes', async () => {
    const queries: string[] = [];
    const { ctx, bus, store } = stageHarness(T0, (sql) => {
      queries.push(sql);
      return [];
    });
    const closings = new PerPartition(() => new ClosingProcessor());
    const spec = closingStage(ctx, { closings, store, retainAfterStartMs: 0 });
    await bus.producer().send(
      TOPICS.snapshot,
      prices.map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })),
    );
    await bus.producer().send(TOPICS.events, [{ key: event.id, value: { ...event, status: 'live' } }]);
    await spec.state?.restore?.(partitionsOf(TOPICS.events), () => Number.MAX_SAFE_INTEGER);
    expect(queries.map((q) => /FROM (\w+)/.exec(q)?.[1])).toEqual(['closing_odds', 'clv_entries']);
    expect(closings.all().reduce((n, p) => n + p.counters.captured, 0)).toBe(1);
    await bus.close();
  });
});
