import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TOPICS, TOPIC_CONFIGS } from '../schemas/index.js';
import type { OddsChange } from '../schemas/index.js';
import { partitionFor } from '../pipeline/bus/index.js';
import type { BusRecord } from '../pipeline/bus/index.js';
import { BUS_LOG_FILE, openMemoryBus } from './saved-bus-log.js';

const logger = pino({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bus-log-'));
  dirs.push(d);
  return d;
}

const change = (key: string, price: number | null): OddsChange => ({
  key,
  eventId: 'e1',
  changedAt: 1,
  row: price === null ? null : ({ priceAmerican: price } as never),
});

/** The partition every record of event e1 goes to. */
const partition = partitionFor('e1', TOPIC_CONFIGS[TOPICS.snapshot].partitions);

describe('the in-process bus log saved in DATA_DIR', () => {
  it('continues the last run: same log name, offsets go on, every key at its latest change, committed groups resume', async () => {
    const dir = dataDir();
    let now = 1_000_000;
    const first = openMemoryBus(dir, 60, () => now, logger);
    const consumer = first.consumer({ groupId: 'sink', topic: TOPICS.snapshot, fromBeginning: true });
    const seen: number[] = [];
    consumer.run(async (b) => {
      for (const r of b.records) seen.push(r.offset);
    });
    // Keys chosen for partition 0 of odds.snapshot by their partition key.
    await first.producer().send(TOPICS.snapshot, [
      { key: 'a', partitionKey: 'e1', value: change('a', 100) },
      { key: 'b', partitionKey: 'e1', value: change('b', 110) },
      { key: 'a', partitionKey: 'e1', value: change('a', 120) },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await consumer.stop();
    await first.close();
    expect(existsSync(join(dir, BUS_LOG_FILE))).toBe(true);

    now += 1000;
    const second = openMemoryBus(dir, 60, () => now, logger);
    expect(second.name).toBe(first.name);
    expect(second.restored).toBe(true);
    // Read once: a run that ends without saving must not let a third one continue this log.
    expect(existsSync(join(dir, BUS_LOG_FILE))).toBe(false);
    await second.producer().send(TOPICS.snapshot, [{ key: 'b', partitionKey: 'e1', value: change('b', null) }]);
    const records: BusRecord<typeof TOPICS.snapshot>[] = [];
    await second.readToEnd(TOPICS.snapshot, (rs) => records.push(...rs), { partitions: [partition] });
    expect(records.map((r) => [r.key, r.offset])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
    const resumed = second.consumer({ groupId: 'sink', topic: TOPICS.snapshot, fromBeginning: true });
    const after: number[] = [];
    resumed.run(async (b) => {
      for (const r of b.records) after.push(r.offset);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await resumed.stop();
    expect({ before: seen, after }).toEqual({ before: [0, 1, 2], after: [3] });
    await second.close();
  });

  it('lets go of removals past the retention while it runs, so a long run keeps only the rows that are', async () => {
    let now = 1_000_000;
    const bus = openMemoryBus(dataDir(), 1, () => now, logger);
    const send = (key: string, price: number | null): Promise<void> =>
      bus.producer().send(TOPICS.snapshot, [{ key, partitionKey: 'e1', value: change(key, price) }]);
    await send('gone', null);
    await send('back', null);
    await send('back', 120);
    await send('kept', 100);
    now += 30_000;
    await send('recent', null);
    now += 31_000;
    await send('late', 110);
    const keys: string[] = [];
    await bus.readToEnd(TOPICS.snapshot, (rs) => keys.push(...rs.map((r) => r.key)));
    // 'gone' was removed 61 s ago: forgotten, and a read from before it is no longer complete.
    // 'back' came back after its removal, 'recent' was removed 31 s ago: both kept.
    expect(keys).toEqual(['back', 'kept', 'recent', 'late']);
    expect(bus.completeFrom(TOPICS.snapshot)[partition]).toBe(1);
    await bus.close();
  });

  it('leaves out removals older than the retention and moves the floor past them; 0 keeps no log', async () => {
    const dir = dataDir();
    let now = 1_000_000;
    const first = openMemoryBus(dir, 1, () => now, logger);
    await first.producer().send(TOPICS.snapshot, [
      { key: 'gone', partitionKey: 'e1', value: change('gone', null), timestamp: Date.now() - 120_000 },
      { key: 'kept', partitionKey: 'e1', value: change('kept', 100), timestamp: Date.now() - 120_000 },
    ]);
    await first.close();
    now += 1000;
    const second = openMemoryBus(dir, 1, () => now, logger);
    const records: string[] = [];
    await second.readToEnd(TOPICS.snapshot, (rs) => records.push(...rs.map((r) => r.key)));
    expect(records).toEqual(['kept']);
    expect(second.completeFrom(TOPICS.snapshot)[partition]).toBe(1);
    await second.close();

    const off = dataDir();
    await openMemoryBus(off, 0, () => now, logger).close();
    expect(existsSync(join(off, BUS_LOG_FILE))).toBe(false);
  });
});
