import { describe, expect, it } from 'vitest';
import { TOPIC_CONFIGS } from '../../schemas/index.js';
import type { CanonicalEvent, OddsTick } from '../../schemas/index.js';
import { MemoryBus } from './memory-bus.js';
import { partitionFor } from './partitioner.js';
import type { BusRecord } from './bus.js';

function tick(eventId: string, price: number): OddsTick {
  return {
    eventId,
    book: 'pinnacle',
    market: 'moneyline',
    selection: 'home',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: 'open',
    ts: 1,
    isLive: false,
    bookEventId: 'b1',
    selectionId: null,
  };
}

function event(id: string, updatedAt: number): CanonicalEvent {
  return {
    id,
    sport: 'basketball',
    league: 'nba',
    homeTeamId: 'a',
    awayTeamId: 'b',
    startTime: 0,
    status: 'upcoming',
    isLive: false,
    externalIds: {},
    updatedAt,
  };
}

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('MemoryBus', () => {
  it('keeps records of one key in one partition, in order, with consecutive offsets', async () => {
    const bus = new MemoryBus();
    const seen: BusRecord<'odds.ticks'>[] = [];
    const consumer = bus.consumer({ groupId: 'g', topic: 'odds.ticks', fromBeginning: true });
    consumer.run(async (batch) => {
      seen.push(...batch.records);
    });
    await bus.producer().send(
      'odds.ticks',
      [100, 110, 120].map((p) => ({ key: 'ev1', value: tick('ev1', p) })),
    );
    await until(() => seen.length === 3);
    expect(new Set(seen.map((r) => r.partition)).size).toBe(1);
    expect(seen.map((r) => r.offset)).toEqual([0, 1, 2]);
    expect(seen.map((r) => r.value?.priceAmerican)).toEqual([100, 110, 120]);
    await consumer.stop();
    await bus.close();
  });

  it('resumes a consumer group from its committed offset', async () => {
    const bus = new MemoryBus();
    const producer = bus.producer();
    const first: number[] = [];
    const c1 = bus.consumer({ groupId: 'g', topic: 'odds.ticks', fromBeginning: true });
    c1.run(async (b) => {
      first.push(...b.records.map((r) => r.value?.priceAmerican ?? 0));
    });
    await producer.send('odds.ticks', [{ key: 'e', value: tick('e', 101) }]);
    await until(() => first.length === 1);
    await c1.stop();
    await producer.send('odds.ticks', [{ key: 'e', value: tick('e', 102) }]);
    const second: number[] = [];
    const c2 = bus.consumer({ groupId: 'g', topic: 'odds.ticks', fromBeginning: true });
    c2.run(async (b) => {
      second.push(...b.records.map((r) => r.value?.priceAmerican ?? 0));
    });
    await until(() => second.length === 1);
    expect(second).toEqual([102]);
    await c2.stop();
    await bus.close();
  });

  it('gives a late joiner of a compacted topic the latest value per key, without tombstoned keys', async () => {
    const bus = new MemoryBus();
    const producer = bus.producer();
    await producer.send('events', [
      { key: 'e1', value: event('e1', 1) },
      { key: 'e2', value: event('e2', 1) },
      { key: 'e1', value: event('e1', 2) },
      { key: 'e2', value: null },
    ]);
    const seen: BusRecord<'events'>[] = [];
    const c = bus.consumer({ groupId: 'late', topic: 'events', fromBeginning: true });
    c.run(async (b) => {
      seen.push(...b.records);
    });
    await until(() => seen.length >= 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.map((r) => [r.key, r.value?.updatedAt ?? null])).toEqual([['e1', 2]]);
    await c.stop();
    await bus.close();
  });

  it('reads a topic between two positions, from an offset of each partition up to another', async () => {
    const bus = new MemoryBus();
    // Distinct keys on one partition: a log without readers keeps the latest per key, here every record.
    await bus.producer().send(
      'events',
      [1, 2, 3, 4, 5].map((t) => ({ key: `e${t}`, partitionKey: 'one', value: event(`e${t}`, t) })),
    );
    const read: number[] = [];
    await bus.readToEnd('events', (records) => read.push(...records.map((r) => r.value?.updatedAt ?? -1)), {
      partitions: [partitionFor('one', TOPIC_CONFIGS.events.partitions)],
      from: () => 1,
      before: () => 4,
    });
    expect(read).toEqual([2, 3, 4]);
    await bus.close();
  });

  it('makes a producer wait while a slow consumer is beyond the high-water mark', async () => {
    const bus = new MemoryBus({ highWaterMark: 10 });
    const producer = bus.producer();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const c = bus.consumer({ groupId: 'slow', topic: 'odds.ticks', fromBeginning: true, maxBatchSize: 5 });
    c.run(async () => {
      await gate;
    });
    await producer.send(
      'odds.ticks',
      Array.from({ length: 20 }, (_, i) => ({ key: 'e', value: tick('e', 100 + i) })),
    );
    let sent = false;
    const pending = producer.send('odds.ticks', [{ key: 'e', value: tick('e', 999) }]).then(() => {
      sent = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(sent).toBe(false);
    release();
    await pending;
    expect(sent).toBe(true);
    await c.stop();
    await bus.close();
  });

  it('holds a small batch until maxWaitMs passed, then delivers it whole', async () => {
    const bus = new MemoryBus();
    const batches: number[] = [];
    const c = bus.consumer({ groupId: 'sink', topic: 'odds.ticks', fromBeginning: true, minBatchSize: 1000, maxWaitMs: 80 });
    c.run(async (b) => {
      batches.push(b.records.length);
    });
    const producer = bus.producer();
    for (let i = 0; i < 5; i++) await producer.send('odds.ticks', [{ key: 'e', value: tick('e', 100 + i) }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toEqual([]);
    await until(() => batches.length > 0, 1000);
    expect(batches).toEqual([5]);
    expect(c.lag()).toBe(0);
    await c.stop();
    await bus.close();
  });
});

/*
 * Turns. What went wrong: in ROLE=all the in-process bus chained every stage into the next on one call
 * stack (a consumer's handler ran as soon as the producer's promise settled), so one simulator
 * step went through the normalizer, the snapshot, the opportunity engines, closing lines and the
 * views before the event loop could run anything else. The stream hub's flush and the socket
 * writes waited behind all of it: tick-to-client p99 529 ms for 2,000 subscribers. Consumers now
 * take turns: one round per event-loop turn, highest priority first, and what a round queued runs
 * before the next round.
 */
describe('MemoryBus turns', () => {
  it("delivers in a later turn of the event loop, not on the producer's call stack", async () => {
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

describe('a copy of the log made with replicate', () => {
  const change = (id: string): never => ({ kind: 'account', id }) as never;

  it('holds every appended record at the offset the home log gave it, and its readers see the same records', async () => {
    const home = new MemoryBus();
    const copy = new MemoryBus();
    home.watchAppends((topic, partition, records) => copy.replicate(topic, partition, records));
    // A reader on each holds the log back from compaction, so every record is still there to compare.
    for (const bus of [home, copy]) bus.consumer({ groupId: 'reader', topic: 'accounts', fromBeginning: true });
    await home.producer().send('accounts', [
      { key: 'account:a', value: change('a') },
      { key: 'account:b', value: change('b') },
    ]);
    await home.producer().send('accounts', [{ key: 'account:a', value: null }]);
    const read = async (bus: MemoryBus): Promise<[number, number, string, unknown][]> => {
      const out: [number, number, string, unknown][] = [];
      await bus.readToEnd('accounts', (records) =>
        out.push(...records.map((r): [number, number, string, unknown] => [r.partition, r.offset, r.key, r.value])),
      );
      return out;
    };
    expect(await read(copy)).toEqual([
      [0, 0, 'account:a', { kind: 'account', id: 'a' }],
      [0, 1, 'account:b', { kind: 'account', id: 'b' }],
      [0, 2, 'account:a', null],
    ]);
    expect(await read(copy)).toEqual(await read(home));
  });

  it("holds the home log's producers while the copy's slow reader is more than copyHighWaterMark records behind", async () => {
    const home = new MemoryBus();
    const copy = new MemoryBus();
    // As the pipeline worker does: each append crosses to the copy, and the copy's backlog is told back.
    let mostBehind = 0;
    const report = (): void => {
      mostBehind = Math.max(mostBehind, copy.backlog());
      home.copyBehind(copy.backlog());
    };
    home.watchAppends(
      (topic, partition, records) => {
        copy.replicate(topic, partition, records);
        report();
      },
      new Set(),
      10,
    );
    // The fake slow reader: a view on the copy that applies a batch of 3 only when let go.
    const gates: (() => void)[] = [];
    const reader = copy.consumer({ groupId: 'view', topic: 'accounts', fromBeginning: true, commit: false, maxBatchSize: 3 });
    reader.run(() => new Promise<void>((resolve) => gates.push(resolve)));
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    let sent = 0;
    const feed = (async () => {
      for (let i = 0; i < 30; i++) {
        await home.producer().send('accounts', [{ key: `account:${i}`, value: change(String(i)) }]);
        sent++;
      }
    })();
    await settle();
    expect([sent, copy.backlog(), gates.length]).toEqual([11, 11, 1]);
    gates.shift()?.();
    await settle();
    report();
    await settle();
    // The reader took 3: the feed went on until the copy was 11 behind again.
    expect([sent, copy.backlog(), gates.length]).toEqual([14, 11, 1]);
    for (let round = 0; round < 20 && sent < 30; round++) {
      gates.shift()?.();
      await settle();
      report();
      await settle();
    }
    await feed;
    expect([sent, mostBehind]).toEqual([30, 11]);
    const stopped = reader.stop();
    gates.shift()?.();
    await stopped;
  });

  it('refuses a record that would leave a gap: the copy would no longer be the same log', async () => {
    const copy = new MemoryBus();
    copy.replicate('accounts', 0, [{ offset: 0, key: 'account:a', value: change('a'), timestamp: 1 }]);
    expect(() => copy.replicate('accounts', 0, [{ offset: 5, key: 'account:b', value: change('b'), timestamp: 2 }])).toThrow(
      'accounts/0: record at offset 5 replicated onto a log ending at 1',
    );
  });
});
