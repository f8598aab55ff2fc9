// A store outage longer than the sinks' retries (issue 36 §3; docs/chaos.md). Until 2026-11-30 the
// insert failed for good after SINK_RETRIES and the stage stopped with its batch uncommitted; the
// failure policy then read the store's `ECONNREFUSED` as a lost connection to the brokers
// (lostTheBrokers matched the text) and started the stage again in process, three times in a row,
// before it took the process down: the policy for a store outage was picked by an error's text.
// Now a sink waits for a store that does not answer (the adapter says so: StoreError.unreachable)
// for as long as it takes: the records wait in the log, no stage starts again, and once the store
// answers every record is stored exactly once and the group's lag is 0.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus, NO_BATCH } from '../pipeline/bus/index.js';
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

/** A store that keeps the rows it took, and refuses every insert as an unreachable server while `down`, counting the refusals. */
function outageStore(): { store: OlapStore; rows: StoreRow[]; down: { value: boolean }; refused: { count: number } } {
  const rows: StoreRow[] = [];
  const down = { value: false };
  const refused = { count: 0 };
  const store: OlapStore = {
    kind: 'clickhouse',
    exec: async () => undefined,
    insert: async (_table, batch) => {
      if (down.value) {
        refused.count++;
        throw new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });
      }
      rows.push(...batch);
    },
    query: async () => [],
    close: async () => undefined,
  };
  return { store, rows, down, refused };
}

async function send(bus: Bus, from: number, n: number): Promise<void> {
  await bus.producer().send(
    TOPIC,
    Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: {} as never })),
    NO_BATCH,
  );
}

async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One process's sink stage: SINK_RETRIES 2, each wait a turn of the event loop, under the runtime's failure policy. */
function sinkProcess(bus: Bus, store: OlapStore): { stage: Stage; health: RuntimeHealth; fatal: string[]; decisions: string[] } {
  const health = new RuntimeHealth();
  const fatal: string[] = [];
  const decisions: string[] = [];
  const policy = stageFailureHandler(health, logger, (reason) => fatal.push(reason));
  const sink = new TableSink(store, 'splits', logger, { retries: 2, sleep: () => new Promise((r) => setImmediate(r)) });
  const stage = startStage(
    bus,
    'sink:splits',
    { groupId: GROUP, topic: TOPIC, fromBeginning: true, minBatchSize: 1, maxWaitMs: 0, maxBatchSize: 5 },
    (records, batch) => sink.writeRecords(records, (r) => ({ key: r.key }), batch.hold),
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
  it('is waited for: no stage starts again, and once it answers every record is stored exactly once with the lag at 0', async () => {
    const bus = new MemoryBus();
    buses.push(bus);
    const { store, rows, down, refused } = outageStore();

    const pipeline = sinkProcess(bus, store);
    await send(bus, 0, 10);
    await until(() => rows.length === 10, 'the first 10 rows stored');

    down.value = true;
    await send(bus, 10, 10);
    // Ten times the old budget (an insert and its two retries), with more records arriving.
    await until(() => refused.count >= 30, 'thirty refused inserts');
    await send(bus, 20, 10);
    expect(rows).toHaveLength(10);
    expect(pipeline.decisions).toEqual([]);

    down.value = false;
    await until(() => rows.length >= 30, 'the rows that waited stored');
    await send(bus, 30, 5);
    await until(() => rows.length >= 35 && pipeline.stage.consumer.lag() === 0, 'the next rows stored and the lag at 0');
    await new Promise((r) => setTimeout(r, 100));
    const keys = rows.map((r) => String(r['key']));
    expect(keys).toHaveLength(35);
    expect(keys.sort()).toEqual(Array.from({ length: 35 }, (_, i) => `k${i}`).sort());
    expect(pipeline.decisions).toEqual([]);
    expect(pipeline.fatal).toEqual([]);
    expect(pipeline.health.check()).toEqual({ status: 'ok', message: 'every stage running' });
    expect(pipeline.stage.consumer.lag()).toBe(0);
    await pipeline.stage.stop();
  });
});
