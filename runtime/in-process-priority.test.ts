/**
 * What went wrong: in one process (ROLE=all) the in-process bus ranked the stages a tick crosses
 * only one level above the rest (views 3, snapshot 2, normalizer 1, others 0), and a waiting stage
 * gains a level per 250 ms. Whenever the event loop was busy for a quarter of a second, a sink or
 * an engine batch that had waited that long tied or outranked the normalizer and went ahead of
 * the ticks that had just arrived; in the stream bench a burst of ticks then reached the boards
 * 200-500 ms late. The tick path is now five levels apart from the rest.
 */
import { describe, expect, it, vi } from 'vitest';
import { MemoryBus } from '../pipeline/bus/index.js';
import { rawTick } from '../test/support/raw-tick.js';
import { inProcessPriority } from './system.js';

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // holds the event loop, as a long round of another stage does
  }
}

describe('in-process stage priority', () => {
  it('hands account changes (a revoked key) to every replica following the accounts topic before any stage', () => {
    const priority = inProcessPriority('r1');
    expect(priority('api-accounts-r2')).toBeGreaterThan(priority('api-r1-odds'));
    expect(priority('api-accounts-r1')).toBeGreaterThan(priority('normalizer'));
    // The alert deliverer's lease reads the same topic but only to hold a partition: it waits.
    expect(priority('api-alert-delivery')).toBe(0);
  });

  it('runs newly arrived ticks through the normalizer before a sink that has waited over half a second', async () => {
    const bus = new MemoryBus();
    bus.prioritize(inProcessPriority('r1'));
    const order: string[] = [];
    // Only the group ids matter (they set the priorities); all three read the same record.
    const view = bus.consumer({ groupId: 'api-r1-odds', topic: 'odds.ticks.raw', fromBeginning: true });
    const sink = bus.consumer({ groupId: 'sink-odds-ticks', topic: 'odds.ticks.raw', fromBeginning: true });
    const normalizer = bus.consumer({ groupId: 'normalizer', topic: 'odds.ticks.raw', fromBeginning: true });
    view.run(async () => {
      order.push('view');
      // The sink waits for its turn all along; the normalizer asks for one only at the end, as
      // for ticks that just arrived.
      busyFor(600);
      normalizer.run(async () => {
        order.push('normalizer');
      });
    });
    sink.run(async () => {
      order.push('sink');
    });
    await bus.producer().send('odds.ticks.raw', [{ key: 'nba', value: rawTick(Date.now() + 3600_000) }]);
    await vi.waitFor(() => expect(order).toHaveLength(3), { timeout: 5000 });
    expect(order).toEqual(['view', 'normalizer', 'sink']);
    await Promise.all([view.stop(), sink.stop(), normalizer.stop()]);
    await bus.close();
  });
});
