import type { FastifyRequest } from 'fastify';
import type { HttpLimits, RuntimeCheck } from '../schemas/index.js';
import type { Clock } from '../pipeline/clock.js';
import type { PipelineStats } from '../pipeline/pipeline.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { Accounts, KeyStore, UsageRecorder } from './accounts/index.js';
import type { Bets } from './bets/index.js';
import type { LoadProbe } from './plugins/load-shedding.js';
import type { RateLimitStore } from './plugins/rate-limit.js';
import type { LiveBoard } from './views/board.js';
import type { Catalog } from './views/catalog.js';
import type { FuturesBoard } from './views/futures-board.js';
import type { GameStateBoard } from './views/gamestate-board.js';
import type { OpportunityBoard } from './views/opportunity-board.js';
import type { SplitsBoard } from './views/splits-board.js';
import type { TierViews } from './views/tier-views.js';
import type { StreamService, StreamSettings } from './stream/index.js';
import type { SessionLimits } from './mcp/sessions.js';

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
  /**
   * Sees every answer body before serialization (contract tests check it against the route's
   * response schema, which serialization would otherwise silently apply).
   */
  inspectPayload?: PayloadInspector;
  /** Stream settings (replay window, buffers, heartbeats, limits); defaults when absent. */
  stream?: Partial<StreamSettings>;
  /** How long a browser session lasts (ms); 12 hours when absent. */
  sessionTtlMs?: number;
  /** The built web screen (a folder with index.html), served at `/`; no screen when absent. */
  webRoot?: string;
  /** MCP session limits (idle time, per account, in all); the defaults when absent. */
  mcpSessions?: Partial<SessionLimits>;
  /** Hands over the stream service once made (tests and the bench read its hub). */
  onStreams?: (service: StreamService) => void;
}

export type PayloadInspector = (request: FastifyRequest, statusCode: number, payload: unknown) => void;

/** The deps the odds-serving routes get: `views` always present. */
export type ServingDeps = AppDeps & { views: TierViews };
