import type { HttpLimits, RuntimeCheck } from '../schemas/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { PipelineStats } from '../pipeline/pipeline.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { Accounts, KeyStore, UsageRecorder } from './accounts/index.js';
import type { Bets } from './bets/index.js';
import type { LoadProbe } from './plugins/index.js';
import type { PayloadInspector } from './plugins/index.js';
import type { RateLimitStore } from './plugins/index.js';
import type { LiveBoard } from './views/index.js';
import type { Catalog } from './views/index.js';
import type { FuturesBoard } from './views/index.js';
import type { GameStateBoard } from './views/index.js';
import type { OpportunityBoard } from './views/index.js';
import type { SplitsBoard } from './views/index.js';
import type { TierViews } from './views/index.js';
import type { AlertFollower, StreamService, StreamSettings } from './stream/index.js';
import type { PositionTrail } from './queries/index.js';
import type { SessionLimits } from './mcp/index.js';

/** What the routes read from: views and the catalog, never the bus; the store only for health and the operator's parts gauge. */
export interface AppDeps {
  board: LiveBoard;
  catalog: Catalog;
  keys: KeyStore;
  /** Key management (the /account routes); absent in apps built without a key store behind them. */
  accounts?: Accounts;
  /** The bet ledger's write side and view (the /bets routes and tools); absent = no ledger. */
  bets?: Bets;
  /** Request counting per key and endpoint; absent = not counted. */
  usage?: UsageRecorder;
  /** Wall clock of keys and usage (grace periods, usage periods); injectable for tests. */
  now?: () => number;
  rateLimits: RateLimitStore;
  clock: Clock;
  store: OlapStore;
  version: string;
  redisUrl: string | null;
  /** Pipeline progress for health: null when this process runs no pipeline. */
  pipelineLag?: () => number;
  /** The runtime's own check (store damage at start, a failed stage); ok when absent. */
  runtime?: () => RuntimeCheck;
  /** This process applied every migration before it served (see `HealthSource.schemaApplied`). */
  schemaApplied?: boolean;
  /** Pipeline counters for /metrics: absent when this process runs no pipeline. */
  pipelineStats?: () => PipelineStats;
  /** METRICS_TOKEN: `GET /metrics` on the API port only with it as a bearer token; absent or null: not on the API port. */
  metricsToken?: string | null;
  /** The board each tier reads (live, or delayed for free); made from `board` when absent. */
  views?: TierViews;
  /** Request timeouts, the per-address connection cap and load shedding; defaults without shedding when absent. */
  http?: HttpLimits;
  /** What load shedding reads of the process (clock, turns, event-loop delay); the process itself when absent. */
  loadProbe?: LoadProbe;
  /** Active opportunities (+EV, arbitrage, middles, low-hold); an empty board when absent. */
  opportunities?: OpportunityBoard;
  /** Current betting splits, kept by the `splits` changelog; an empty board when absent. */
  splits?: SplitsBoard;
  /** Live game states (Enterprise); an empty board when absent. */
  gameStates?: GameStateBoard;
  /** Futures boards and each market's fair line and +EV, kept by the futures changelogs. */
  futures?: FuturesBoard;
  /** Every alert this replica's rules raise (the `alerts` stream channel); the channel stays quiet when absent. */
  alerts?: AlertFollower;
  /**
   * Sees every answer body before serialization (contract tests check it against the route's
   * response schema, which serialization would otherwise silently apply).
   */
  inspectPayload?: PayloadInspector;
  /** Stream settings (replay window, buffers, heartbeats, limits); defaults when absent. */
  stream?: Partial<StreamSettings>;
  /** How long a browser session lasts (ms); 12 hours when absent. */
  sessionTtlMs?: number;
  /** ONE_SIDED_MARGIN_PERCENT as a fraction: what a fair-line recipe assumes a one-sided price carries (default 5 %). */
  oneSidedMargin?: number;
  /** Where the live board stands in the changelogs: `/odds/delta` positions (`cursor`); no cursors when absent. */
  positions?: PositionTrail;
  /** The built web screen (a folder with index.html), served at `/`; no screen when absent. */
  webRoot?: string;
  /** MCP session limits (idle time, per account, in all); the defaults when absent. */
  mcpSessions?: Partial<SessionLimits>;
  /** Hands over the stream service once made (tests and the bench read its hub). */
  onStreams?: (service: StreamService) => void;
}

/** The deps the odds-serving routes get: `views` always present. */
export type ServingDeps = AppDeps & { views: TierViews };
