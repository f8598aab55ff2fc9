import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import { startPipeline } from '../pipeline/pipeline.js';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import { LiveBoard } from '../api/views/board.js';
import { startChangelogViews } from '../api/views/changelog-views.js';

/** The whole pipeline on the in-process bus and chDB, with an API board kept by its changelog view. */
export interface ServingPipeline {
  board: LiveBoard;
  store: ChdbStore;
  send(batch: readonly RawTick[]): Promise<void>;
  /** Resolves when the pipeline and the view have consumed everything sent. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

export async function startServingPipeline(clock: Clock, name: string): Promise<ServingPipeline> {
  const dir = mkdtempSync(join(tmpdir(), `odds-bench-${name}-`));
  const store = new ChdbStore(dir);
  await applyMigrations(store);
  const logger = pino({ level: 'silent' });
  const bus = new MemoryBus({ now: () => clock.now() });
  const board = new LiveBoard();
  const views = startChangelogViews(bus, board, 'bench', logger);
  const pipeline = startPipeline({ bus, store, clock, logger, catalog: { teams: TEAMS, leagues: LEAGUES } });
  const producer = bus.producer();
  return {
    board,
    store,
    send: (batch) => producer.send(TOPICS.rawTicks, batch.map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t }))),
    drained: async () => {
      while (pipeline.lag() + views.reduce((s, v) => s + v.consumer.lag(), 0) > 0) await new Promise((r) => setTimeout(r, 5));
    },
    stop: async () => {
      await Promise.all(views.map((v) => v.stop()));
      await pipeline.stop();
      await bus.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
