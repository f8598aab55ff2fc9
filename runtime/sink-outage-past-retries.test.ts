// A store outage longer than the sinks' retries (issue 36 §3; docs/chaos.md): the chaos run's
// window (20 s) never outlasted SINK_RETRIES (8: about 51 s of backoff), so what happens then was
// only read, never run. The insert fails for good and the stage stops with its batch uncommitted.
// The failure policy then reads the store's `ECONNREFUSED` as a lost connection to the brokers
// (lostTheBrokers matches the text) and starts the stage again in process, three times in a row,
// before it takes the process down; the next process's sink, in the same group, resumes from the
// last commit once the store answers. Nothing is skipped: every record produced is stored exactly
// once, the ones that waited through the outage included.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import { startStage } from '../pipeline/runner.js';
import type { Stage } from '../pipeline/runner.js';
import { TableSink } from '../pipeline/sinks/index.js';
import { StoreError } from '../pipeline/store/index.js';
import type { OlapStore, StoreRow } from '../pipeline/store/index.js';
import { TOPICS } from '../schemas/index.js';
import { stageFailureHandler } from './failure-policy.js';
import { RuntimeHealth } from './health.js';

const logger = pino({ level: 'silent' });
const TOPIC = TOPICS.splits;
const GROUP = 'sink-under-test';

/** A store that keeps the rows it took, and refuses every insert as an unreachable server while `down`. */
function outageStore(): { store: OlapStore; rows: StoreRow[]; down: { value: boolean } } {
  const rows: StoreRow[] = [];
  const down = { value: false };
  const store: OlapStore = {
    kind: 'clickhouse',
    exec: async () => undefined,
    insert: async (_table, batch) => {
      if (down.value) throw new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true);
      rows.push(...batch);
    },
    query: async () => [],
    close: async () => undefined,
  };
  return { store, rows, down };
}

async function send(bus: Bus, from: number, n: number): Promise<void> {
  await bus.producer().send(
    TOPIC,
    Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: {} as never })),
  );
}

async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One process's sink stage: SINK_RETRIES 2, backoff without waiting, under the runtime's failure policy. */
function sinkProcess(bus: Bus, store: OlapStore): { stage: Stage; health: RuntimeHealth; fatal: string[]; decisions: string[] } {
  const health = new RuntimeHealth();
  const fatal: string[] = [];
  const decisions: string[] = [];
  const policy = stageFailureHandler(health, logger, (reason) => fatal.push(reason));
  const sink = new TableSink(store, 'splits', logger, { retries: 2, sleep: async () => undefined });
  const stage = startStage(
    bus,
    'sink:splits',
    { groupId: GROUP, topic: TOPIC, fromBeginning: true, minBatchSize: 1, maxWaitMs: 0, maxBatchSize: 5 },
    (records) => sink.writeRecords(records, (r) => ({ key: r.key })),
    logger,
    (e, name) => {
      const restart = policy(e, name);
      decisions.push(restart ? `start again after ${restart.afterMs} ms` : 'stop the process');
      return restart;
    },
  );
  return { stage, health, fatal, decisions };
}

const buses: MemoryBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

describe('a store down for longer than the sinks retry', () => {
  it('takes the process down with the batch uncommitted, and the next process stores every record exactly once', async () => {
    const bus = new MemoryBus();
    buses.push(bus);
    const { store, rows, down } = outageStore();

    const first = sinkProcess(bus, store);
    await send(bus, 0, 10);
    await until(() => rows.length === 10, 'the first 10 rows stored');

    down.value = true;
    await send(bus, 10, 10);
    await until(() => first.fatal.length > 0, 'the process gave up');
    // Each time an insert and its two retries; taken for a lost broker connection three times.
    expect(first.decisions).toEqual([
      'start again after 500 ms',
      'start again after 1000 ms',
      'start again after 2000 ms',
      'stop the process',
    ]);
    expect(first.fatal).toEqual(['stage failed: insert into splits failed after 3 attempts: connect ECONNREFUSED 127.0.0.1:8123']);
    expect(first.health.check()).toEqual({
      status: 'down',
      message: 'stage failed: insert into splits failed after 3 attempts: connect ECONNREFUSED 127.0.0.1:8123',
    });
    await send(bus, 20, 10);
    await first.stage.stop();

    // The store is back; a supervisor started the process again.
    down.value = false;
    const second = sinkProcess(bus, store);
    await until(() => rows.length >= 30, 'the rows that waited stored');
    await send(bus, 30, 5);
    await until(() => rows.length >= 35, 'the next rows stored');
    await new Promise((r) => setTimeout(r, 100));
    const keys = rows.map((r) => String(r['key']));
    expect(keys).toHaveLength(35);
    expect(new Set(keys).size).toBe(35);
    expect(keys.sort()).toEqual(Array.from({ length: 35 }, (_, i) => `k${i}`).sort());
    expect(second.fatal).toEqual([]);
    await second.stage.stop();
  });
});
