import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { MemoryBus, NO_BATCH } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { LiveBoard } from '../api/views/board.js';
import { startChangelogViews } from '../api/views/changelog-views.js';
import { loadConfig } from '../runtime/config.js';
import { drain } from '../runtime/drain.js';
import { inProcessPriority } from '../runtime/in-process-priority.js';
import { openProcessParts, startConfiguredPipeline } from '../runtime/process-parts.js';

/**
 * The whole pipeline on the in-process bus and chDB, with an API board kept by its changelog
 * view: the parts the system is assembled from, without the API, accounts or a feed (the bench
 * sends the ticks itself).
 */
export interface ServingPipeline {
  board: LiveBoard;
  store: OlapStore;
  send(batch: readonly RawTick[]): Promise<void>;
  /** Resolves when the pipeline and the view have consumed everything sent. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/** The replica id of the bench's views (their consumer groups are `api-bench-...`). */
const REPLICA = 'bench';

export async function startServingPipeline(clock: Clock, name: string): Promise<ServingPipeline> {
  const dir = mkdtempSync(join(tmpdir(), `odds-bench-${name}-`));
  const config = loadConfig({ DATA_DIR: dir, FEED: 'none' });
  const logger = pino({ level: 'silent' });
  const parts = await openProcessParts(config, logger, { runsFeed: false, clock });
  const { bus, opened } = parts;
  // The turns `make run` gives its consumers (runtime/system.ts): the views and the tick path
  // first. Without them every stage had the same level, and a tick waited behind the engines'
  // and the sinks' rounds, which is not what a user's process does.
  if (bus instanceof MemoryBus) bus.prioritize(inProcessPriority(REPLICA));
  const board = new LiveBoard();
  const views = startChangelogViews(bus, board, REPLICA, logger);
  const pipeline = startConfiguredPipeline(config, parts, logger, { tierScopes: false });
  const producer = bus.producer();
  const lag = (): number => pipeline.lag() + views.reduce((s, v) => s + v.consumer.lag(), 0);
  return {
    board,
    store: opened.store,
    send: (batch) =>
      producer.send(
        TOPICS.rawTicks,
        batch.map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
        NO_BATCH,
      ),
    drained: async () => {
      await drain(lag, Infinity);
    },
    stop: async () => {
      await Promise.all(views.map((v) => v.stop()));
      await pipeline.stop();
      await bus.close();
      await opened.closeCleanly();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
