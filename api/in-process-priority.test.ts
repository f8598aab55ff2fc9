/**
 * What went wrong: in one process (ROLE=all) the in-process bus ranked the stages a tick crosses
 * only one level above the rest (views 3, snapshot 2, normalizer 1, others 0), and a waiting stage
 * gains a level per 250 ms. Whenever the event loop was busy for a quarter of a second, a sink or
 * an engine batch that had waited that long tied or outranked the normalizer and went ahead of
 * the ticks that had just arrived; in the stream bench a burst of ticks then reached the boards
 * 200-500 ms late. The tick path is now five levels apart from the rest.
 */
import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { OddsTick } from '../schemas/index.js';
import { rawTick } from '../test/support/raw-tick.js';
import { inProcessPriority } from './system.js';

const tick: OddsTick = {
  eventId: 'e1', book: 'pinnacle', market: 'moneyline', selection: 'home', line: null, participant: null,
  statCategory: null, priceAmerican: -110, status: 'open', ts: 1, isLive: false, bookEventId: 'b1', selectionId: null,
};

async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // holds the event loop, as a long round of another stage does
  }
}

describe('in-process stage priority', () => {
  it('runs newly arrived ticks through the normalizer before a sink that has waited over half a second', async () => {
    const bus = new MemoryBus();
    bus.prioritize(inProcessPriority('r1'));
    const producer = bus.producer();
    const order: string[] = [];
    const view = bus.consumer({ groupId: 'api-r1-odds', topic: 'odds.ticks', fromBeginning: true });
    const sink = bus.consumer({ groupId: 'sink-odds-ticks', topic: 'odds.ticks', fromBeginning: true });
    const normalizer = bus.consumer({ groupId: 'normalizer', topic: 'odds.ticks.raw', fromBeginning: true });
    view.run(async () => {
      order.push('view');
      // The sink waits for its turn all along; a tick for the normalizer arrives at the end.
      busyFor(600);
      await producer.send('odds.ticks.raw', [{ key: 'nba', value: rawTick(Date.now() + 3600_000) }]);
    });
    sink.run(async () => {
      order.push('sink');
    });
    normalizer.run(async () => {
      order.push('normalizer');
    });
    await producer.send('odds.ticks', [{ key: 'e1', value: tick }]);
    await until(() => order.length === 3);
    expect(order).toEqual(['view', 'normalizer', 'sink']);
    await Promise.all([view.stop(), sink.stop(), normalizer.stop()]);
    await bus.close();
  });
});
