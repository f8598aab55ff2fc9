import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick, TierName } from '../schemas/index.js';
import { KafkaBus, MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import { ManualClock, systemClock } from '../pipeline/clock.js';
import type { Clock } from '../pipeline/clock.js';
import type { Feed } from '../pipeline/feeds/feed.js';
import { startPipeline } from '../pipeline/pipeline.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { ChdbStore, ClickHouseStore, applyMigrations } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { buildApp } from './app.js';
import type { PayloadInspector } from './deps.js';
import type { Config } from './config.js';
import { KeyStore, loadOrCreateDemoKeys, parseApiKeys } from './keys.js';
import { MemoryRateLimitStore } from './plugins/rate-limit.js';
import type { RateLimitStore } from './plugins/rate-limit.js';
import { RedisRateLimitStore } from './plugins/redis-rate-limit.js';
import { LiveBoard } from './views/board.js';
import { Catalog } from './views/catalog.js';
import { startChangelogViews } from './views/changelog-views.js';
import { OpportunityBoard, tierBookScopes } from './views/opportunity-board.js';
import { TierViews } from './views/tier-views.js';

export interface RunningSystem {
  app: FastifyInstance;
  url: string;
  demoKeys: Record<TierName, string>;
  board: LiveBoard;
  /** The board each tier reads (live, delayed). */
  views: TierViews;
  /** Active opportunities, kept by the `opportunities` changelog. */
  opportunities: OpportunityBoard;
  /** The key store, so an operator (or a test) can issue keys at run time. */
  keys: KeyStore;
  pipeline: Pipeline;
  feed: Feed;
  clock: Clock;
  store: OlapStore;
  /** Resolves when every record the feed produced so far went through every stage. */
  drained(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

export interface SystemOverrides {
  /** A feed to use instead of the configured one (tests). */
  feed?: (clock: Clock) => Feed;
  clock?: Clock;
  listen?: boolean;
  /** Sees every API answer body before serialization (contract tests). */
  inspectPayload?: PayloadInspector;
}

export function packageVersion(): string {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'odds-platform' && pkg.version) return pkg.version;
    } catch {
      // not at this depth (source tree vs dist/)
    }
  }
  return '0.0.0';
}

/** Only the configured feed's module is loaded. */
async function makeFeed(config: Config, clock: Clock, logger: Logger): Promise<Feed> {
  switch (config.feed) {
    case 'simulator': {
      const { SimulatorFeed } = await import('../pipeline/feeds/simulator/index.js');
      return new SimulatorFeed({ seed: config.simulator.seed, ticksPerSecond: config.simulator.ticksPerSecond, clock });
    }
    case 'replay': {
      const { ReplayFeed } = await import('../pipeline/feeds/theoddsapi/index.js');
      if (!(clock instanceof ManualClock) || config.replay.file === null) throw new Error('replay needs a manual clock and REPLAY_FILE');
      const file = config.replay.file;
      return new ReplayFeed({
        file,
        speed: config.replay.speed,
        clock,
        logger: logger.child({ feed: 'replay' }),
        onProgress: (p) => logger.debug({ progress: p }, 'replay progress'),
      });
    }
    case 'theoddsapi': {
      const o = config.theOddsApi;
      if (o.key === null) throw new Error('FEED=theoddsapi needs THEODDSAPI_KEY');
      const { TheOddsApiPollingFeed } = await import('../pipeline/feeds/theoddsapi/index.js');
      return new TheOddsApiPollingFeed({ apiKey: o.key, baseUrl: o.baseUrl, sports: o.sports, regions: o.regions, markets: o.markets, clock, logger: logger.child({ feed: 'theoddsapi' }) });
    }
  }
}

/**
 * The whole platform in one process: store, bus, pipeline, views, API and the feed. Started in
 * dependency order (the feed last, so nothing it produces is missed); stopped in reverse (the
 * feed first, then the pipeline drains before anything closes).
 */
export async function startSystem(config: Config, logger: Logger, overrides: SystemOverrides = {}): Promise<RunningSystem> {
  const clock: Clock = overrides.clock ?? (config.feed === 'replay' ? new ManualClock(0) : systemClock);
  const store: OlapStore = config.clickhouse
    ? new ClickHouseStore({ url: config.clickhouse.url, username: config.clickhouse.user, password: config.clickhouse.password, database: config.clickhouse.database })
    : new ChdbStore(join(config.dataDir, 'chdb'));
  const applied = await applyMigrations(store);
  if (applied.length > 0) logger.info({ applied }, 'schema migrations applied');
  // The in-process bus starts empty, so the latest-odds table starts empty too: it mirrors the
  // board this process rebuilds (its versions are this bus's offsets), not what a previous run left.
  // Kafka's offsets outlive the process, and so does the table.
  if (config.kafkaBrokers === null) await store.exec('TRUNCATE TABLE IF EXISTS odds_latest');

  const bus: Bus = config.kafkaBrokers === null ? new MemoryBus({ now: () => clock.now() }) : new KafkaBus({ brokers: config.kafkaBrokers });
  const board = new LiveBoard({ now: () => clock.now(), log: config.deltaWindow });
  // Delayed boards follow the live one from its first change on.
  const tierViews = new TierViews(board, clock, { log: config.deltaWindow });
  const catalog = new Catalog();
  const opportunities = new OpportunityBoard();
  const views = startChangelogViews(bus, board, randomUUID().slice(0, 8), logger, opportunities);
  const pipeline = startPipeline({ bus, store, clock, logger, catalog: { teams: TEAMS, leagues: LEAGUES }, sinkBatchRows: config.sink.batchRows, sinkMaxWaitMs: config.sink.maxWaitMs, opportunities: { bookScopes: tierBookScopes() } });

  const demoKeys = loadOrCreateDemoKeys(config.dataDir);
  const keys = new KeyStore();
  for (const [tier, key] of Object.entries(demoKeys)) keys.add(key, tier as TierName);
  for (const { key, tier } of parseApiKeys(config.apiKeys)) keys.add(key, tier);
  let rateLimits: RateLimitStore = new MemoryRateLimitStore();
  if (config.redisUrl !== null) {
    const redis = new RedisRateLimitStore({ url: config.redisUrl, logger: logger.child({ component: 'rate-limit' }) });
    if (!(await redis.ready(3000))) logger.warn('Redis not reachable yet: rate-limit counters start in process');
    rateLimits = redis;
  }

  const app = await buildApp({ board, views: tierViews, opportunities, catalog, keys, rateLimits, clock, store, version: packageVersion(), redisUrl: config.redisUrl, http: config.http, pipelineLag: () => pipeline.lag(), pipelineStats: () => pipeline.stats(), ...(overrides.inspectPayload ? { inspectPayload: overrides.inspectPayload } : {}) }, logger);
  let url = '';
  if (overrides.listen !== false) url = await app.listen({ port: config.port, host: config.host });

  const feed = overrides.feed ? overrides.feed(clock) : await makeFeed(config, clock, logger);
  const producer = bus.producer();
  const rawKey = (t: RawTick): string => `${t.book}:${t.bookEventId}`;
  await feed.start((ticks) => producer.send(TOPICS.rawTicks, ticks.map((t) => ({ key: rawKey(t), partitionKey: t.league, value: t }))));

  const drained = async (timeoutMs = 10_000): Promise<boolean> => {
    const end = Date.now() + timeoutMs;
    const allLag = (): number => pipeline.lag() + views.reduce((s, v) => s + v.consumer.lag(), 0);
    while (allLag() > 0) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      await feed.stop();
      if (!(await drained(15_000))) logger.warn({ lag: pipeline.stats().lag }, 'pipeline did not drain before shutdown');
      await app.close();
      tierViews.close();
      await Promise.all(views.map((v) => v.stop()));
      await pipeline.stop();
      await bus.close();
      await rateLimits.close();
      await store.close();
    })();
    return stopped;
  };

  return { app, url, demoKeys, board, views: tierViews, opportunities, keys, pipeline, feed, clock, store, drained, stop };
}
