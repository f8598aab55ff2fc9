import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { SPORTSBOOKS } from '../schemas/index.js';
import type { DeepLinkTemplates } from '../schemas/index.js';
import { loadDeepLinkTemplates } from './deeplink-templates.js';
import { ConfigError, Settings } from './settings.js';
import type { Env } from './settings.js';
import type { HttpLimits } from '../schemas/index.js';
import type { ReadOnlyLimits } from '../pipeline/store/index.js';
import type { PhantomPolicy } from '../pipeline/opportunities/index.js';
import type { OperatorSettings } from './operator-endpoint.js';
import type { LogFormatSetting } from './logger.js';

export { ConfigError } from './settings.js';

export type FeedKind = 'simulator' | 'replay' | 'theoddsapi' | 'betfair' | 'none';
export type Role = 'all' | 'pipeline' | 'api';
/** Where ROLE=all without Kafka runs the feed and the pipeline: the API's thread or a worker thread. */
export type PipelineThread = 'api' | 'worker';

/** The validated configuration the rest of the code uses; read once at start. */
export interface Config {
  role: Role;
  port: number;
  host: string;
  /** PUBLIC_BASE_URL: the origin of `deep_link` URLs; null = the address the server listens on. */
  publicBaseUrl: string | null;
  dataDir: string;
  logLevel: string;
  logFormat: LogFormatSetting;
  feed: FeedKind;
  simulator: { seed: number; ticksPerSecond: number; stepMs: number; splitsIntervalMs: number };
  replay: { file: string | null; speed: number | 'max' };
  theOddsApi: { key: string | null; sports: string[]; regions: string[]; markets: string[]; baseUrl: string };
  /** The Exchange Stream connection (`FEED=betfair`) and the book and names of a Betfair replay. */
  betfair: {
    appKey: string | null;
    sessionToken: string | null;
    host: string;
    port: number;
    eventTypeIds: string[];
    marketTypes: string[];
    countryCodes: string[] | null;
    book: string;
    catalogueFile: string | null;
    bettingApiUrl: string;
    /** The account's commission percent; null: each market's base rate. */
    commissionPercent: number | null;
    /** Betfair's non-interactive login, used when no session token is given; null when not configured. */
    certLogin: BetfairCertLogin | null;
  };
  clickhouse: { url: string; user: string; password: string; database: string } | null;
  redisUrl: string | null;
  /** Kafka bootstrap servers; null runs the in-process bus. */
  kafkaBrokers: string[] | null;
  kafkaSessionTimeoutMs: number;
  /** The in-process bus's saved log keeps removals this long (minutes); 0: no saved log. */
  busLogRetentionMinutes: number;
  /** PIPELINE_THREAD: read only by ROLE=all on the in-process bus. */
  pipelineThread: PipelineThread;
  /** Avro through this Schema Registry on Kafka; null: JSON values. */
  schemaRegistryUrl: string | null;
  apiKeys: string;
  /** ALERT_SECRET_KEY, hex; null: the data folder's own key file. */
  alertSecretKey: string | null;
  /** How often buffered request counts are written to `api_usage`. */
  usageFlushMs: number;
  /** How long a browser session (the web screen's cookie) lasts. */
  sessionTtlMs: number;
  /** Deep-link URL templates per sportsbook: the built-in table merged with `DEEPLINK_TEMPLATES`. */
  deepLinkTemplates: DeepLinkTemplates;
  /** Request timeouts, the per-address connection cap and load shedding. */
  http: HttpLimits;
  /** SSE and WebSocket: the replay window, per-connection buffer bound and heartbeat period. */
  stream: { replayFrames: number; replayMs: number; replayBytes: number; bufferBytes: number; heartbeatMs: number };
  /** Stable per API replica: its changelog consumer groups are named after it. */
  replicaId: string;
  /** ClickHouse insert batching: rows per insert, or the longest wait before a smaller one. */
  sink: { batchRows: number; maxWaitMs: number; retries: number };
  /** The in-memory change window that answers /odds/delta; an older `since` must resync. */
  deltaWindow: { maxChanges: number; maxAgeMs: number };
  /** What the API counts as a phantom opportunity (left out of default lists and streams). */
  phantom: PhantomPolicy;
  /** The margin (a fraction) a fair-line recipe takes off a one-sided price when neither the caller nor the book says. */
  oneSidedMargin: number;
  /** How long /health says `down` after a stage failed before the process exits. */
  failureExitDelayMs: number;
  /** The read-only SQL endpoint over the embedded store; null when off. */
  analyst: { port: number; user: string; password: string; limits: ReadOnlyLimits; concurrency: number } | null;
  /** Where the operator endpoints (metrics, pipeline counters) are served, and their token. */
  metrics: OperatorSettings;
}

function deepLinkTemplates(file: string | null): DeepLinkTemplates {
  try {
    return loadDeepLinkTemplates(file ? resolve(file) : null, new Set(SPORTSBOOKS.map((b) => b.id)));
  } catch (e) {
    throw new ConfigError(e instanceof Error ? e.message : String(e));
  }
}

/** Reads and validates the environment through the settings table; throws `ConfigError` naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const s = new Settings(env);
  const role = s.string('ROLE') as Role;
  const feed = s.string('FEED') as FeedKind;
  const speedRaw = s.string('REPLAY_SPEED');
  const replayFile = s.optional('REPLAY_FILE');
  if (feed === 'replay' && !replayFile) throw new ConfigError('FEED=replay needs REPLAY_FILE (a .jsonl or .jsonl.gz recording)');
  const oddsKey = s.optional('THEODDSAPI_KEY');
  if (feed === 'theoddsapi' && !oddsKey) throw new ConfigError('FEED=theoddsapi needs THEODDSAPI_KEY');
  const betfairAppKey = s.optional('BETFAIR_APP_KEY');
  const betfairSession = s.optional('BETFAIR_SESSION_TOKEN');
  const betfairLogin = certLoginOf(s);
  if (feed === 'betfair' && (!betfairAppKey || (!betfairSession && betfairLogin === null)))
    throw new ConfigError(
      'FEED=betfair needs BETFAIR_APP_KEY and either BETFAIR_SESSION_TOKEN or a certificate login (BETFAIR_USERNAME, BETFAIR_PASSWORD, BETFAIR_CERT_FILE, BETFAIR_KEY_FILE)',
    );
  const betfairBook = s.string('BETFAIR_BOOK');
  if (!SPORTSBOOKS.some((b) => b.id === betfairBook))
    throw new ConfigError(`BETFAIR_BOOK must be a sportsbook id of the catalog, got ${JSON.stringify(betfairBook)}`);
  const kafkaBrokers = s.list('KAFKA_BROKERS');
  if (role !== 'all' && kafkaBrokers === null) {
    throw new ConfigError(`ROLE=${role} needs KAFKA_BROKERS: separate processes meet only on Kafka`);
  }
  const chUrl = s.optional('CLICKHOUSE_URL');
  let analyst: Config['analyst'] = null;
  if (s.isSet('ANALYST_PORT')) {
    if (chUrl)
      throw new ConfigError(
        'ANALYST_PORT serves the embedded store; with CLICKHOUSE_URL analysts query the server (its analyst user, infra/clickhouse/users.xml)',
      );
    if (role === 'api') throw new ConfigError('ANALYST_PORT needs the embedded store of a pipeline process (ROLE=all or pipeline)');
    const password = s.optional('ANALYST_PASSWORD');
    if (!password) throw new ConfigError('ANALYST_PORT needs ANALYST_PASSWORD (8+ characters)');
    analyst = {
      port: s.int('ANALYST_PORT'),
      user: s.string('ANALYST_USER'),
      password,
      limits: {
        maxExecutionSeconds: s.int('ANALYST_MAX_SECONDS'),
        maxMemoryBytes: s.int('ANALYST_MAX_MEMORY_MB') * 1024 * 1024,
        maxRowsToRead: s.int('ANALYST_MAX_ROWS_READ'),
        maxResultBytes: s.int('ANALYST_MAX_RESULT_MB') * 1024 * 1024,
        maxThreads: s.int('ANALYST_THREADS'),
      },
      concurrency: s.int('ANALYST_CONCURRENCY'),
    };
  }
  const metrics: OperatorSettings = { port: s.isSet('METRICS_PORT') ? s.int('METRICS_PORT') : null, token: s.optional('METRICS_TOKEN') };
  if (metrics.port !== null && metrics.port !== 0 && metrics.port === s.int('PORT'))
    throw new ConfigError('METRICS_PORT must differ from PORT: the operator endpoints stay off the public port');
  return {
    role,
    port: s.int('PORT'),
    host: s.string('HOST'),
    publicBaseUrl: s.optional('PUBLIC_BASE_URL'),
    dataDir: resolve(s.string('DATA_DIR')),
    logLevel: s.string('LOG_LEVEL'),
    logFormat: s.string('LOG_FORMAT') as LogFormatSetting,
    feed,
    simulator: {
      seed: s.int('SIM_SEED'),
      ticksPerSecond: s.int('SIM_TICKS_PER_SECOND'),
      stepMs: s.int('SIM_STEP_MS'),
      splitsIntervalMs: s.int('SPLITS_INTERVAL_SECONDS') * 1000,
    },
    replay: { file: replayFile, speed: speedRaw === 'max' ? 'max' : Number(speedRaw) },
    theOddsApi: {
      key: oddsKey,
      sports: s.list('THEODDSAPI_SPORTS') ?? [],
      regions: s.list('THEODDSAPI_REGIONS') ?? [],
      markets: s.list('THEODDSAPI_MARKETS') ?? [],
      baseUrl: s.string('THEODDSAPI_BASE_URL'),
    },
    betfair: {
      appKey: betfairAppKey,
      sessionToken: betfairSession,
      certLogin: betfairLogin,
      host: s.string('BETFAIR_STREAM_HOST'),
      port: s.int('BETFAIR_STREAM_PORT'),
      eventTypeIds: s.list('BETFAIR_EVENT_TYPES') ?? [],
      marketTypes: s.list('BETFAIR_MARKET_TYPES') ?? [],
      countryCodes: s.list('BETFAIR_COUNTRIES'),
      book: betfairBook,
      catalogueFile: s.optional('BETFAIR_CATALOGUE_FILE'),
      bettingApiUrl: s.string('BETFAIR_BETTING_API_URL'),
      commissionPercent: s.isSet('BETFAIR_COMMISSION') ? Number(s.raw('BETFAIR_COMMISSION')) : null,
    },
    clickhouse: chUrl
      ? {
          url: chUrl,
          user: s.string('CLICKHOUSE_USER'),
          password: s.string('CLICKHOUSE_PASSWORD'),
          database: s.string('CLICKHOUSE_DATABASE'),
        }
      : null,
    redisUrl: s.optional('REDIS_URL'),
    kafkaBrokers,
    kafkaSessionTimeoutMs: s.int('KAFKA_SESSION_TIMEOUT_MS'),
    busLogRetentionMinutes: s.int('BUS_LOG_RETENTION_MINUTES'),
    pipelineThread: s.string('PIPELINE_THREAD') as PipelineThread,
    schemaRegistryUrl: s.optional('SCHEMA_REGISTRY_URL'),
    apiKeys: s.string('API_KEYS'),
    alertSecretKey: s.optional('ALERT_SECRET_KEY'),
    usageFlushMs: s.int('USAGE_FLUSH_MS'),
    sessionTtlMs: s.int('SESSION_HOURS') * 3_600_000,
    deepLinkTemplates: deepLinkTemplates(s.optional('DEEPLINK_TEMPLATES')),
    http: {
      requestTimeoutMs: s.int('REQUEST_TIMEOUT_MS'),
      headersTimeoutMs: Math.min(s.int('HEADERS_TIMEOUT_MS'), s.int('REQUEST_TIMEOUT_MS')),
      keepAliveTimeoutMs: s.int('KEEP_ALIVE_TIMEOUT_MS'),
      maxConnectionsPerAddress: s.int('MAX_CONNECTIONS_PER_ADDRESS'),
      shedEventLoopDelayMs: s.int('SHED_EVENT_LOOP_DELAY_MS'),
      shedTurnBudgetMs: s.int('SHED_TURN_BUDGET_MS'),
    },
    stream: {
      replayFrames: s.int('STREAM_REPLAY_FRAMES'),
      replayMs: s.int('STREAM_REPLAY_SECONDS') * 1000,
      replayBytes: s.int('STREAM_REPLAY_MB') * 1024 * 1024,
      bufferBytes: s.int('STREAM_BUFFER_KB') * 1024,
      heartbeatMs: s.int('STREAM_HEARTBEAT_SECONDS') * 1000,
    },
    replicaId: s.isSet('API_REPLICA_ID')
      ? s.string('API_REPLICA_ID')
      : hostname()
          .replace(/[^A-Za-z0-9_.-]/g, '-')
          .slice(0, 64) || 'api',
    deltaWindow: { maxChanges: s.int('DELTA_WINDOW_CHANGES'), maxAgeMs: s.int('DELTA_WINDOW_MINUTES') * 60_000 },
    phantom: {
      maxProfitPercent: Number(s.string('PHANTOM_MAX_PROFIT_PERCENT')),
      veryStaleFactor: Number(s.string('VERY_STALE_FACTOR')),
    },
    oneSidedMargin: Number(s.string('ONE_SIDED_MARGIN_PERCENT')) / 100,
    sink: { batchRows: s.int('SINK_BATCH_ROWS'), maxWaitMs: s.int('SINK_MAX_WAIT_MS'), retries: s.int('SINK_RETRIES') },
    failureExitDelayMs: s.int('FAILURE_EXIT_DELAY_MS'),
    analyst,
    metrics,
  };
}

export interface BetfairCertLogin {
  url: string;
  username: string;
  password: string;
  certFile: string;
  keyFile: string;
}

const CERT_LOGIN_SETTINGS = ['BETFAIR_USERNAME', 'BETFAIR_PASSWORD', 'BETFAIR_CERT_FILE', 'BETFAIR_KEY_FILE'] as const;

/** The certificate login's four settings go together: all of them, or none. */
function certLoginOf(s: Settings): BetfairCertLogin | null {
  const missing = CERT_LOGIN_SETTINGS.filter((name) => !s.isSet(name));
  if (missing.length === CERT_LOGIN_SETTINGS.length) return null;
  if (missing.length > 0) throw new ConfigError(`the Betfair certificate login needs ${missing.join(', ')} too`);
  return {
    url: s.string('BETFAIR_LOGIN_URL'),
    username: s.string('BETFAIR_USERNAME'),
    password: s.string('BETFAIR_PASSWORD'),
    certFile: s.string('BETFAIR_CERT_FILE'),
    keyFile: s.string('BETFAIR_KEY_FILE'),
  };
}
