import type { Logger } from 'pino';
import { LEAGUES, TEAMS, tierBookScopes } from '../schemas/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { Feed } from '../pipeline/feeds/index.js';
import { startPipeline } from '../pipeline/pipeline.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { makeBus } from './bus.js';
import type { Config } from './config.js';
import { stageFailureHandler } from './failure-policy.js';
import { clockFor, makeFeed, startFeed } from './feed.js';
import { RuntimeHealth } from './health.js';
import { openStore } from './store.js';
import type { OpenedStore } from './store.js';

/** What every role stands on, opened in this order: the clock, health, the store, the feed and the bus. */
export interface ProcessParts {
  clock: Clock;
  health: RuntimeHealth;
  opened: OpenedStore;
  /** Null when the role runs no feed, or with FEED=none. */
  feed: Feed | null;
  bus: Bus;
}

export interface PartsOptions {
  /** Whether this role produces the feed's records (the API role does not). */
  runsFeed: boolean;
  /** A clock instead of the configured one (tests, benches). */
  clock?: Clock;
  /** A feed instead of the configured one (tests, benches). */
  feed?: (clock: Clock) => Feed;
}

export async function openProcessParts(config: Config, logger: Logger, options: PartsOptions): Promise<ProcessParts> {
  const clock = options.clock ?? clockFor(config);
  const health = new RuntimeHealth();
  // The store's checks and migrations run on the engine's own threads while this one builds the
  // feed (the simulator's opening board is about a second of CPU): a start overlaps the two.
  const opening = openStore(config, logger, health);
  // Handled below, once the feed is made; until then a refusal must not count as unhandled.
  opening.catch(() => undefined);
  let feed: Feed | null;
  try {
    // Made (and its file checked) before the port opens: a bad recording is a startup failure.
    feed = !options.runsFeed ? null : options.feed ? options.feed(clock) : await makeFeed(config, clock, logger);
  } catch (e) {
    await opening.then((o) => o.closeCleanly()).catch(() => undefined);
    throw e;
  }
  const opened = await opening;
  const bus = await makeBus(config, clock, logger, health);
  // A new in-process log starts empty, so the latest-odds table starts empty too: it mirrors the
  // board this process rebuilds (its versions are this bus's offsets), not what a previous run left.
  // Kafka's offsets outlive the process, and so do a saved in-process log's, and the table with them.
  if (bus instanceof MemoryBus && !bus.restored) await opened.store.exec('TRUNCATE TABLE IF EXISTS odds_latest');
  return { clock, health, opened, feed, bus };
}

export interface ConfiguredPipelineOptions {
  /** Told once a stage cannot continue, after /health turned `down` (see failure-policy.ts). */
  onFatal?: (reason: string) => void;
  /**
   * Opportunities also within each tier's books (what the API serves a tier); true unless set.
   * The benches that measure serving turn it off: their baselines were taken without.
   */
  tierScopes?: boolean;
}

/** The processors and sinks as configured, on the parts' bus and store, under the failure policy. */
export function startConfiguredPipeline(
  config: Config,
  parts: ProcessParts,
  logger: Logger,
  options: ConfiguredPipelineOptions = {},
): Pipeline {
  return startPipeline({
    bus: parts.bus,
    store: parts.opened.store,
    clock: parts.clock,
    logger,
    catalog: { teams: TEAMS, leagues: LEAGUES },
    sinkBatchRows: config.sink.batchRows,
    sinkMaxWaitMs: config.sink.maxWaitMs,
    sinkRetries: config.sink.retries,
    opportunities: {
      veryStaleFactor: config.phantom.veryStaleFactor,
      ...(options.tierScopes === false ? {} : { bookScopes: tierBookScopes() }),
    },
    onFailure: stageFailureHandler(parts.health, logger, options.onFatal),
  });
}

/** The feed starts last, once the pipeline owns its partitions, so nothing it produces is missed. */
export async function startInput(parts: ProcessParts, pipeline: Pipeline | null): Promise<void> {
  await pipeline?.ready;
  if (parts.feed) await startFeed(parts.feed, parts.bus);
}
