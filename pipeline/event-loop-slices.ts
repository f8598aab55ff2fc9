import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Longest stretch a sink's batch work holds the event loop before it lets other work run.
 *
 * In one process the loop that maps a sink's batch to rows and builds the embedded store's insert
 * text also applies ticks to the board and writes the streams' frames. A sink waits up to a
 * second to make large inserts, so its batch (a second of odds changes, or of opportunity
 * versions of about 3 KB of JSON each) took 6-27 ms in one piece, and a tick that arrived then
 * waited for all of it: measured in the stream bench, the opportunities sink alone held the loop
 * for 6 ms at the median and 27 ms at worst, four times a second.
 */
export const SLICE_MS = 2;

/** How many items go between two looks at the clock (a look costs about as much as a cheap item). */
const ITEMS_PER_LOOK = 8;

/**
 * Visits `items` in order, giving the event loop a turn whenever a slice of `sliceMs` has passed.
 * The order and the result are those of a plain loop; only other work may run in between.
 */
export async function forEachInSlices<T>(
  items: readonly T[],
  visit: (item: T, index: number) => void,
  sliceMs: number = SLICE_MS,
): Promise<void> {
  let since = performance.now();
  for (let i = 0; i < items.length; i++) {
    visit(items[i] as T, i);
    if (i % ITEMS_PER_LOOK === ITEMS_PER_LOOK - 1 && performance.now() - since >= sliceMs) {
      await nextTurn();
      since = performance.now();
    }
  }
}
