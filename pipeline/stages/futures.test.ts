import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../schemas/index.js';
import { batchOf, simulatedTopics, stageHarness } from '../../test/support/stage-context.js';
import { FuturesProcessor, futuresEvRow, futuresLatestRow } from '../futures/index.js';
import { futuresStage } from './futures.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const references = { referenceBooks: ['pinnacle', 'circa'], fallbackReferenceBooks: [] };

describe('the futures stage', () => {
  const { futures: quotes } = simulatedTopics(T0);

  it('sends each market by future id, then writes the latest boards and the +EV versions', async () => {
    const { ctx, sent, inserts } = stageHarness(T0);
    const batch = batchOf(TOPICS.futures, 0, quotes, (q) => q.key);
    await futuresStage(ctx, new FuturesProcessor(references)).handle(batch.records, batch);
    const step = new FuturesProcessor(references).handle(quotes, T0);
    expect(step.markets.length).toBeGreaterThan(0);
    expect(sent).toEqual([{ topic: TOPICS.futuresMarkets, records: step.markets.map((m) => ({ key: m.futureId, value: m })) }]);
    expect(inserts).toEqual(
      [
        { table: 'futures_odds_latest', rows: step.latest.map(futuresLatestRow) },
        { table: 'futures_ev', rows: step.ev.map(futuresEvRow) },
      ].filter((i) => i.rows.length > 0),
    );
  });

  it('loads the whole futures changelog before it starts', async () => {
    const { ctx, bus } = stageHarness(T0);
    await bus.producer().send(
      TOPICS.futures,
      quotes.map((q) => ({ key: q.key, partitionKey: q.futureId, value: q })),
    );
    const processor = new FuturesProcessor(references);
    await futuresStage(ctx, processor).state?.load?.();
    const twin = new FuturesProcessor(references);
    for (const q of quotes) twin.restore(q);
    expect(processor.marketCount).toBe(twin.marketCount);
    expect(processor.marketCount).toBeGreaterThan(0);
    await bus.close();
  });
});
