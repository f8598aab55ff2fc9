import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { TOPICS, TOPIC_CONFIGS } from '../schemas/index.js';
import { MemoryBus } from './bus/index.js';
import { runStageTable, startStage } from './runner.js';
import type { StageSpec } from './stages/index.js';
import { failingFirstConsumer } from '../test/support/failing-consumer.js';

const logger = pino({ level: 'silent' });

describe('runStageTable', () => {
  it('loads first, starts the stages in table order, and is ready once every restore finished', async () => {
    const bus = new MemoryBus();
    const steps: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const table: StageSpec[] = [
      {
        name: 'a',
        groupId: 'a',
        input: TOPICS.splits,
        output: [],
        tables: [],
        state: {
          load: async () => {
            steps.push('load a');
          },
          restore: async (partitions) => {
            steps.push(`restore a ${partitions.length}`);
            await held;
          },
        },
        handle: async (records) => {
          steps.push(`a got ${records.length}`);
        },
      },
      {
        name: 'b',
        groupId: 'b',
        input: TOPICS.splits,
        output: [],
        tables: [],
        state: {
          assign: async () => {
            steps.push('assign b');
          },
        },
        handle: async (records) => {
          steps.push(`b got ${records.length}`);
        },
      },
    ];
    const running = runStageTable(bus, table, logger);
    expect(running.lag()).toBe(1);
    expect(running.stages()).toEqual([]);
    let ready = false;
    void running.ready.then(() => (ready = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(running.stages().map((s) => s.name)).toEqual(['a', 'b']);
    expect(steps.slice(0, 2)).toEqual(['load a', `restore a ${TOPIC_CONFIGS[TOPICS.splits].partitions}`]);
    expect(steps).toContain('assign b');
    // A restore in flight counts in the lag, and holds `ready`.
    expect(ready).toBe(false);
    expect(running.lag()).toBe(1);
    release();
    await running.ready;
    expect(running.lag()).toBe(0);

    await bus.producer().send(TOPICS.splits, [{ key: 'k', value: null }]);
    await new Promise((r) => setTimeout(r, 50));
    expect(steps.filter((s) => s.includes('got')).sort()).toEqual(['a got 1', 'b got 1']);
    await running.stop();
    await bus.close();
  });

  it('hands a failed stage to onFailure', async () => {
    const bus = new MemoryBus();
    const failures: unknown[] = [];
    const running = runStageTable(
      bus,
      [{ name: 'x', groupId: 'x', input: TOPICS.splits, output: [], tables: [], handle: () => Promise.reject(new Error('boom')) }],
      logger,
      (e) => {
        failures.push(e);
      },
    );
    await running.ready;
    await bus.producer().send(TOPICS.splits, [{ key: 'k', value: null }]);
    await new Promise((r) => setTimeout(r, 50));
    expect(failures.map((e) => (e as Error).message)).toEqual(['boom']);
    await running.stop();
    await bus.close();
  });
});

describe('a stage whose consumer lost the brokers', () => {
  it('starts again with a new consumer when the failure handler says when, and a view that never commits applies nothing twice', async () => {
    const memory = new MemoryBus();
    const bus = failingFirstConsumer(memory);
    const seen: string[] = [];
    const told: string[] = [];
    await memory.producer().send(TOPICS.splits, [{ key: 'a', value: {} as never }]);
    const stage = startStage(
      bus,
      'view:x',
      { groupId: 'view-x', topic: TOPICS.splits, fromBeginning: true, commit: false },
      async (records) => {
        for (const r of records) seen.push(r.key);
      },
      logger,
      (e, name) => {
        told.push(`${name}: ${(e as Error).message}`);
        return { afterMs: 10 };
      },
    );
    await new Promise((r) => setTimeout(r, 100));
    await memory.producer().send(TOPICS.splits, [{ key: 'b', value: {} as never }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(told).toEqual(['view:x: write after end']);
    // The new consumer read the topic from the beginning again; 'a' was applied once.
    expect(seen).toEqual(['a', 'b']);
    await stage.stop();
    await memory.close();
  });

  it('stays down when the failure handler gives no delay', async () => {
    const memory = new MemoryBus();
    const seen: string[] = [];
    await memory.producer().send(TOPICS.splits, [{ key: 'a', value: {} as never }]);
    const stage = startStage(
      failingFirstConsumer(memory),
      'x',
      { groupId: 'x', topic: TOPICS.splits, fromBeginning: true },
      async (records) => {
        for (const r of records) seen.push(r.key);
      },
      logger,
      () => null,
    );
    await new Promise((r) => setTimeout(r, 100));
    await memory.producer().send(TOPICS.splits, [{ key: 'b', value: {} as never }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['a']);
    await stage.stop();
    await memory.close();
  });
});
