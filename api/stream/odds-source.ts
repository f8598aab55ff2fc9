import type { CanonicalEvent, OddsChange, OddsRow } from '../../schemas/index.js';
import type { PublicOdds } from '../contract/index.js';
import { allOdds, keyParts, oddsMatch, rowAtRate } from '../queries/index.js';
import type { ChangedRows, OddsFilters } from '../queries/index.js';
import { compareRows, presentedChange } from '../views/index.js';
import type { BoardListener, LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { isMainLine } from '../views/index.js';
import type { MainLines } from '../views/index.js';
import { jsonArray } from './frames.js';
import type { FramePayload } from './frames.js';
import { rowId } from '../../pipeline/snapshot/index.js';
import type { Group, SourceBatch, StreamSource } from './hub.js';
import { putStateInLinks } from '../deeplinks/index.js';

export const ODDS_CHANNEL = 'odds';
/** Rows per `odds:update` frame; a book's larger batch goes out as several with `partial: true`. */
export const ODDS_CHUNK = 1000;

interface Pending {
  eventId: string;
  /** The row and event as the subscribers last saw them (before the first change since the last flush). */
  prevRow: OddsRow | undefined;
  prevEvent: CanonicalEvent | undefined;
  /** Unchanged itself, but presented differently: its main-line flag flipped when lines of its event came or went. */
  restyled?: boolean;
}

/** A row a group holds, as last sent to it. */
interface Held {
  row: OddsRow;
  event: CanonicalEvent;
  /** Presented; a row held since the group opened is presented when first read (`main` then says how). */
  json?: string;
  /** The event's main lines when the group opened, for a row presented later. */
  main?: MainLines;
}

/** A row of a group's snapshot, in board order; presented (once, for every member) when its JSON is first read. */
export class SnapshotRow {
  constructor(
    private readonly held: Held,
    private readonly source: OddsSource,
    private readonly state: string | undefined,
    private readonly commission: number | undefined,
  ) {}

  get book(): string {
    return this.held.row.book;
  }

  get json(): string {
    return this.source.jsonOf(this.held, this.state, this.commission);
  }
}

function compareHeld(a: Held, b: Held): number {
  return (
    a.event.startTime - b.event.startTime || (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0) || compareRows(a.row, b.row)
  );
}

interface Item extends Pending {
  row: OddsRow | undefined;
  event: CanonicalEvent | undefined;
  /** The presented row, serialized once for every group at the board's rate without a state. */
  json?: string;
  /**
   * The same at a subscriber's commission rate and with a state in its deep links, once per
   * (rate, state) some group asked for: 500 groups at one rate share one serialization.
   */
  variants?: Map<string, string>;
}

interface OddsBatch {
  book: string;
  items: Item[];
  partial: boolean;
}

/**
 * The odds channel of one board (the live one, or a tier's delayed one). It remembers, per row
 * key changed since the last flush, the row and event as subscribers last saw them; at the flush
 * it compares with the board now. A group gets `odds:update` for rows that match its filter now
 * (full rows, as REST presents them) and `odds:removed` for rows that matched before and no longer
 * do (pulled, or moved out of the filter, e.g. an event going live under `live=false`), so a client
 * applying frames in order holds exactly what `/odds` would answer with its filters. Rows the book
 * suspended stay (`is_active: false`): they come in `odds:update` like any change and, the moment
 * they lock, again in an `odds:locked` frame of the same shape (as the reference service does).
 */
export class OddsSource implements StreamSource, BoardListener {
  readonly channel = ODDS_CHANNEL;
  private pending = new Map<string, Pending>();
  private readonly events = new Map<string, CanonicalEvent>();
  /** Per event whose rows came or went since the last flush, its main lines before the first such change. */
  private mainBefore = new Map<string, MainLines>();
  /** Open groups that name sportsbooks, by sportsbook; and those that take every book. */
  private readonly byBook = new Map<string, Set<Group>>();
  private readonly everyBook = new Set<Group>();
  /** Per sportsbook, the groups a batch of its odds can reach (built on use, dropped when groups come or go). */
  private audiences = new Map<string, Group[]>();

  constructor(
    readonly feed: string,
    readonly board: LiveBoard,
    private readonly catalog: Catalog,
    private readonly present: (row: OddsRow, event: CanonicalEvent, main?: MainLines) => PublicOdds,
    private readonly notify: () => void,
  ) {
    for (const e of board.allEvents()) this.events.set(e.id, e);
    board.subscribe(this);
  }

  applyEvent(event: CanonicalEvent): void {
    const previous = this.events.get(event.id);
    this.events.set(event.id, event);
    if (previous && !presentedChange(previous, event)) return;
    let any = false;
    for (const [key, row] of this.board.entriesOf(event.id)) {
      if (this.pending.has(key)) continue;
      this.pending.set(key, { eventId: event.id, prevRow: row, prevEvent: previous });
      any = true;
    }
    if (any) this.notify();
  }

  eventForgotten(eventId: string): void {
    this.events.delete(eventId);
  }

  // Called before the board applies the change: the board still holds the previous row.
  applyChange(change: OddsChange): void {
    // A row that comes or goes can move the event's main line, which every row of the family presents.
    if (!this.mainBefore.has(change.eventId) && (change.row === null || !this.board.row(change.eventId, change.key))) {
      this.mainBefore.set(change.eventId, this.board.mainLines(change.eventId));
    }
    if (!this.pending.has(change.key)) {
      this.pending.set(change.key, {
        eventId: change.eventId,
        prevRow: this.board.row(change.eventId, change.key),
        prevEvent: this.events.get(change.eventId),
      });
    }
    this.notify();
  }

  discard(): void {
    this.pending = new Map();
    this.mainBefore = new Map();
  }

  take(): SourceBatch[] {
    for (const [eventId, before] of this.mainBefore) {
      const after = this.board.mainLines(eventId);
      if (after === before) continue;
      const event = this.board.event(eventId);
      for (const [key, row] of this.board.entriesOf(eventId)) {
        if (this.pending.has(key) || isMainLine(before, row) === isMainLine(after, row)) continue;
        this.pending.set(key, { eventId, prevRow: row, prevEvent: event, restyled: true });
      }
    }
    this.mainBefore = new Map();
    if (this.pending.size === 0) return [];
    const byBook = new Map<string, Item[]>();
    for (const [key, p] of this.pending) {
      const row = this.board.row(p.eventId, key);
      const event = this.board.event(p.eventId);
      if (row === p.prevRow && event === p.prevEvent && p.restyled !== true) continue;
      const book = (row ?? p.prevRow)?.book;
      if (book === undefined) continue;
      let items = byBook.get(book);
      if (!items) {
        items = [];
        byBook.set(book, items);
      }
      items.push({ ...p, row, event });
    }
    this.pending = new Map();
    const batches: SourceBatch[] = [];
    for (const [book, items] of byBook) {
      for (let i = 0; i < items.length; i += ODDS_CHUNK) {
        const data: OddsBatch = { book, items: items.slice(i, i + ODDS_CHUNK), partial: i + ODDS_CHUNK < items.length };
        // Slot 0: odds:removed, slot 1: odds:update. Each row key appears once per batch. Slot 2,
        // only when a row of the batch is suspended (a sequence number costs replay-window room):
        // odds:locked, the rows of slot 1 that just locked.
        batches.push({ slots: data.items.some((it) => it.row !== undefined && !it.row.isActive) ? 3 : 2, data });
      }
    }
    return batches;
  }

  /**
   * A batch holds one sportsbook's rows, so only groups serving that book can get frames from
   * it: with 200 groups of one book each, a flush renders each batch for 10 groups, not 200.
   */
  audience(batch: SourceBatch): Group[] {
    const { book } = batch.data as OddsBatch;
    let groups = this.audiences.get(book);
    if (!groups) {
      groups = [...(this.byBook.get(book) ?? []), ...this.everyBook];
      this.audiences.set(book, groups);
    }
    return groups;
  }

  closeGroup(group: Group): void {
    const books = (group.spec.channels.get(ODDS_CHANNEL) as OddsFilters).row.books;
    if (books) {
      for (const b of books) {
        const set = this.byBook.get(b);
        set?.delete(group);
        if (set?.size === 0) this.byBook.delete(b);
      }
    } else this.everyBook.delete(group);
    this.audiences = new Map();
  }

  render(batch: SourceBatch, group: Group): { slot: number; payload: { name: string; sse: string; ws: string } }[] {
    const { book, items, partial } = batch.data as OddsBatch;
    const filters = group.spec.channels.get(ODDS_CHANNEL) as OddsFilters;
    // A batch is one book's: a group that does not serve the book has nothing in it, before or now.
    if (filters.row.books && !filters.row.books.has(book)) return [];
    const held = group.state.get(ODDS_CHANNEL) as Map<string, Held>;
    const { linkState: state, commission } = group.spec;
    const updated: string[] = [];
    const removed: string[] = [];
    const locked: string[] = [];
    for (const it of items) {
      if (it.row && it.event && oddsMatch(it.row, it.event, filters, this.catalog)) {
        const json = this.variant(it, it.row, it.event, state, commission);
        updated.push(json);
        // Locked now, and not as the group last saw it (an active row, or none).
        if (!it.row.isActive && held.get(it.row.id)?.row.isActive !== false) locked.push(json);
        held.set(it.row.id, { row: it.row, event: it.event, json });
      } else if (it.prevRow && it.prevEvent && oddsMatch(it.prevRow, it.prevEvent, filters, this.catalog)) {
        removed.push(JSON.stringify(it.prevRow.id));
        held.delete(it.prevRow.id);
      }
    }
    const out: { slot: number; payload: { name: string; sse: string; ws: string } }[] = [];
    const b = JSON.stringify(book);
    if (removed.length > 0) {
      const ids = jsonArray(removed);
      out.push({
        slot: 0,
        payload: {
          name: 'odds:removed',
          sse: `{"ids":${ids},"count":${removed.length},"book":${b}}`,
          ws: `"source":${b},"ids":${ids},"count":${removed.length}`,
        },
      });
    }
    if (updated.length > 0) {
      const rows = jsonArray(updated);
      out.push({
        slot: 1,
        payload: {
          name: 'odds:update',
          sse: `{"odds":${rows},"count":${updated.length},"book":${b},"partial":${partial}}`,
          ws: `"source":${b},"data":${rows},"count":${updated.length},"partial":${partial}`,
        },
      });
    }
    if (locked.length > 0) {
      const rows = jsonArray(locked);
      out.push({
        slot: 2,
        payload: {
          name: 'odds:locked',
          sse: `{"odds":${rows},"count":${locked.length},"book":${b},"partial":${partial}}`,
          ws: `"source":${b},"data":${rows},"count":${locked.length},"partial":${partial}`,
        },
      });
    }
    return out;
  }

  /**
   * The frames that bring a subscriber of `group` from a position another replica served (or
   * this one before a restart) to the board now: for every row key changed since (`catchUpRows`),
   * its current state when it matches the group's filters, else its id as removed (when its book
   * and market are the group's: a client drops ids it does not hold). Per sportsbook, removals
   * then updates, in chunks as live frames are. Call in the turn the subscriber joins the group,
   * right after `StreamService.open` brought the group up to the board.
   */
  catchUp(group: Group, rows: ChangedRows): FramePayload[] {
    const filters = group.spec.channels.get(ODDS_CHANNEL) as OddsFilters;
    const { books, markets } = filters.row;
    const byBook = new Map<string, { updated: string[]; removed: string[] }>();
    const of = (book: string): { updated: string[]; removed: string[] } => {
      let entry = byBook.get(book);
      if (!entry) byBook.set(book, (entry = { updated: [], removed: [] }));
      return entry;
    };
    for (const [key, eventId] of rows) {
      const row = this.board.row(eventId, key);
      const event = this.board.event(eventId);
      if (row && event && oddsMatch(row, event, filters, this.catalog)) {
        of(row.book).updated.push(this.jsonOf({ row, event }, group.spec.linkState, group.spec.commission));
        continue;
      }
      const { market, book } = row ?? keyParts(key, eventId);
      if ((books && !books.has(book)) || (markets && !markets.has(market))) continue;
      of(book).removed.push(JSON.stringify(row?.id ?? rowId(key)));
    }
    const out: FramePayload[] = [];
    for (const [book, { updated, removed }] of byBook) {
      const b = JSON.stringify(book);
      for (let i = 0; i < removed.length; i += ODDS_CHUNK) {
        const ids = removed.slice(i, i + ODDS_CHUNK);
        const list = jsonArray(ids);
        out.push({
          name: 'odds:removed',
          sse: `{"ids":${list},"count":${ids.length},"book":${b}}`,
          ws: `"source":${b},"ids":${list},"count":${ids.length}`,
        });
      }
      for (let i = 0; i < updated.length; i += ODDS_CHUNK) {
        const chunk = updated.slice(i, i + ODDS_CHUNK);
        const list = jsonArray(chunk);
        const partial = i + ODDS_CHUNK < updated.length;
        out.push({
          name: 'odds:update',
          sse: `{"odds":${list},"count":${chunk.length},"book":${b},"partial":${partial}}`,
          ws: `"source":${b},"data":${list},"count":${chunk.length},"partial":${partial}`,
        });
      }
    }
    return out;
  }

  /**
   * A new group walks the board once (the `/odds` query); from then on the group holds its rows
   * as its frames left them, so a subscriber joining later costs O(its rows), not a walk. Rows
   * are presented when a snapshot first reads them, with the main lines of this moment (a flag
   * that flips later goes out as an `odds:update`), so opening a large group costs the walk
   * only and its snapshot is presented chunk by chunk as it is sent.
   */
  openGroup(group: Group): void {
    const filters = group.spec.channels.get(ODDS_CHANNEL) as OddsFilters;
    const held = new Map<string, Held>();
    for (const m of allOdds(this.board, this.catalog, filters)) {
      held.set(m.row.id, { row: m.row, event: m.event, main: this.board.mainLines(m.event.id) });
    }
    group.state.set(ODDS_CHANNEL, held);
    if (filters.row.books) {
      for (const b of filters.row.books) {
        let set = this.byBook.get(b);
        if (!set) {
          set = new Set();
          this.byBook.set(b, set);
        }
        set.add(group);
      }
    } else this.everyBook.add(group);
    this.audiences = new Map();
  }

  /** The rows a group's subscriber starts from, in board order (as `/odds` lists them). */
  snapshot(group: Group): SnapshotRow[] {
    const held = group.state.get(ODDS_CHANNEL) as Map<string, Held>;
    return [...held.values()].sort(compareHeld).map((h) => new SnapshotRow(h, this, group.spec.linkState, group.spec.commission));
  }

  /** A held row's JSON (at the group's rate, with its state in the deep link), presented on first use. */
  jsonOf(h: Held, state: string | undefined, commission: number | undefined): string {
    h.json ??= JSON.stringify(putStateInLinks(this.present(rowAtRate(h.row, commission), h.event, h.main), state));
    return h.json;
  }

  /**
   * A changed row presented for the groups at `commission` that asked for `state`, once per
   * (rate, state). A row the rate leaves as it is (a sportsbook's, or an exchange's already at
   * that rate) shares the board's serialization.
   */
  private variant(it: Item, row: OddsRow, event: CanonicalEvent, state: string | undefined, commission: number | undefined): string {
    if (state === undefined && commission === undefined) return (it.json ??= JSON.stringify(this.present(row, event)));
    it.variants ??= new Map();
    const key = `${commission ?? ''}|${state ?? ''}`;
    let json = it.variants.get(key);
    if (json === undefined) {
      const priced = rowAtRate(row, commission);
      json =
        priced === row && state === undefined
          ? (it.json ??= JSON.stringify(this.present(row, event)))
          : JSON.stringify(putStateInLinks(this.present(priced, event), state));
      it.variants.set(key, json);
    }
    return json;
  }
}
