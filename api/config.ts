import { resolve } from 'node:path';
import type { HttpLimits } from './plugins/http-guard.js';

export type FeedKind = 'simulator' | 'replay' | 'theoddsapi';

/** The validated configuration the rest of the code uses; read once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  logLevel: string;
  feed: FeedKind;
  simulator: { seed: number; ticksPerSecond: number };
  replay: { file: string | null; speed: number | 'max' };
  theOddsApi: { key: string | null; sports: string[]; regions: string[]; markets: string[]; baseUrl: string };
  clickhouse: { url: string; user: string; password: string; database: string } | null;
  redisUrl: string | null;
  /** Kafka bootstrap servers; null runs the in-process bus. */
  kafkaBrokers: string[] | null;
  apiKeys: string;
  /** ClickHouse insert batching: rows per insert, or the longest wait before a smaller one. */
  sink: { batchRows: number; maxWaitMs: number };
  /** The in-memory change window that answers /odds/delta; an older `since` must resync. */
  deltaWindow: { maxChanges: number; maxAgeMs: number };
  /** Request timeouts, the per-address connection cap and load shedding. */
  http: HttpLimits;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

export function loadConfig(env: Env = process.env): Config {
  const feed = str(env, 'FEED', 'simulator');
  if (feed !== 'simulator' && feed !== 'replay' && feed !== 'theoddsapi') {
    throw new ConfigError(`FEED must be one of simulator, replay, theoddsapi, got "${feed}"`);
  }
  const speedRaw = str(env, 'REPLAY_SPEED', 'max');
  const speed = speedRaw === 'max' ? 'max' : Number(speedRaw);
  if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0)) {
    throw new ConfigError(`REPLAY_SPEED must be a positive number or "max", got "${speedRaw}"`);
  }
  const replayFile = env['REPLAY_FILE'] ?? null;
  if (feed === 'replay' && !replayFile) throw new ConfigError('FEED=replay needs REPLAY_FILE (a .jsonl or .jsonl.gz recording)');
  const oddsKey = env['THEODDSAPI_KEY'] ?? null;
  if (feed === 'theoddsapi' && !oddsKey) throw new ConfigError('FEED=theoddsapi needs THEODDSAPI_KEY');
  const chUrl = env['CLICKHOUSE_URL'];
  const redisUrl = env['REDIS_URL'];
  if (redisUrl !== undefined && redisUrl !== '' && !/^rediss?:\/\/./.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    dataDir: resolve(str(env, 'DATA_DIR', './data')),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    feed,
    simulator: {
      seed: int(env, 'SIM_SEED', 42, 0, 2 ** 31 - 1),
      ticksPerSecond: int(env, 'SIM_TICKS_PER_SECOND', 200, 1, 1_000_000),
    },
    replay: { file: replayFile, speed },
    theOddsApi: {
      key: oddsKey,
      sports: list(env, 'THEODDSAPI_SPORTS', ['americanfootball_nfl', 'basketball_nba', 'icehockey_nhl', 'soccer_epl']),
      regions: list(env, 'THEODDSAPI_REGIONS', ['us']),
      markets: list(env, 'THEODDSAPI_MARKETS', ['h2h', 'spreads', 'totals']),
      baseUrl: str(env, 'THEODDSAPI_BASE_URL', 'https://api.the-odds-api.com'),
    },
    clickhouse: chUrl
      ? {
          url: chUrl,
          user: str(env, 'CLICKHOUSE_USER', 'default'),
          password: str(env, 'CLICKHOUSE_PASSWORD', ''),
          database: str(env, 'CLICKHOUSE_DATABASE', 'default'),
        }
      : null,
    redisUrl: env['REDIS_URL'] === undefined || env['REDIS_URL'] === '' ? null : env['REDIS_URL'],
    kafkaBrokers: env['KAFKA_BROKERS'] ? list(env, 'KAFKA_BROKERS', []) : null,
    apiKeys: str(env, 'API_KEYS', ''),
    deltaWindow: {
      maxChanges: int(env, 'DELTA_WINDOW_CHANGES', 500_000, 1_000, 50_000_000),
      maxAgeMs: int(env, 'DELTA_WINDOW_MINUTES', 15, 1, 24 * 60) * 60_000,
    },
    http: {
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
      headersTimeoutMs: Math.min(int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000), int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000)),
      keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
      maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
      shedEventLoopDelayMs: int(env, 'SHED_EVENT_LOOP_DELAY_MS', 200, 0, 60_000),
      shedTurnBudgetMs: int(env, 'SHED_TURN_BUDGET_MS', 50, 1, 60_000),
    },
    sink: {
      batchRows: int(env, 'SINK_BATCH_ROWS', 20_000, 1, 1_000_000),
      maxWaitMs: int(env, 'SINK_MAX_WAIT_MS', 1000, 0, 60_000),
    },
  };
}
