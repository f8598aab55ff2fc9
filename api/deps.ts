import type { Clock } from '../pipeline/clock.js';
import type { PipelineStats } from '../pipeline/pipeline.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { RuntimeCheck } from '../runtime/health.js';
import type { KeyStore } from './keys.js';
import type { RateLimitStore } from './plugins/rate-limit.js';
import type { LiveBoard } from './views/board.js';
import type { Catalog } from './views/catalog.js';
import type { OpportunityBoard } from './views/opportunity-board.js';
import type { TierViews } from './views/tier-views.js';

/** What the routes read from: views and the catalog, never the bus; the store only for health. */
export interface AppDeps {
  board: LiveBoard;
  catalog: Catalog;
  keys: KeyStore;
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
  /** The board each tier reads (live, or delayed for free); made from `board` when absent. */
  views?: TierViews;
  /** Active opportunities (+EV, arbitrage, middles, low-hold); an empty board when absent. */
  opportunities?: OpportunityBoard;
}

/** The deps the odds-serving routes get: `views` always present. */
export type ServingDeps = AppDeps & { views: TierViews };
