import type { Clock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import type { GameStateBoard } from '../views/index.js';
import type { TierViews } from '../views/index.js';
import type { PositionTrail } from './log-position.js';

/**
 * What the answers read. Each answer takes a `Pick` of the parts it uses, so the query layer
 * depends on the views and the store, never on the app's whole dependency list (`api/deps.ts`,
 * which reaches the stream service, and that calls this layer: a cycle). `AppDeps` has these
 * fields under the same names, so a route hands its deps over as they are.
 */
export interface ReadSide {
  /** The live board: main lines, the last change's time. */
  board: LiveBoard;
  catalog: Catalog;
  clock: Clock;
  /** The board each tier reads (live, or delayed for free). */
  views: TierViews;
  /** The history store (ClickHouse or chDB). */
  store: OlapStore;
  /** Live game states (Enterprise); none when absent. */
  gameStates?: GameStateBoard;
  /** The margin (a fraction) a fair-line recipe assumes on a one-sided price (ONE_SIDED_MARGIN_PERCENT); its default when absent. */
  oneSidedMargin?: number;
  /** Where the live board stands in the changelogs (`/odds/delta`'s `cursor`); no cursors when absent. */
  positions?: PositionTrail;
}
