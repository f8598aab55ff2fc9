import { OPPORTUNITY_KINDS, foundBelowBoardRate } from '../../schemas/index.js';
import type { CanonicalEvent, Opportunity, OpportunityKind } from '../../schemas/index.js';
import { DEFAULT_PHANTOM_POLICY } from '../../pipeline/opportunities/index.js';
import type { PhantomPolicy } from '../../pipeline/opportunities/index.js';

/** One active opportunity as the board keeps it, with the event shape the shared filters read. */
export interface BoardEntry<O extends Opportunity = Opportunity> {
  o: O;
  event: CanonicalEvent;
}

export type EntryOf<K extends OpportunityKind> = BoardEntry<Extract<Opportunity, { kind: K }>>;

/** Told, after each change is applied, which kind and situation it touched (streams recompute those). */
export type OpportunityListener = (kind: OpportunityKind, situation: string) => void;

/**
 * Which records a read sees: `board`, what callers at the exchanges' own rates are served (every
 * record but those found only at a lower search rate); `any`, every record, for a caller on its
 * own rate, who re-checks each at that rate.
 */
export type BoardRates = 'board' | 'any';

/**
 * The active opportunities an API replica serves, kept by the `opportunities` changelog: a
 * version replaces the previous one, a final version (expiredAt set) or a tombstone removes it.
 * Lists per kind are rebuilt lazily after a change, so reads between changes cost nothing.
 */
export class OpportunityBoard {
  private readonly byKind = new Map<OpportunityKind, Map<string, BoardEntry>>(OPPORTUNITY_KINDS.map((k) => [k, new Map()]));
  private readonly kindOf = new Map<string, OpportunityKind>();
  private readonly lists = new Map<OpportunityKind, Record<BoardRates, BoardEntry[]>>();
  /** Keys of the records found only below the board's rates, which the `board` reads leave out. */
  private readonly belowBoardRate = new Set<string>();
  /** Per kind, situation -> keys of the entries showing it. */
  private readonly situations = new Map<OpportunityKind, Map<string, Set<string>>>(OPPORTUNITY_KINDS.map((k) => [k, new Map()]));
  private readonly listeners: OpportunityListener[] = [];
  /** Pipeline time of the last version applied (its lastSeenAt or expiredAt). */
  lastUpdate: number | null = null;

  /**
   * @param phantom what this replica counts as a phantom opportunity (PHANTOM_MAX_PROFIT_PERCENT,
   *   VERY_STALE_FACTOR): every list, stream and presenter reading the board judges by it.
   */
  constructor(readonly phantom: PhantomPolicy = DEFAULT_PHANTOM_POLICY) {}

  /** `listener` hears of every change applied from now on, synchronously: it must only take note. */
  subscribe(listener: OpportunityListener): void {
    this.listeners.push(listener);
  }

  apply(key: string, value: Opportunity | null): void {
    if (value !== null) this.lastUpdate = Math.max(this.lastUpdate ?? 0, value.expiredAt ?? value.lastSeenAt);
    // A middle or a low-hold market is presented by its first two legs (side1/side2, which its
    // row schema requires); the processor always builds two or more, so a version with fewer is
    // a malformed topic record: not served, as if expired, rather than failing every answer and
    // stream flush that would present it.
    const unpresentable = value !== null && (value.kind === 'middle' || value.kind === 'low_hold') && value.legs.length < 2;
    if (value === null || value.expiredAt !== null || unpresentable) {
      this.remove(key);
      return;
    }
    const previous = this.kindOf.get(key);
    const before = previous === undefined ? undefined : this.byKind.get(previous)?.get(key);
    if (previous !== undefined && (previous !== value.kind || before?.o.situation !== value.situation)) this.remove(key);
    this.byKind.get(value.kind)?.set(key, { o: value, event: eventOf(value) });
    this.kindOf.set(key, value.kind);
    if (foundBelowBoardRate(value)) this.belowBoardRate.add(key);
    else this.belowBoardRate.delete(key);
    this.lists.delete(value.kind);
    const bySituation = this.situations.get(value.kind) as Map<string, Set<string>>;
    let keys = bySituation.get(value.situation);
    if (!keys) {
      keys = new Set();
      bySituation.set(value.situation, keys);
    }
    keys.add(key);
    for (const l of this.listeners) l(value.kind, value.situation);
  }

  /** The active entries of a kind showing one situation. */
  situation<K extends OpportunityKind>(kind: K, situation: string, rates: BoardRates = 'board'): EntryOf<K>[] {
    const out: BoardEntry[] = [];
    const entries = this.byKind.get(kind);
    for (const key of this.situations.get(kind)?.get(situation) ?? []) {
      if (rates === 'board' && this.belowBoardRate.has(key)) continue;
      const e = entries?.get(key);
      if (e) out.push(e);
    }
    return out as unknown as EntryOf<K>[];
  }

  /** Active opportunities of a kind, in a stable order (by id). */
  list<K extends OpportunityKind>(kind: K, rates: BoardRates = 'board'): readonly EntryOf<K>[] {
    let lists = this.lists.get(kind);
    if (!lists) {
      const any = [...(this.byKind.get(kind)?.values() ?? [])].sort((a, b) => (a.o.id < b.o.id ? -1 : 1));
      const board = any.filter((e) => !foundBelowBoardRate(e.o));
      lists = { any, board: board.length === any.length ? any : board };
      this.lists.set(kind, lists);
    }
    return lists[rates] as unknown as readonly EntryOf<K>[];
  }

  /** An active opportunity by id, among those `rates` sees. */
  get(id: string, rates: BoardRates = 'board'): Opportunity | undefined {
    if (rates === 'board' && this.belowBoardRate.has(id)) return undefined;
    const kind = this.kindOf.get(id);
    return kind === undefined ? undefined : this.byKind.get(kind)?.get(id)?.o;
  }

  /** How many active opportunities callers at the board's rates are served (of a kind, or in all). */
  count(kind?: OpportunityKind): number {
    if (kind !== undefined) return this.list(kind).length;
    return this.kindOf.size - this.belowBoardRate.size;
  }

  private remove(key: string): void {
    const kind = this.kindOf.get(key);
    if (kind === undefined) return;
    const entry = this.byKind.get(kind)?.get(key);
    this.byKind.get(kind)?.delete(key);
    this.kindOf.delete(key);
    this.belowBoardRate.delete(key);
    this.lists.delete(kind);
    if (!entry) return;
    const bySituation = this.situations.get(kind);
    const keys = bySituation?.get(entry.o.situation);
    keys?.delete(key);
    if (keys?.size === 0) bySituation?.delete(entry.o.situation);
    for (const l of this.listeners) l(kind, entry.o.situation);
  }
}

function eventOf(o: Opportunity): CanonicalEvent {
  const e = o.event;
  return {
    id: o.eventId,
    sport: e.sport,
    league: e.league,
    homeTeamId: e.homeTeamId,
    awayTeamId: e.awayTeamId,
    startTime: e.startTime,
    status: e.isLive ? 'live' : 'upcoming',
    isLive: e.isLive,
    externalIds: {},
    updatedAt: o.lastSeenAt,
  };
}

/**
 * Several combinations of books can show one situation (the same arbitrage, middle or low-hold
 * market): keep the best of each, among those the caller may see. `better(a, b)` is true when a
 * beats b; ties keep the first in list order.
 */
export function bestPerSituation<E extends BoardEntry>(entries: readonly E[], better: (a: E, b: E) => boolean): E[] {
  const best = new Map<string, E>();
  for (const e of entries) {
    const current = best.get(e.o.situation);
    if (!current || better(e, current)) best.set(e.o.situation, e);
  }
  return [...best.values()];
}

/** Keeps the best entry per event (`group=best`). */
export function bestPerEvent<E extends BoardEntry>(entries: readonly E[], better: (a: E, b: E) => boolean): E[] {
  const best = new Map<string, E>();
  for (const e of entries) {
    const current = best.get(e.o.eventId);
    if (!current || better(e, current)) best.set(e.o.eventId, e);
  }
  return [...best.values()];
}

export { tierBookScopes } from '../../schemas/index.js';
