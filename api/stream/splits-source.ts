import { SPLITS_BOOKS, splitsKey } from '../../schemas/index.js';
import type { CanonicalEvent, OddsChange, SplitsSnapshot } from '../../schemas/index.js';
import { presentSplits } from '../contract/index.js';
import type { BoardListener, LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import { querySplits, splitsMatch } from '../queries/index.js';
import type { SplitsQuery } from '../queries/index.js';
import { jsonArray } from './frames.js';
import type { FramePayload } from './frames.js';
import type { Group, SourceBatch, StreamSource } from './hub.js';
import { presentedChange } from '../views/index.js';

export const SPLITS_CHANNEL = 'splits';
/** Records per `splits:update` frame (a 5-minute refresh brings every event's at once). */
export const SPLITS_CHUNK = 1000;

const BOOK_ORDER = new Map<string, number>(SPLITS_BOOKS.map((b, i) => [b, i]));

/** What a subscriber asked of the splits channel: the `/splits` filters, and whose prices it may see. */
export interface SplitsSpec {
  query: Omit<SplitsQuery, 'delayMs'>;
  /** Books whose lines and prices the tier may read (others are presented with nulls, as on `/splits`). */
  pricesOpen: ReadonlySet<string>;
}

/** A record a group holds, as it was last sent. */
interface Held {
  snapshot: SplitsSnapshot;
  event: CanonicalEvent;
  json: string;
}

interface SplitsBatch {
  /** Snapshots newly visible at this feed's delay, at most one per key. */
  snapshots: SplitsSnapshot[];
  /** Events whose odds came or went, or whose presented fields changed: records of theirs may join, leave or change. */
  events: string[];
}

/** The `{event_id, sportsbook}` pair that names a record in `splits:removed`. */
function removedName(s: SplitsSnapshot): string {
  return `{"event_id":${JSON.stringify(s.eventId)},"sportsbook":${JSON.stringify(s.book)}}`;
}

/**
 * The `splits` channel of one board (live, or a tier's delayed one, whose splits arrive as late
 * as its odds). Snapshots come from `SplitsBoard.subscribe` at the feed's delay; a group gets
 * `splits:update` with each record that matches its `/splits` filters (the same `splitsMatch`
 * test) and `splits:removed` for a record it held that no longer does. `/splits` only lists
 * events the reader's board has odds for, so the board is watched too: an event whose odds come
 * or go, or whose presented fields (start, teams, live) change, is checked again at the flush.
 * A client applying the frames in order holds what `/splits` answers with the same filters.
 */
export class SplitsSource implements StreamSource, BoardListener {
  readonly channel = SPLITS_CHANNEL;
  private pending = new Map<string, SplitsSnapshot>();
  /** Event id -> whether it had odds before the first change since the last flush. */
  private touched = new Map<string, boolean>();
  /** Events whose presented fields changed since the last flush. */
  private changedEvents = new Set<string>();
  private readonly events = new Map<string, CanonicalEvent>();

  constructor(
    readonly feed: string,
    private readonly splits: SplitsBoard,
    readonly delayMs: number,
    private readonly board: LiveBoard,
    private readonly catalog: Catalog,
    private readonly notify: () => void,
  ) {
    for (const e of board.allEvents()) this.events.set(e.id, e);
    board.subscribe(this);
    splits.subscribe((s) => {
      this.pending.set(s.key, s);
      notify();
    }, delayMs);
  }

  applyEvent(event: CanonicalEvent): void {
    const previous = this.events.get(event.id);
    this.events.set(event.id, event);
    if (previous && !presentedChange(previous, event)) return;
    this.changedEvents.add(event.id);
    this.notify();
  }

  eventForgotten(eventId: string): void {
    this.events.delete(eventId);
    this.changedEvents.delete(eventId);
  }

  // Called before the board applies the change: hasOdds still answers for the board before it.
  applyChange(change: OddsChange): void {
    if (!this.touched.has(change.eventId)) this.touched.set(change.eventId, this.board.hasOdds(change.eventId));
  }

  discard(): void {
    this.pending = new Map();
    this.touched = new Map();
    this.changedEvents = new Set();
  }

  take(): SourceBatch[] {
    const events = new Set(this.changedEvents);
    for (const [eventId, had] of this.touched) if (this.board.hasOdds(eventId) !== had) events.add(eventId);
    this.touched = new Map();
    this.changedEvents = new Set();
    const snapshots = [...this.pending.values()];
    this.pending = new Map();
    if (snapshots.length === 0 && events.size === 0) return [];
    const batches: SourceBatch[] = [];
    // Slot 0: splits:removed, slot 1: splits:update.
    for (let i = 0; i < snapshots.length; i += SPLITS_CHUNK) {
      const data: SplitsBatch = { snapshots: snapshots.slice(i, i + SPLITS_CHUNK), events: [] };
      batches.push({ slots: 2, data });
    }
    if (events.size > 0) batches.push({ slots: 2, data: { snapshots: [], events: [...events] } satisfies SplitsBatch });
    return batches;
  }

  /** A new group holds what `/splits` answers now. */
  openGroup(group: Group): void {
    const spec = group.spec.channels.get(SPLITS_CHANNEL) as SplitsSpec;
    const held = new Map<string, Held>();
    for (const m of querySplits(this.splits, this.board, this.catalog, { ...spec.query, delayMs: this.delayMs }).matches) {
      held.set(m.snapshot.key, { snapshot: m.snapshot, event: m.event, json: this.present(m.snapshot, m.event, spec) });
    }
    group.state.set(SPLITS_CHANNEL, held);
  }

  render(batch: SourceBatch, group: Group): { slot: number; payload: FramePayload }[] {
    const { snapshots, events } = batch.data as SplitsBatch;
    const spec = group.spec.channels.get(SPLITS_CHANNEL) as SplitsSpec;
    const held = group.state.get(SPLITS_CHANNEL) as Map<string, Held>;
    const updated: string[] = [];
    const removed: string[] = [];
    const consider = (s: SplitsSnapshot): void => {
      const event = splitsMatch(s, this.board, this.catalog, spec.query);
      const had = held.get(s.key);
      if (event) {
        const json = had && had.snapshot === s && had.event === event ? had.json : this.present(s, event, spec);
        if (had?.json === json) return;
        held.set(s.key, { snapshot: s, event, json });
        updated.push(json);
      } else if (had) {
        held.delete(s.key);
        removed.push(removedName(had.snapshot));
      }
    };
    for (const s of snapshots) consider(s);
    for (const eventId of events) {
      for (const book of SPLITS_BOOKS) {
        const s = held.get(splitsKey(eventId, book))?.snapshot ?? this.splits.latestOf(eventId, [book], this.delayMs)[0];
        if (s) consider(s);
      }
    }
    const out: { slot: number; payload: FramePayload }[] = [];
    if (removed.length > 0) {
      const names = jsonArray(removed);
      out.push({
        slot: 0,
        payload: {
          name: 'splits:removed',
          sse: `{"removed":${names},"count":${removed.length}}`,
          ws: `"removed":${names},"count":${removed.length}`,
        },
      });
    }
    if (updated.length > 0) {
      const rows = jsonArray(updated);
      out.push({
        slot: 1,
        payload: {
          name: 'splits:update',
          sse: `{"splits":${rows},"count":${updated.length}}`,
          ws: `"data":${rows},"count":${updated.length}`,
        },
      });
    }
    return out;
  }

  /** The records a group's new subscriber starts from, serialized, in `/splits` order. */
  snapshot(group: Group): string[] {
    const held = group.state.get(SPLITS_CHANNEL) as Map<string, Held>;
    return [...held.values()]
      .sort(
        (a, b) =>
          a.event.startTime - b.event.startTime ||
          (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0) ||
          (BOOK_ORDER.get(a.snapshot.book) ?? 9) - (BOOK_ORDER.get(b.snapshot.book) ?? 9),
      )
      .map((h) => h.json);
  }

  private present(s: SplitsSnapshot, event: CanonicalEvent, spec: SplitsSpec): string {
    return JSON.stringify(presentSplits(this.catalog, s, event, spec.pricesOpen.has(s.book)));
  }
}
