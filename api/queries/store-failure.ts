import { ApiError } from '../errors.js';

/** How one store's failure reads to clients. */
export interface StoreFailure {
  /** The `unavailable` message, given the failure's own text. */
  message: (cause: string) => string;
  /** Which thrown values are the store's failure; the rest propagate (a 500). Every one but an `ApiError` when absent. */
  isStoreFailure?: (e: unknown) => boolean;
}

/** The history store (ClickHouse or chDB: odds ticks, closing lines, CLV, splits history). */
export const HISTORY_STORE: StoreFailure = {
  message: (cause) => `The history store cannot answer right now: ${cause.slice(0, 200)}`,
};

/**
 * Runs a store read or write. A store that cannot answer is the service's trouble, not the
 * caller's: `unavailable` (503 on REST, retry), never a 500. An `ApiError` the run throws itself
 * (an unknown event found on the way) is the answer as it is.
 */
export async function fromStore<T>(run: () => Promise<T>, failure: StoreFailure = HISTORY_STORE): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ApiError || !(failure.isStoreFailure?.(e) ?? true)) throw e;
    throw new ApiError('unavailable', failure.message(e instanceof Error ? e.message : String(e)));
  }
}
