import { describe, expect, it } from 'vitest';
import { tick } from '../opportunities/fixtures/builders.js';
import { MemoryBus } from './memory-bus.js';

// A consumer kept reporting the partitions it last held after it failed or stopped. The alert
// delivery lease decides "this replica delivers" from its consumer's assignment, so during the
// restart delay a replica whose lease consumer had died still claimed to deliver, beside the one
// the group had handed the partitions to. A stopped or failed member owns nothing.

describe("a consumer's assignment once it is gone", () => {
  it('is empty after the consumer stopped', async () => {
    const bus = new MemoryBus();
    const consumer = bus.consumer({ groupId: 'lease', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async () => {});
    expect(consumer.assignment().length).toBeGreaterThan(0);
    await consumer.stop();
    expect(consumer.assignment()).toEqual([]);
    await bus.close();
  });

  it('is empty as soon as its handler failed', async () => {
    const bus = new MemoryBus();
    const consumer = bus.consumer({ groupId: 'lease', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async () => {
      throw new Error('handler broke');
    });
    await bus.producer().send('odds.ticks', [{ key: 'e', value: tick('pinnacle', 'moneyline', 'home', null, 101) }]);
    await expect(consumer.done).rejects.toThrow('handler broke');
    expect(consumer.assignment()).toEqual([]);
    await bus.close();
  });
});
