import type { Clock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import type { KeyStore } from './keys.js';
import type { RateLimitStore } from './plugins/rate-limit.js';
import type { LiveBoard } from './views/board.js';
import type { Catalog } from './views/catalog.js';

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
}
