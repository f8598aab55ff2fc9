import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent, MarketId, OddsChange } from '../../schemas/index.js';
import { MemoryBus } from '../../pipeline/bus/index.js';
import type { Bus } from '../../pipeline/bus/index.js';
import { rowId } from '../../pipeline/snapshot/index.js';
import type { Catalog, LiveBoard } from '../views/index.js';
import { eventMatches } from '../views/index.js';
import type { OddsFilters } from './odds.js';

/** Where a changelog record sits in its topic. */
export interface LogPlace {
  partition: number;
  offset: number;
}

/** Reads the odds changelog, per partition from one offset (inclusive) to another (exclusive): the bus port, narrowed. */
export type OddsChangelogReader = (
  from: readonly number[],
  before: readonly number[],
  visit: (change: OddsChange, at: LogPlace) => void,
) => Promise<void>;

/** The changelogs of `DELTA_TOPICS`, read between offsets outside any consumer group. */
export interface ChangelogReader {
  odds: OddsChangelogReader;
  /** Every event record between the offsets of the events changelog: its id, and the event (null: a tombstone). */
  events(from: readonly number[], before: readonly number[], visit: (eventId: string, event: CanonicalEvent | null) => void): Promise<void>;
  /**
   * Per changelog, per partition, the earliest offset from which a read still returns the latest
   * change of every key (older removals may be gone: retention); absent when the log keeps them all.
   */
  completeFrom?(): readonly (readonly number[])[];
}

/** The changelogs of `/odds/delta` positions between two of them, read through the bus outside any consumer group. */
export function changelogReader(bus: Bus): ChangelogReader {
  return {
    odds: (from, before, visit) =>
      bus.readToEnd(
        TOPICS.snapshot,
        (records) => {
          for (const r of records) if (r.value) visit(r.value, r);
        },
        { from: (p) => from[p] ?? 0, before: (p) => before[p] ?? 0 },
      ),
    events: (from, before, visit) =>
      bus.readToEnd(
        TOPICS.events,
        (records) => {
          for (const r of records) visit(r.key, r.value);
        },
        { from: (p) => from[p] ?? 0, before: (p) => before[p] ?? 0 },
      ),
    // The in-process bus may have left old removals out of a saved log; Kafka's retention is the cluster's.
    ...(bus instanceof MemoryBus ? { completeFrom: () => [bus.completeFrom(TOPICS.snapshot), bus.completeFrom(TOPICS.events)] } : {}),
  };
}

/** The market and sportsbook a row key names (`oddsRowKey`: event id, market, ..., book). */
export function keyParts(key: string, eventId: string): { market: MarketId; book: string } {
  const rest = key.slice(eventId.length + 1).split('|');
  return { market: rest[0] as MarketId, book: rest[rest.length - 1] ?? '' };
}

/** A row removed while this board did not hold it, as the delta's `removed` names it. */
export interface LostRemoval {
  key: string;
  id: string;
  eventId: string;
  book: string;
  market: MarketId;
}

/**
 * The rows removed after `from` that this board cannot report from its own change log: a replica
 * that loaded the changelog after the removal never held the row, so it never logged its going.
 * Read from the changelog itself: every key whose last change in the range is a removal and that
 * is not on the board now. The row's own fields are gone; its key still names the event, the
 * market and the book (`oddsRowKey`), enough for the id and the row filters that matter.
 */
export async function lostRemovals(
  read: OddsChangelogReader,
  from: readonly number[],
  before: readonly number[],
  board: LiveBoard,
  catalog: Catalog,
  filters: OddsFilters,
): Promise<LostRemoval[]> {
  const last = new Map<string, OddsChange>();
  await read(from, before, (change) => last.set(change.key, change));
  const out: LostRemoval[] = [];
  const eventFilter = { ...filters.event, live: undefined };
  for (const [key, change] of last) {
    if (change.row !== null || board.row(change.eventId, key)) continue;
    const { market, book } = keyParts(key, change.eventId);
    const { books, markets } = filters.row;
    if ((books && !books.has(book)) || (markets && !markets.has(market))) continue;
    const event = board.event(change.eventId);
    if (event && !eventMatches(event, eventFilter, catalog)) continue;
    out.push({ key, id: rowId(key), eventId: change.eventId, book, market });
  }
  return out;
}
