import { TIER_NAMES } from './reference/index.js';

/**
 * Every environment variable the platform reads, in one declarative table: its type, default,
 * bounds and meaning. The table drives validation (`readSettings` in runtime/settings.ts), the
 * README's configuration table (`renderSettingsTable`, kept in step by a test) and the defaults
 * of the components that take these settings as options (`settingDefault`); nothing else reads
 * `process.env`. It is a contract of every layer, so it lives here, below them all.
 */
export type SettingKind = 'int' | 'number' | 'string' | 'enum' | 'list' | 'url' | 'path' | 'file' | 'secret';

export interface SettingDef {
  readonly name: string;
  readonly kind: SettingKind;
  /** As written in the environment; absent means "not set" (the feature is off). */
  readonly default?: string;
  readonly min?: number;
  readonly max?: number;
  /** `enum`: the accepted values. */
  readonly values?: readonly string[];
  /** `url`: accepted schemes, without the colon. */
  readonly schemes?: readonly string[];
  /** Extra validation of a set value: the problem, or null. */
  readonly check?: (value: string) => string | null;
  readonly doc: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** `tier:key,tier:key`: the shape only (the key store decides what a key grants). */
function checkApiKeys(value: string): string | null {
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)) {
    const i = entry.indexOf(':');
    const tier = i > 0 ? entry.slice(0, i) : '';
    if (!(TIER_NAMES as readonly string[]).includes(tier) || entry.length - i - 1 < 8) {
      return `entries must be tier:key with a tier of ${TIER_NAMES.join('|')} and a key of 8+ characters (bad entry #${value.split(',').indexOf(entry) + 1})`;
    }
  }
  return null;
}

function checkSpeed(value: string): string | null {
  const n = Number(value);
  return value === 'max' || (Number.isFinite(n) && n > 0) ? null : 'must be a positive number or "max"';
}

export const SETTINGS = [
  {
    name: 'ROLE',
    kind: 'enum',
    default: 'all',
    values: ['all', 'pipeline', 'api'],
    doc: '`all`: feed, pipeline and API in one process; `pipeline`: feed and processors only; `api`: API replica reading the changelogs (both need `KAFKA_BROKERS`)',
  },
  {
    name: 'PORT',
    kind: 'int',
    default: '8080',
    min: 0,
    max: 65535,
    doc: 'HTTP port (the pipeline role serves only `/health` on it, and the operator endpoints with `METRICS_TOKEN`)',
  },
  { name: 'HOST', kind: 'string', default: '127.0.0.1', doc: 'listen address (`0.0.0.0` in a container)' },
  {
    name: 'PUBLIC_BASE_URL',
    kind: 'url',
    schemes: ['http', 'https'],
    check: (value) => (new URL(value).pathname === '/' ? null : 'must be an origin (scheme, host and port), without a path'),
    doc: 'where clients reach this API (`https://odds.example.com`): every `deep_link` is an absolute URL on it. Unset: the address the server listens on (`http://HOST:PORT`, `localhost` for a wildcard `HOST`)',
  },
  {
    name: 'DATA_DIR',
    kind: 'path',
    default: './data',
    doc: 'the embedded store, the demo keys and the instance lock (one process per directory)',
  },
  { name: 'LOG_LEVEL', kind: 'enum', default: 'info', values: LOG_LEVELS, doc: 'pino level' },
  {
    name: 'LOG_FORMAT',
    kind: 'enum',
    default: 'auto',
    values: ['auto', 'pretty', 'json'],
    doc: '`auto`: readable lines when standard output is a terminal, JSON lines (one object each, for a log collector) otherwise',
  },
  {
    name: 'FEED',
    kind: 'enum',
    default: 'simulator',
    values: ['simulator', 'replay', 'theoddsapi', 'betfair', 'none'],
    doc: 'where ticks come from (`betfair`: the Betfair Exchange Stream); `none` for extra pipeline workers that only process',
  },
  { name: 'SIM_SEED', kind: 'int', default: '42', min: 0, max: 2 ** 31 - 1, doc: 'simulator seed: the same seed gives the same market' },
  {
    name: 'SIM_TICKS_PER_SECOND',
    kind: 'int',
    // The simulated books confirm each price about once a minute, as the recorded ones do: about
    // 750 ticks a second on the whole board. At 200 the confirmations queued and every book's
    // pre-match price read 2-3 minutes old; one process holds 1,000 (docs/simulator.md, "Stop 50").
    default: '1000',
    min: 1,
    max: 1_000_000,
    doc: 'simulated price updates per second (up to 100k for load); below about 750 the books cannot keep their confirmation cadence and pre-match prices age by the backlog (docs/simulator.md)',
  },
  {
    name: 'SIM_STEP_MS',
    kind: 'int',
    default: '100',
    min: 1,
    max: 60_000,
    doc: 'how often the simulator emits its ticks: each step carries the ticks of its interval, stamped at the step (smaller steps: smaller, more frequent bursts, as a streaming feed delivers them)',
  },
  {
    name: 'SPLITS_INTERVAL_SECONDS',
    kind: 'int',
    default: '300',
    min: 0,
    max: 86_400,
    doc: 'seconds between two rounds of simulated betting splits (draftkings, circa); `0` turns them off',
  },
  {
    name: 'REPLAY_FILE',
    kind: 'file',
    doc: 'recording to replay (`.jsonl` or `.jsonl.gz`), with `FEED=replay`: The Odds API snapshots, or Betfair Exchange Stream messages (told apart by the first line)',
  },
  {
    name: 'REPLAY_SPEED',
    kind: 'string',
    default: 'max',
    check: checkSpeed,
    doc: 'replayed time per real time (`60`: an hour a minute), or `max`',
  },
  { name: 'THEODDSAPI_KEY', kind: 'secret', doc: 'The Odds API key, with `FEED=theoddsapi`' },
  {
    name: 'THEODDSAPI_SPORTS',
    kind: 'list',
    default: 'americanfootball_nfl,basketball_nba,icehockey_nhl,soccer_epl',
    doc: 'sport keys to poll',
  },
  { name: 'THEODDSAPI_REGIONS', kind: 'list', default: 'us', doc: 'bookmaker regions (`us`, `us2`, `uk`, `eu`, `au`)' },
  { name: 'THEODDSAPI_MARKETS', kind: 'list', default: 'h2h,spreads,totals', doc: 'markets to poll' },
  {
    name: 'THEODDSAPI_BASE_URL',
    kind: 'url',
    default: 'https://api.the-odds-api.com',
    schemes: ['http', 'https'],
    doc: 'The Odds API base URL (tests point it at a fake)',
  },
  { name: 'BETFAIR_APP_KEY', kind: 'secret', doc: 'Betfair application key, with `FEED=betfair`' },
  {
    name: 'BETFAIR_SESSION_TOKEN',
    kind: 'secret',
    doc: 'Betfair session token (from a login; it expires: the feed then logs in again when the certificate login is set, else stops saying so), with `FEED=betfair`',
  },
  {
    name: 'BETFAIR_STREAM_HOST',
    kind: 'string',
    default: 'stream-api.betfair.com',
    doc: 'Exchange Stream host (TLS); `stream-api-integration.betfair.com` for the delayed integration stream',
  },
  { name: 'BETFAIR_STREAM_PORT', kind: 'int', default: '443', min: 1, max: 65535, doc: 'Exchange Stream port' },
  {
    name: 'BETFAIR_EVENT_TYPES',
    kind: 'list',
    default: '1,4',
    doc: 'Betfair event type ids to subscribe to (`1` soccer, `4` cricket, `7522` basketball, `6423` American football)',
  },
  { name: 'BETFAIR_MARKET_TYPES', kind: 'list', default: 'MATCH_ODDS', doc: 'Betfair market types to subscribe to' },
  { name: 'BETFAIR_COUNTRIES', kind: 'list', doc: 'country codes of the markets to subscribe to; all when unset' },
  {
    name: 'BETFAIR_BOOK',
    kind: 'string',
    default: 'betfair_ex_eu',
    doc: "the sportsbook id the exchange's prices carry (a book of the catalog)",
  },
  {
    name: 'BETFAIR_CATALOGUE_FILE',
    kind: 'file',
    doc: 'runner and event names for a Betfair replay, in the shape of a `listMarketCatalogue` answer; unset: every `betfair_catalogue_*.json` beside `REPLAY_FILE`',
  },
  {
    name: 'BETFAIR_BETTING_API_URL',
    kind: 'url',
    default: 'https://api.betfair.com/exchange/betting/rest/v1.0',
    schemes: ['http', 'https'],
    doc: 'Betting API base URL, asked for the names of each new market (`listMarketCatalogue`) with `FEED=betfair`',
  },
  {
    name: 'BETFAIR_COMMISSION',
    kind: 'number',
    min: 0,
    max: 99,
    doc: "commission percent the exchange account pays on net winnings, when it is not each market's base rate (a discounted account); exchange prices are shown net of it",
  },
  {
    name: 'BETFAIR_USERNAME',
    kind: 'secret',
    doc: 'Betfair account username for the certificate login (at start without `BETFAIR_SESSION_TOKEN`, and again whenever the session expires), with `FEED=betfair`',
  },
  { name: 'BETFAIR_PASSWORD', kind: 'secret', doc: 'Betfair account password for the certificate login' },
  {
    name: 'BETFAIR_CERT_FILE',
    kind: 'file',
    doc: 'client certificate (PEM) linked to the Betfair account, for the certificate login; with `BETFAIR_KEY_FILE`',
  },
  { name: 'BETFAIR_KEY_FILE', kind: 'file', doc: "the client certificate's private key (PEM, unencrypted)" },
  {
    name: 'BETFAIR_LOGIN_URL',
    kind: 'url',
    default: 'https://identitysso-cert.betfair.com/api/certlogin',
    schemes: ['https'],
    doc: 'Betfair certificate login endpoint (`identitysso-cert.betfair.it`, `.es`, … for other jurisdictions)',
  },
  {
    name: 'CLICKHOUSE_URL',
    kind: 'url',
    schemes: ['http', 'https'],
    doc: 'use a ClickHouse server (e.g. `http://localhost:8123`) instead of embedded chDB; checked at start',
  },
  { name: 'CLICKHOUSE_USER', kind: 'string', default: 'default', doc: 'ClickHouse user' },
  { name: 'CLICKHOUSE_PASSWORD', kind: 'secret', default: '', doc: 'ClickHouse password' },
  { name: 'CLICKHOUSE_DATABASE', kind: 'string', default: 'default', doc: 'ClickHouse database' },
  {
    name: 'REDIS_URL',
    kind: 'url',
    schemes: ['redis', 'rediss'],
    doc: 'share rate-limit counters and browser sessions between API replicas through Redis',
  },
  { name: 'KAFKA_BROKERS', kind: 'list', doc: 'run the topics on Kafka (`host:port,...`) instead of the in-process bus' },
  {
    name: 'SCHEMA_REGISTRY_URL',
    kind: 'url',
    schemes: ['http', 'https', 'mock'],
    doc: 'with `KAFKA_BROKERS`: Avro values in the Confluent wire format, schemas registered here (BACKWARD); JSON values when unset. `mock://` uses an in-process registry (tests)',
  },
  {
    name: 'KAFKA_SESSION_TIMEOUT_MS',
    kind: 'int',
    default: '30000',
    min: 3000,
    max: 300_000,
    doc: 'how long a vanished consumer (a killed process) keeps its partitions before the group moves them',
  },
  {
    name: 'BUS_LOG_RETENTION_MINUTES',
    kind: 'int',
    default: '60',
    min: 0,
    max: 10_080,
    doc: "without Kafka: the in-process bus saves its log in `DATA_DIR` when the process stops and the next start continues it (offsets, changelogs, the pipeline's committed places), so delta cursors and stream ids from before a restart resume. It keeps every row's latest change; a removal older than this many minutes is left out, and positions from before it get the resync. A running bus lets go of such removals too, so its memory holds the current rows, not every row that ever was. `0`: each run starts a new log (a run still forgets removals after the default's 60 minutes)",
  },
  {
    name: 'PIPELINE_THREAD',
    kind: 'enum',
    default: 'api',
    values: ['api', 'worker'],
    doc: "without Kafka (`ROLE=all`): where the feed, the pipeline's stages and their sinks run. `api`: on the API's event loop (a burst of pipeline work delays every request); `worker`: in a worker thread of the same process, whose records of the topics the API reads reach the API thread's copy of the log at the same offsets (the embedded store stays on the API thread). A worker that fails, exits or stops answering turns `/health` down and stops the process. With Kafka the roles split by process instead",
  },
  {
    name: 'API_REPLICA_ID',
    kind: 'string',
    default: '<hostname>',
    check: (v) => (/^[A-Za-z0-9_.-]{1,64}$/.test(v) ? null : 'must be 1-64 letters, digits, dot, dash or underscore'),
    doc: "names this API process's changelog consumer groups (`api-<id>-...`): stable across restarts, unique per replica",
  },
  {
    name: 'API_KEYS',
    kind: 'secret',
    default: '',
    check: checkApiKeys,
    doc: 'extra keys with operator-chosen secrets, `tier:key` comma-separated (e.g. `pro:abc12345,free:xyz98765`); registered as ordinary keys at start, and a known secret follows the tier given here',
  },
  {
    name: 'ALERT_SECRET_KEY',
    kind: 'secret',
    check: (v) => (/^[0-9a-fA-F]{64}$/.test(v) ? null : 'must be 64 hex digits (32 bytes), e.g. from `openssl rand -hex 32`'),
    doc: "seals alert rules' webhook signing secrets in the store and on the accounts topic; every API replica needs the same one. Unset: a key made once in `DATA_DIR/alert-secret.key` (one replica)",
  },
  {
    name: 'SESSION_HOURS',
    kind: 'int',
    default: '12',
    min: 1,
    max: 720,
    doc: 'how long a web screen sign-in (session cookie) lasts before the key must be entered again',
  },
  {
    name: 'USAGE_FLUSH_MS',
    kind: 'int',
    default: '5000',
    min: 100,
    max: 600_000,
    doc: 'how often each API replica writes its buffered request counts to `api_usage`',
  },
  {
    name: 'DEEPLINK_TEMPLATES',
    kind: 'file',
    doc: 'a JSON file of deep-link URL templates per sportsbook, merged over the built-in table (below)',
  },
  {
    name: 'ANALYST_PORT',
    kind: 'int',
    min: 0,
    max: 65535,
    doc: 'embedded store only: serve read-only ClickHouse HTTP SQL (for `@clickhouse/client`, curl) on this port; off when unset',
  },
  { name: 'ANALYST_USER', kind: 'string', default: 'analyst', doc: 'user name the analyst endpoint accepts' },
  {
    name: 'ANALYST_PASSWORD',
    kind: 'secret',
    check: (v) => (v.length >= 8 ? null : 'must be 8+ characters'),
    doc: 'its password; required with `ANALYST_PORT`',
  },
  {
    name: 'ANALYST_MAX_SECONDS',
    kind: 'int',
    default: '120',
    min: 1,
    max: 24 * 3600,
    doc: 'longest an analyst statement runs; then ClickHouse cancels it (code 159, TIMEOUT_EXCEEDED)',
  },
  {
    name: 'ANALYST_MAX_MEMORY_MB',
    kind: 'int',
    default: '4096',
    min: 16,
    max: 1024 * 1024,
    doc: 'memory one analyst statement may use (code 241, MEMORY_LIMIT_EXCEEDED, beyond)',
  },
  {
    name: 'ANALYST_MAX_ROWS_READ',
    kind: 'int',
    default: '10000000000',
    min: 1,
    max: 1e15,
    doc: 'rows one analyst statement may read (code 158, TOO_MANY_ROWS, beyond)',
  },
  {
    name: 'ANALYST_MAX_RESULT_MB',
    kind: 'int',
    default: '100',
    min: 1,
    max: 64 * 1024,
    doc: 'size of one analyst result (code 396, TOO_MANY_ROWS_OR_BYTES, beyond)',
  },
  {
    name: 'ANALYST_THREADS',
    kind: 'int',
    default: '1',
    min: 1,
    max: 256,
    doc: 'engine threads per analyst statement: the rest of the cores stay with the API and the pipeline',
  },
  {
    name: 'ANALYST_CONCURRENCY',
    kind: 'int',
    default: '2',
    min: 1,
    max: 64,
    doc: 'analyst statements running at once; more get 429 with `Retry-After` (code 202, TOO_MANY_SIMULTANEOUS_QUERIES)',
  },
  {
    name: 'METRICS_PORT',
    kind: 'int',
    min: 0,
    max: 65535,
    doc: 'serve the operator endpoints (`GET /metrics` in Prometheus text; the pipeline role adds `/stats`) on this port of `HOST`, for a scraper on the private network; off when unset. Never publish it',
  },
  {
    name: 'METRICS_TOKEN',
    kind: 'secret',
    check: (v) => (v.length >= 16 ? null : 'must be 16+ characters'),
    doc: 'bearer token (`Authorization: Bearer ...`) the operator endpoints then require, on `METRICS_PORT` and on `PORT`, which serves them only when this is set',
  },
  {
    name: 'DELTA_WINDOW_MINUTES',
    kind: 'int',
    default: '15',
    min: 1,
    max: 24 * 60,
    doc: 'how far back `/odds/delta?since=` can answer from memory; older gets 410 `resync_required`',
  },
  {
    name: 'DELTA_WINDOW_CHANGES',
    kind: 'int',
    default: '500000',
    min: 1_000,
    max: 50_000_000,
    doc: 'the most changes kept for deltas, whatever their age',
  },
  {
    name: 'PHANTOM_MAX_PROFIT_PERCENT',
    kind: 'number',
    default: '10',
    min: 0,
    max: 1000,
    doc: 'a guaranteed profit (arbitrage, a negative low hold, a middle that cannot lose) above this % is flagged `LIVE_HIGH_PROFIT_SUSPICIOUS` and left out of default lists and streams (`include=suspicious` shows it)',
  },
  {
    name: 'VERY_STALE_FACTOR',
    kind: 'number',
    // Measured on the recordings: in play a price two thresholds old was never updated again by its
    // book in 100 of 101 cases, and before the game its next update moved it in 60 % against 9 %
    // for fresh prices (docs/opportunities.md, "How stale is very stale"). It was 5.
    default: '2',
    min: 1,
    max: 1000,
    doc: "an opportunity whose first-to-go-stale price is older than this many times its book's stale threshold is flagged `VERY_STALE_ODDS` and left out of default lists and streams",
  },
  {
    name: 'ONE_SIDED_MARGIN_PERCENT',
    kind: 'number',
    default: '5',
    min: 0,
    max: 50,
    doc: "the margin (%) a fair-line recipe takes off a one-sided price (a prop a reference book posts one side of) when the caller gives no `assumed_margin` and the book has no complete market on the family's other lines to borrow its own from",
  },
  {
    name: 'STREAM_REPLAY_FRAMES',
    kind: 'int',
    default: '20000',
    min: 100,
    max: 10_000_000,
    doc: 'sequence numbers the SSE/WebSocket replay window keeps (a reconnect inside it resumes exactly)',
  },
  {
    name: 'STREAM_REPLAY_SECONDS',
    kind: 'int',
    default: '120',
    min: 1,
    max: 24 * 3600,
    doc: 'the longest a frame stays in the replay window; older resumes get a fresh snapshot marked `resync`',
  },
  {
    name: 'STREAM_REPLAY_MB',
    kind: 'int',
    default: '256',
    min: 1,
    max: 64 * 1024,
    doc: 'memory the replay window may use for rendered frames (their SSE text; the WebSocket form shares its strings); the oldest frames go first',
  },
  {
    name: 'STREAM_BUFFER_KB',
    kind: 'int',
    default: '4096',
    min: 16,
    max: 1024 * 1024,
    doc: 'bytes a stream connection may have unsent (beyond its initial snapshot) before it is told `backpressure` and closed',
  },
  {
    name: 'STREAM_HEARTBEAT_SECONDS',
    kind: 'int',
    default: '30',
    min: 1,
    max: 3600,
    doc: 'heartbeat period on idle and busy streams alike',
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    kind: 'int',
    default: '30000',
    min: 100,
    max: 600_000,
    doc: 'a request (headers and body) must arrive within this, else 408 `request_timeout` and the connection closes',
  },
  {
    name: 'HEADERS_TIMEOUT_MS',
    kind: 'int',
    default: '30000',
    min: 100,
    max: 600_000,
    doc: 'the headers alone must arrive within this (at most `REQUEST_TIMEOUT_MS`). Node checks both deadlines before reading sockets, so an event loop blocked longer than a timeout turns unread requests into 408s: keep them well above the longest pause',
  },
  {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    kind: 'int',
    default: '72000',
    min: 100,
    max: 600_000,
    doc: 'an idle keep-alive connection closes after this',
  },
  {
    name: 'MAX_CONNECTIONS_PER_ADDRESS',
    kind: 'int',
    default: '256',
    min: 1,
    max: 1_000_000,
    doc: 'open connections one client address may hold; the next gets 429 `concurrent_request_cap` and is closed (behind a proxy, every client shares its address: raise it)',
  },
  {
    name: 'SHED_EVENT_LOOP_DELAY_MS',
    kind: 'int',
    default: '200',
    min: 0,
    max: 60_000,
    doc: 'event-loop delay above which keyed requests are refused with 503 `overloaded` and `Retry-After` (`/health` is never shed); `0` turns shedding off',
  },
  {
    name: 'SHED_TURN_BUDGET_MS',
    kind: 'int',
    default: '50',
    min: 1,
    max: 60_000,
    doc: 'longest a keyed request may wait for its turn: keyed requests are served one per event-loop turn (so `/health` is answered between any two), and one whose projected wait is longer is shed the same way (bounds the wait of what is admitted)',
  },
  { name: 'SINK_BATCH_ROWS', kind: 'int', default: '20000', min: 1, max: 1_000_000, doc: 'ClickHouse insert size' },
  { name: 'SINK_MAX_WAIT_MS', kind: 'int', default: '1000', min: 0, max: 60_000, doc: 'longest wait before a smaller insert' },
  {
    name: 'SINK_RETRIES',
    kind: 'int',
    default: '8',
    min: 0,
    max: 1_000,
    doc: 'attempts after an insert the store refused (backoff from 200 ms, doubling to 30 s); then the process stops. A store that does not answer is waited for without limit',
  },
  {
    name: 'FAILURE_EXIT_DELAY_MS',
    kind: 'int',
    default: '2000',
    min: 0,
    max: 60_000,
    doc: 'after a stage fails, how long `/health` answers 503 `down` before the process exits non-zero',
  },
] as const satisfies readonly SettingDef[];

export type SettingName = (typeof SETTINGS)[number]['name'];
const DEFAULTS = new Map<string, string | undefined>(SETTINGS.map((s: SettingDef) => [s.name, s.default]));

/**
 * A numeric setting's default, for a component that takes the setting as an option and must
 * behave the same when built without one (tests, the bench): one number, written once, here.
 */
export function settingDefault(name: SettingName): number {
  const value = Number(DEFAULTS.get(name));
  if (!Number.isFinite(value)) throw new Error(`setting ${name} has no numeric default`);
  return value;
}
