import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { TIER_NAMES, TOPIC_CONFIGS } from '../schemas/index.js';
import type { TierName } from '../schemas/index.js';
import { MemoryBus, observeDeliveries } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { Feed } from '../pipeline/feeds/index.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { buildApp } from '../api/app.js';
import type { PayloadInspector } from '../api/plugins/index.js';
import type { StreamService } from '../api/stream/index.js';
import { alertBody, startAlerting } from '../api/alerts/index.js';
import { PositionTrail, changelogReader, opportunityContext } from '../api/queries/index.js';
import { SecretSeal, UsageRecorder, ensureKeys, loadOrCreateDemoSecrets, parseApiKeys, startAccounts } from '../api/accounts/index.js';
import type { Accounts, KeyStore } from '../api/accounts/index.js';
import { startBets } from '../api/bets/index.js';
import type { Bets } from '../api/bets/index.js';
import { MemoryRateLimitStore } from '../api/plugins/index.js';
import type { RateLimitStore } from '../api/plugins/index.js';
import { RedisRateLimitStore } from '../api/plugins/index.js';
import { LiveBoard } from '../api/views/index.js';
import { Catalog } from '../api/views/index.js';
import { PublicOrigin } from '../api/deeplinks/index.js';
import { startChangelogViews } from '../api/views/index.js';
import { FuturesBoard } from '../api/views/index.js';
import { startFuturesViews } from '../api/views/index.js';
import { GameStateBoard } from '../api/views/index.js';
import { OpportunityBoard } from '../api/views/index.js';
import { SharpMoveWatch } from '../api/views/index.js';
import { SplitsBoard } from '../api/views/index.js';
import { TierViews } from '../api/views/index.js';
import type { Config } from './config.js';
import { drain } from './drain.js';
import type { RuntimeHealth } from './health.js';
import { stageFailureHandler } from './failure-policy.js';
import { startOperatorEndpoint } from './operator-endpoint.js';
import { openProcessParts, startConfiguredPipeline, startInput } from './process-parts.js';
import { openThreadedParts } from './pipeline-thread.js';
import { StartupError, firstLine } from './startup-error.js';
import { inProcessPriority } from './in-process-priority.js';

export interface RunningSystem {
  app: FastifyInstance;
  url: string;
  demoKeys: Record<TierName, string>;
  board: LiveBoard;
  /** The board each tier reads (live, delayed). */
  views: TierViews;
  /** Active opportunities, kept by the `opportunities` changelog. */
  opportunities: OpportunityBoard;
  /** Current betting splits (the `splits` stream channel subscribes here). */
  splits: SplitsBoard;
  /** Live game states, kept by the `gamestate` changelog (streams subscribe here). */
  gameStates: GameStateBoard;
  /** Futures boards, fair lines and futures +EV (kept by the futures changelogs). */
  futures: FuturesBoard;
  /** This replica's view of every key (`keys.add` registers a replica-local key, for tests). */
  keys: KeyStore;
  /** Account and key changes: durable, and seen by every API replica. */
  accounts: Accounts;
  bets: Bets;
  usage: UsageRecorder;
  bus: Bus;
  /** Where the live board stands in the changelogs (what `/odds/delta` cursors name). */
  positions: PositionTrail;
  /** Null in the API role: the pipeline runs in its own process. */
  pipeline: Pipeline | null;
  /** Null in the API role, or with FEED=none, or when the feed runs in the pipeline's worker. */
  feed: Feed | null;
  /** The thread the feed and the pipeline run in with PIPELINE_THREAD=worker; else null. */
  pipelineWorker: Worker | null;
  /** Store damage found at start, a failed stage: what /health adds to its own checks. */
  health: RuntimeHealth;
  /** The read-only analyst SQL endpoint (ANALYST_PORT), or null. */
  analystUrl: string | null;
  /** The operator listener (METRICS_PORT) serving /metrics, or null. */
  metricsUrl: string | null;
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
  /**
   * Called once when a stage cannot continue, after /health turned `down`. The entry exits the
   * process (a supervisor restarts it from the last commit); tests observe.
   */
  onFatal?: (reason: string) => void;
  /** Wall clock of keys and usage (rotation grace periods, usage periods): tests move it. */
  now?: () => number;
  /** Sees every API answer body before serialization (contract tests). */
  inspectPayload?: PayloadInspector;
  /** Hands over the stream service once made (the stream bench traces its hub). */
  onStreams?: (service: StreamService) => void;
}

export { inProcessPriority } from './in-process-priority.js';

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

/**
 * Names the log that offsets count in: a Kafka cluster keeps its offsets across restarts, every
 * replica reading the same ones; the in-process bus names its own (a new one in a run that starts
 * a new log, the saved one's in a run that continues it: `runtime/saved-bus-log.ts`).
 */
function logName(bus: Bus): string {
  return bus instanceof MemoryBus ? bus.name : 'kafka';
}

/**
 * The whole platform in one process: store, bus, pipeline, views, API and the feed. Started in
 * dependency order (the feed last, so nothing it produces is missed); stopped in reverse (the
 * feed first, then the pipeline drains before anything closes).
 */
export async function startSystem(config: Config, logger: Logger, overrides: SystemOverrides = {}): Promise<RunningSystem> {
  const runsPipeline = config.role !== 'api';
  const picked = { ...(overrides.clock ? { clock: overrides.clock } : {}), ...(overrides.feed ? { feed: overrides.feed } : {}) };
  // PIPELINE_THREAD=worker: the feed and the stages run in a worker thread (in-process bus only).
  const threaded =
    runsPipeline && config.kafkaBrokers === null && config.pipelineThread === 'worker'
      ? await openThreadedParts(config, logger, { ...picked, ...(overrides.onFatal ? { onFatal: overrides.onFatal } : {}) })
      : null;
  const thread = threaded?.thread ?? null;
  const parts = threaded?.parts ?? (await openProcessParts(config, logger, { runsFeed: runsPipeline, ...picked }));
  const { clock, health, opened, feed, bus } = parts;
  const store = opened.store;
  if (bus instanceof MemoryBus) bus.prioritize(inProcessPriority(config.replicaId));
  const board = new LiveBoard({ now: () => clock.now(), log: config.deltaWindow });
  // Delayed boards follow the live one from its first change on.
  const tierViews = new TierViews(board, clock, { log: config.deltaWindow });
  const publicOrigin = new PublicOrigin(config.publicBaseUrl, `http://${config.host}:${config.port}`);
  const catalog = new Catalog(undefined, config.deepLinkTemplates, publicOrigin);
  // The STALE_AFTER_SHARP_MOVE warning is judged at each request on the live board's rows.
  const opportunities = new OpportunityBoard({ ...config.phantom, staleDerivatives: new SharpMoveWatch(board) });
  const splits = new SplitsBoard(clock);
  const gameStates = new GameStateBoard();
  const futures = new FuturesBoard(() => clock.now());
  const positions = new PositionTrail(logName(bus), board.log, (topic) => TOPIC_CONFIGS[topic].partitions, changelogReader(bus));
  // A view that stopped would leave this replica serving a frozen board with /health ok.
  const onViewFailure = stageFailureHandler(health, logger, overrides.onFatal);
  const views = [
    // The views report each batch they apply, so the live board's state has a name in the log.
    ...startChangelogViews(
      observeDeliveries(bus, positions.record),
      board,
      config.replicaId,
      logger,
      opportunities,
      splits,
      gameStates,
      onViewFailure,
    ),
    ...startFuturesViews(bus, futures, config.replicaId, logger, onViewFailure),
  ];
  const pipeline =
    thread?.pipeline ??
    (runsPipeline ? startConfiguredPipeline(config, parts, logger, overrides.onFatal ? { onFatal: overrides.onFatal } : {}) : null);

  // Demo and API_KEYS secrets become ordinary keys of the store (made once, kept by hash).
  const now = overrides.now ?? Date.now;
  let seal: SecretSeal;
  try {
    seal = SecretSeal.load(config.alertSecretKey, config.dataDir);
  } catch (e) {
    throw new StartupError(`ALERT_SECRET_KEY: ${firstLine(e)}`);
  }
  const accounts = await startAccounts({ bus, store, now, replicaId: config.replicaId, logger, seal, onFailure: onViewFailure });
  const demoKeys = loadOrCreateDemoSecrets(config.dataDir);
  await ensureKeys(
    accounts.accounts,
    'demo',
    TIER_NAMES.map((tier) => ({ key: demoKeys[tier], tier })),
  );
  await ensureKeys(accounts.accounts, 'operator', parseApiKeys(config.apiKeys));
  const keys = accounts.keys;
  const ledger = await startBets({ bus, store, replicaId: config.replicaId, logger, onFailure: onViewFailure });
  const alerting = startAlerting({
    bus,
    store,
    rules: keys.rules,
    board: opportunities,
    odds: board,
    splits,
    catalog,
    now: () => clock.now(),
    lines: (eventId) => board.mainLines(eventId),
    context: opportunityContext(opportunities, gameStates),
    logger: logger.child({ component: 'alerts' }),
    seal,
    onFailure: onViewFailure,
  });
  const usage = new UsageRecorder({ store, logger, now, flushMs: config.usageFlushMs });
  let rateLimits: RateLimitStore = new MemoryRateLimitStore();
  if (config.redisUrl !== null) {
    const redis = new RedisRateLimitStore({ url: config.redisUrl, logger: logger.child({ component: 'rate-limit' }) });
    if (!(await redis.ready(3000))) logger.warn('Redis not reachable yet: rate-limit counters start in process');
    rateLimits = redis;
  }

  const app = await buildApp(
    {
      board,
      views: tierViews,
      opportunities,
      splits,
      gameStates,
      futures,
      alerts: (listener) => alerting.onAlert((alert) => listener({ accountId: alert.accountId, body: alertBody(alert) })),
      catalog,
      keys,
      accounts: accounts.accounts,
      bets: ledger.bets,
      usage,
      now,
      rateLimits,
      clock,
      store,
      version: packageVersion(),
      redisUrl: config.redisUrl,
      http: config.http,
      stream: config.stream,
      sessionTtlMs: config.sessionTtlMs,
      oneSidedMargin: config.oneSidedMargin,
      positions,
      webRoot: builtWebRoot(),
      metricsToken: config.metrics.token,
      runtime: () => health.check(),
      // openStore applied every migration before the app was built.
      schemaApplied: true,
      ...(pipeline ? { pipelineLag: () => pipeline.lag(), pipelineStats: () => pipeline.stats() } : {}),
      ...(overrides.inspectPayload ? { inspectPayload: overrides.inspectPayload } : {}),
      ...(overrides.onStreams ? { onStreams: overrides.onStreams } : {}),
    },
    logger,
  );
  let url = '';
  if (overrides.listen !== false) {
    try {
      url = await app.listen({ port: config.port, host: config.host });
      publicOrigin.listeningAt(url);
    } catch (e) {
      // The worker's feed and stages would run on with nobody serving them (a caller in process,
      // a test, goes on living): it stops and saves the log as at any stop.
      await thread?.stop();
      const code = (e as NodeJS.ErrnoException).code ?? '';
      throw new StartupError(
        `PORT ${config.port} on HOST ${config.host} cannot be opened (${code || (e instanceof Error ? e.message : String(e))})`,
      );
    }
  }

  const operator =
    overrides.listen === false || config.metrics.port === null
      ? null
      : await startOperatorEndpoint({
          host: config.host,
          port: config.metrics.port,
          token: config.metrics.token,
          routes: new Map([['/metrics', () => app.metricsText()]]),
        });

  await startInput(parts, pipeline);
  thread?.startInput();

  const viewsLag = (): number => views.reduce((s, v) => s + v.consumer.lag(), 0);
  const allLag = (): number => (pipeline?.lag() ?? 0) + viewsLag();
  /** In a worker, the stages' lag is asked of the worker (what it last reported may be old), then the views'. */
  const drainedAll = async (timeoutMs: number, stopFeed: boolean): Promise<boolean> => {
    if (!thread) return drain(allLag, timeoutMs);
    const end = Date.now() + timeoutMs;
    return (await thread.drained(timeoutMs, stopFeed)) && drain(viewsLag, Math.max(0, end - Date.now()));
  };
  const drained = (timeoutMs = 10_000): Promise<boolean> => drainedAll(timeoutMs, false);

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      await feed?.stop();
      if (!health.failed && !(await drainedAll(15_000, true)))
        logger.warn({ lag: pipeline?.stats().lag }, 'pipeline did not drain before shutdown');
      await operator?.close();
      await app.close();
      await usage.stop();
      await alerting.stop();
      await accounts.stop();
      await ledger.stop();
      tierViews.close();
      splits.close();
      await Promise.all(views.map((v) => v.stop()));
      await pipeline?.stop();
      await bus.close();
      await rateLimits.close();
      await opened.closeCleanly();
    })();
    return stopped;
  };

  return {
    app,
    url,
    demoKeys,
    board,
    views: tierViews,
    opportunities,
    splits,
    gameStates,
    futures,
    keys,
    accounts: accounts.accounts,
    bets: ledger.bets,
    usage,
    bus,
    positions,
    pipeline,
    feed,
    pipelineWorker: thread?.worker ?? null,
    clock,
    store,
    health,
    analystUrl: opened.analystUrl,
    metricsUrl: operator?.url ?? null,
    drained,
    stop,
  };
}

/** Where `make web-build` puts the web screen: dist/web, from the sources (tsx, vitest) and from dist/. */
export function builtWebRoot(): string {
  const here = import.meta.url;
  return fileURLToPath(new URL(/\/dist\/runtime\/[^/]+$/.test(here) ? '../web/' : '../dist/web/', here));
}
