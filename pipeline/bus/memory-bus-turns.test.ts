/**
 * What went wrong: in ROLE=all the in-process bus chained every stage into the next on one call
 * stack (a consumer's handler ran as soon as the producer's promise settled), so one simulator
 * step went through the normalizer, the snapshot, the opportunity engines, closing lines and the
 * views before the event loop could run anything else. The stream hub's flush and the socket
 * writes waited behind all of it: tick-to-client p99 529 ms for 2,000 subscribers. Consumers now
 * take turns: one round per event-loop turn, highest priority first, and what a round queued runs
 * before the next round.
 */
import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { MemoryBus } from './memory-bus.js';

function tick(eventId: string, price: number): OddsTick {
  return {
    eventId, book: 'pinnacle', market: 'moneyline', selection: 'home', line: null, participant: null,
    statCategory: null, priceAmerican: price, status: 'open', ts: 1, isLive: false, bookEventId: 'b1', selectionId: null,
  };
}

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('MemoryBus turns', () => {
  it('delivers in a later turn of the event loop, not on the producer\'s call stack', async () => {
    const bus = new MemoryBus();
    const seen: number[] = [];
    const consumer = bus.consumer({ groupId: 'g', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async (batch) => {
      seen.push(...batch.records.map((r) => r.value?.priceAmerican ?? 0));
    });
    await bus.producer().send('odds.ticks', [{ key: 'e', value: tick('e', 100) }]);
    await Promise.resolve();
    expect(seen).toEqual([]);
    await until(() => seen.length === 1);
    await consumer.stop();
    await bus.close();
  });

  it('runs the consumer of higher priority first when both have records ready', async () => {
    const bus = new MemoryBus();
    bus.prioritize((g) => (g === 'high' ? 1 : 0));
    const order: string[] = [];
    const low = bus.consumer({ groupId: 'low', topic: 'odds.ticks', fromBeginning: true });
    const high = bus.consumer({ groupId: 'high', topic: 'odds.ticks', fromBeginning: true });
    low.run(async () => {
      order.push('low');
    });
    high.run(async () => {
      order.push('high');
    });
    await bus.producer().send('odds.ticks', [{ key: 'e', value: tick('e', 100) }]);
    await until(() => order.length === 2);
    expect(order).toEqual(['high', 'low']);
    await Promise.all([low.stop(), high.stop()]);
    await bus.close();
  });

  it('runs what a round queued with setImmediate before the next round', async () => {
    const bus = new MemoryBus();
    bus.prioritize((g) => (g === 'view' ? 1 : 0));
    const order: string[] = [];
    const view = bus.consumer({ groupId: 'view', topic: 'odds.ticks', fromBeginning: true });
    const engine = bus.consumer({ groupId: 'engine', topic: 'odds.ticks', fromBeginning: true });
    view.run(async () => {
      order.push('view');
      setImmediate(() => order.push('flush'));
    });
    engine.run(async () => {
      order.push('engine');
    });
    await bus.producer().send('odds.ticks', [{ key: 'e', value: tick('e', 100) }]);
    await until(() => order.length === 3);
    expect(order).toEqual(['view', 'flush', 'engine']);
    await Promise.all([view.stop(), engine.stop()]);
    await bus.close();
  });

  it('lets other consumers run while a handler waits for I/O', async () => {
    const bus = new MemoryBus();
    bus.prioritize((g) => (g === 'sink' ? 1 : 0));
    let finishInsert: () => void = () => {};
    const inserting = new Promise<void>((r) => {
      finishInsert = r;
    });
    const seen: string[] = [];
    const sink = bus.consumer({ groupId: 'sink', topic: 'odds.ticks', fromBeginning: true });
    const other = bus.consumer({ groupId: 'other', topic: 'odds.ticks', fromBeginning: true });
    sink.run(async () => {
      seen.push('sink started');
      await inserting;
      seen.push('sink done');
    });
    other.run(async () => {
      seen.push('other');
    });
    await bus.producer().send('odds.ticks', [{ key: 'e', value: tick('e', 100) }]);
    await until(() => seen.includes('other'));
    expect(seen).toEqual(['sink started', 'other']);
    finishInsert();
    await until(() => seen.includes('sink done'));
    await Promise.all([sink.stop(), other.stop()]);
    await bus.close();
  });
});
