import { OPPORTUNITY_KINDS } from '../../schemas/index.js';
import type { CanonicalEvent, Opportunity, OpportunityKind } from '../../schemas/index.js';

/** One active opportunity as the board keeps it, with the event shape the shared filters read. */
export interface BoardEntry<O extends Opportunity = Opportunity> {
  o: O;
  event: CanonicalEvent;
}

type EntryOf<K extends OpportunityKind> = BoardEntry<Extract<Opportunity, { kind: K }>>;

/**
 * The active opportunities an API replica serves, kept by the `opportunities` changelog: a
 * version replaces the previous one, a final version (expiredAt set) or a tombstone removes it.
 * Lists per kind are rebuilt lazily after a change, so reads between changes cost nothing.
 */
export class OpportunityBoard {
  private readonly byKind = new Map<OpportunityKind, Map<string, BoardEntry>>(OPPORTUNITY_KINDS.map((k) => [k, new Map()]));
  private readonly kindOf = new Map<string, OpportunityKind>();
  private readonly lists = new Map<OpportunityKind, BoardEntry[]>();
  /** Pipeline time of the last version applied (its lastSeenAt or expiredAt). */
  lastUpdate: number | null = null;

  apply(key: string, value: Opportunity | null): void {
    if (value !== null) this.lastUpdate = Math.max(this.lastUpdate ?? 0, value.expiredAt ?? value.lastSeenAt);
    if (value === null || value.expiredAt !== null) {
      this.remove(key);
      return;
    }
    const previous = this.kindOf.get(key);
    if (previous !== undefined && previous !== value.kind) this.remove(key);
    this.byKind.get(value.kind)?.set(key, { o: value, event: eventOf(value) });
    this.kindOf.set(key, value.kind);
    this.lists.delete(value.kind);
  }

  /** Active opportunities of a kind, in a stable order (by id). */
  list<K extends OpportunityKind>(kind: K): readonly EntryOf<K>[] {
    let list = this.lists.get(kind);
    if (!list) {
      list = [...(this.byKind.get(kind)?.values() ?? [])].sort((a, b) => (a.o.id < b.o.id ? -1 : 1));
      this.lists.set(kind, list);
    }
    return list as unknown as readonly EntryOf<K>[];
  }

  get(id: string): Opportunity | undefined {
    const kind = this.kindOf.get(id);
    return kind === undefined ? undefined : this.byKind.get(kind)?.get(id)?.o;
  }

  count(kind?: OpportunityKind): number {
    if (kind !== undefined) return this.byKind.get(kind)?.size ?? 0;
    return this.kindOf.size;
  }

  private remove(key: string): void {
    const kind = this.kindOf.get(key);
    if (kind === undefined) return;
    this.byKind.get(kind)?.delete(key);
    this.kindOf.delete(key);
    this.lists.delete(kind);
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
