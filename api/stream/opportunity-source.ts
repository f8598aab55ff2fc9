import type { Opportunity, OpportunityKind } from '../../schemas/index.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';
import { presentArbitrage, presentEv, presentLowHold, presentMiddle } from '../contract/index.js';
import type { LinesOf, RowContext } from '../contract/index.js';
import { OPPORTUNITY_LISTS, STATE_IN_LINKS, listAtCommission, listMatches, situationAtCommission } from '../queries/index.js';
import { putStateInLinks } from '../deeplinks/index.js';
import type { ArbEntry, EvEntry, EvQuery, LowHoldEntry, MiddleEntry, ListQuery, OpportunityList } from '../queries/index.js';
import type { Catalog } from '../views/index.js';
import type { BoardEntry, OpportunityBoard } from '../views/index.js';
import { jsonArray } from './frames.js';
import type { FramePayload } from './frames.js';
import type { Group, SourceBatch, StreamSource } from './hub.js';

export const OPPORTUNITIES_CHANNEL = 'opportunities';
export const LIST_NAMES: readonly OpportunityList[] = ['ev', 'arbitrage', 'middles', 'low_hold'];
/** Frame name prefix per list (COMPAT: `ev:*`, `arb:*`, `middles:*`, `low_hold:*`). */
export const FRAME_PREFIX: Record<OpportunityList, string> = { ev: 'ev', arbitrage: 'arb', middles: 'middles', low_hold: 'low_hold' };
/** Stakes of the legs in streamed arbitrage and middle rows (the REST default bankroll). */
export const STREAM_BANKROLL = 100;

export type { ListQuery };

/** The opportunity lists a subscriber gets, each with its query (what the REST list would be asked). */
export interface OpportunitySpec {
  lists: ReadonlyMap<OpportunityList, ListQuery>;
}

/** What a group holds of one list: its visible entries by id, and their ids by situation. */
interface ListState {
  byId: Map<string, BoardEntry>;
  bySituation: Map<string, Set<string>>;
}

interface OpportunityBatch {
  list: OpportunityList;
  situations: string[];
}

const LIST_OF_KIND: Record<OpportunityKind, OpportunityList> = {
  ev: 'ev',
  arbitrage: 'arbitrage',
  middle: 'middles',
  low_hold: 'low_hold',
};
/** Situations per batch: bounds the work of one flush step and the size of a frame. */
const SITUATIONS_PER_BATCH = 500;

/**
 * The opportunity channel: +EV, arbitrage, middles and low-hold, each list as its REST endpoint
 * computes it (arbitrage, middles and low-hold keep the best visible combination of books per
 * situation). The board says which situations changed; at a flush each group recomputes only
 * those, with the same query functions REST uses, and gets `<kind>:detected` for entries that are
 * new or changed and `<kind>:expired` for entries it held that are no longer in its list.
 */
export class OpportunitySource implements StreamSource {
  readonly channel = OPPORTUNITIES_CHANNEL;
  readonly feed = 'live';
  private pending = new Map<OpportunityKind, Set<string>>();

  constructor(
    private readonly board: OpportunityBoard,
    private readonly catalog: Catalog,
    notify: () => void,
    private readonly lines: LinesOf,
    private readonly context: RowContext = {},
  ) {
    board.subscribe((kind, situation) => {
      let set = this.pending.get(kind);
      if (!set) {
        set = new Set();
        this.pending.set(kind, set);
      }
      set.add(situation);
      notify();
    });
  }

  discard(): void {
    this.pending = new Map();
  }

  take(): SourceBatch[] {
    const batches: SourceBatch[] = [];
    for (const [kind, situations] of this.pending) {
      const all = [...situations];
      for (let i = 0; i < all.length; i += SITUATIONS_PER_BATCH) {
        const data: OpportunityBatch = { list: LIST_OF_KIND[kind], situations: all.slice(i, i + SITUATIONS_PER_BATCH) };
        // Slot 0: <kind>:expired, slot 1: <kind>:detected.
        batches.push({ slots: 2, data });
      }
    }
    this.pending = new Map();
    return batches;
  }

  openGroup(group: Group, now: number): void {
    const spec = group.spec.channels.get(OPPORTUNITIES_CHANNEL) as OpportunitySpec;
    const state = new Map<OpportunityList, ListState>();
    for (const [list, query] of spec.lists) {
      const s: ListState = { byId: new Map(), bySituation: new Map() };
      const entries = listAtCommission(this.board, OPPORTUNITY_LISTS[list], group.spec.commission);
      for (const e of listMatches(list, entries, query, this.catalog, now)) add(s, e);
      state.set(list, s);
    }
    group.state.set(OPPORTUNITIES_CHANNEL, state);
  }

  render(batch: SourceBatch, group: Group, now: number): { slot: number; payload: FramePayload }[] {
    const { list, situations } = batch.data as OpportunityBatch;
    const spec = group.spec.channels.get(OPPORTUNITIES_CHANNEL) as OpportunitySpec;
    const query = spec.lists.get(list);
    const state = (group.state.get(OPPORTUNITIES_CHANNEL) as Map<OpportunityList, ListState> | undefined)?.get(list);
    if (!query || !state) return [];
    const kind = OPPORTUNITY_LISTS[list];
    const candidates: BoardEntry[] = [];
    const held = new Set<string>();
    for (const situation of situations) {
      candidates.push(...situationAtCommission(this.board, kind, situation, group.spec.commission));
      for (const id of state.bySituation.get(situation) ?? []) held.add(id);
    }
    // Ties between combinations keep the first by id, as in the REST list (which is in id order).
    candidates.sort((a, b) => (a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0));
    const detected: string[] = [];
    for (const e of listMatches(list, candidates, query, this.catalog, now)) {
      held.delete(e.o.id);
      if (state.byId.get(e.o.id)?.o === e.o) continue;
      remove(state, e.o.id);
      add(state, e);
      detected.push(this.present(list, e.o, query, now, group.spec.linkState));
    }
    const expired: string[] = [];
    for (const id of held) {
      remove(state, id);
      expired.push(JSON.stringify(id));
    }
    const prefix = FRAME_PREFIX[list];
    const out: { slot: number; payload: FramePayload }[] = [];
    if (expired.length > 0) {
      const ids = jsonArray(expired);
      const ts = JSON.stringify(new Date(now).toISOString());
      out.push({
        slot: 0,
        payload: { name: `${prefix}:expired`, sse: `{"expired":${ids},"timestamp":${ts}}`, ws: `"data":{"expired":${ids}}` },
      });
    }
    if (detected.length > 0) {
      const rows = jsonArray(detected);
      out.push({ slot: 1, payload: { name: `${prefix}:detected`, sse: rows, ws: `"data":${rows}` } });
    }
    return out;
  }

  /** The lists a group's subscriber starts from, presented now. */
  snapshot(group: Group, now: number): { list: OpportunityList; rows: string[] }[] {
    const spec = group.spec.channels.get(OPPORTUNITIES_CHANNEL) as OpportunitySpec;
    const state = group.state.get(OPPORTUNITIES_CHANNEL) as Map<OpportunityList, ListState>;
    const out: { list: OpportunityList; rows: string[] }[] = [];
    for (const [list, query] of spec.lists) {
      const entries = [...(state.get(list)?.byId.values() ?? [])].sort((a, b) => (a.o.id < b.o.id ? -1 : 1));
      out.push({ list, rows: entries.map((e) => this.present(list, e.o, query, now, group.spec.linkState)) });
    }
    return out;
  }

  /** A row as its REST list presents it, with `state` in its deep links where that list puts it. */
  private present(list: OpportunityList, o: Opportunity, query: ListQuery, now: number, state: string | undefined): string {
    const row = presentListRow(this.catalog, list, o, query, now, this.board.phantom, this.lines, this.context);
    return JSON.stringify(putStateInLinks(row, STATE_IN_LINKS[list] ? state : undefined));
  }
}

/** A list's row as its stream frames (and alerts) carry it: the REST presenter at the stream's bankroll. */
export function presentListRow(
  catalog: Catalog,
  list: OpportunityList,
  o: Opportunity,
  query: ListQuery,
  now: number,
  phantom: PhantomPolicy,
  lines: LinesOf,
  context: RowContext = {},
): object {
  switch (list) {
    case 'ev':
      return presentEv(catalog, o as EvEntry['o'], (query as EvQuery).method, now, phantom, false);
    case 'arbitrage':
      return presentArbitrage(catalog, o as ArbEntry['o'], STREAM_BANKROLL, now, phantom, lines, context);
    case 'middles':
      return presentMiddle(catalog, o as MiddleEntry['o'], STREAM_BANKROLL, now, phantom);
    case 'low_hold':
      return presentLowHold(catalog, o as LowHoldEntry['o'], now, phantom, lines, context);
  }
}

function add(s: ListState, e: BoardEntry): void {
  s.byId.set(e.o.id, e);
  let ids = s.bySituation.get(e.o.situation);
  if (!ids) {
    ids = new Set();
    s.bySituation.set(e.o.situation, ids);
  }
  ids.add(e.o.id);
}

function remove(s: ListState, id: string): void {
  const e = s.byId.get(id);
  if (!e) return;
  s.byId.delete(id);
  const ids = s.bySituation.get(e.o.situation);
  ids?.delete(id);
  if (ids?.size === 0) s.bySituation.delete(e.o.situation);
}
