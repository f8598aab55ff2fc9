import type { DeadLetter, FeedRecord, RawGameState } from '../../schemas/index.js';

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

/**
 * A feed that also reports how games stand (status, score, period, clock). Registered before
 * `start`; the runner sends what it gets to `gamestate.raw`. Odds recordings have no game state.
 */
export interface GameStateSource {
  onGameState(emit: (states: RawGameState[]) => Promise<void>): void;
}

export function gameStateSource(feed: Feed): GameStateSource | null {
  const candidate = feed as Partial<GameStateSource>;
  return typeof candidate.onGameState === 'function' ? (feed as Feed & GameStateSource) : null;
}

/**
 * A feed whose source sends messages it may not be able to read (a stream protocol, a
 * recording of one): each such message goes to the dead-letter topic with the reason, and the
 * feed goes on. Registered before `start`.
 */
export interface DeadLetterSource {
  onDeadLetter(emit: (letters: DeadLetter[]) => Promise<void>): void;
}

export function deadLetterSource(feed: Feed): DeadLetterSource | null {
  const candidate = feed as Partial<DeadLetterSource>;
  return typeof candidate.onDeadLetter === 'function' ? (feed as Feed & DeadLetterSource) : null;
}
