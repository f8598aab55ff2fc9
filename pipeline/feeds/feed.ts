import type { FeedRecord } from '../../schemas/index.js';

/**
 * A source of raw records: prices (`RawTick`) and, from feeds that have them, betting splits
 * (`RawSplits`). Both kinds go through the one `emit`, in the order the feed saw them, onto the
 * feed's topic; a feed without splits (a replayed recording, The Odds API) simply emits ticks
 * only. The runner hands the feed `emit`, which resolves when the bus accepted the batch: a
 * feed that awaits it is back-pressured by the pipeline.
 */
export interface Feed {
  readonly name: string;
  start(emit: (records: readonly FeedRecord[]) => Promise<void>): Promise<void>;
  /** Stops producing; resolves once no further emit will be called. */
  stop(): Promise<void>;
}
