import { TOPICS } from '../../schemas/index.js';
import { futuresEvRow, futuresLatestRow } from '../futures/index.js';
import type { FuturesProcessor } from '../futures/index.js';
import type { StageContext, StageSpec } from './stage.js';

/**
 * Futures: each market's fair line and +EV from every book's latest board. Its state is not
 * partitioned yet: every instance loads the whole futures changelog before the stages start (a
 * second instance keeps markets it does not own; their +EV is recomputed, not served twice).
 */
export function futuresStage(ctx: StageContext, futures: FuturesProcessor): StageSpec<typeof TOPICS.futures> {
  const { bus, producer, clock, sinks } = ctx;
  return {
    name: 'futures',
    groupId: 'futures',
    input: TOPICS.futures,
    output: [TOPICS.futuresMarkets],
    tables: ['futures_odds_latest', 'futures_ev'],
    state: {
      load: () =>
        bus.readToEnd(TOPICS.futures, (records) => {
          for (const r of records) if (r.value) futures.restore(r.value);
        }),
    },
    handle: async (records, { hold }) => {
      const step = futures.handle(
        records.flatMap((r) => (r.value ? [r.value] : [])),
        clock.now(),
      );
      if (step.markets.length > 0)
        await producer.send(
          TOPICS.futuresMarkets,
          step.markets.map((m) => ({ key: m.futureId, value: m })),
          hold,
        );
      await sinks.futures_odds_latest.write(step.latest.map(futuresLatestRow), hold);
      await sinks.futures_ev.write(step.ev.map(futuresEvRow), hold);
    },
  };
}
