/**
 * Counters of what a mapping pass saw and skipped. Nothing here is fatal: an unknown key or a
 * malformed item is counted (by key where there is one) so that it can be reported.
 */

export interface MalformedCounts {
  /** A response body or recording line that is not what it should be; nothing was diffed. */
  snapshots: number;
  events: number;
  bookmakers: number;
  markets: number;
  outcomes: number;
}

export interface MappingStats {
  snapshots: number;
  /** Events mapped (one per event per snapshot). */
  events: number;
  ticks: number;
  openTicks: number;
  suspendedTicks: number;
  /** Of the open ticks: same price, newer last_update. */
  confirmations: number;
  unknownSports: Record<string, number>;
  unknownBookmakers: Record<string, number>;
  unknownMarkets: Record<string, number>;
  /** A second bookmaker key of an event mapping to a book already taken (e.g. betfair_ex_uk). */
  duplicateBookmakers: number;
  /** An outcome whose row identity repeats one already seen in the same snapshot. */
  duplicateOutcomes: number;
  malformed: MalformedCounts;
}

/** Counts keyed by feed input: no prototype, so `__proto__` or `constructor` count like any key. */
function counter(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}

export function emptyStats(): MappingStats {
  return {
    snapshots: 0,
    events: 0,
    ticks: 0,
    openTicks: 0,
    suspendedTicks: 0,
    confirmations: 0,
    unknownSports: counter(),
    unknownBookmakers: counter(),
    unknownMarkets: counter(),
    duplicateBookmakers: 0,
    duplicateOutcomes: 0,
    malformed: { snapshots: 0, events: 0, bookmakers: 0, markets: 0, outcomes: 0 },
  };
}

/** Increments `counts[key]` in place (for builders that own `counts`). */
export function countKey(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = counter();
  for (const [key, n] of Object.entries(a)) countKey(out, key, n);
  for (const [key, n] of Object.entries(b)) countKey(out, key, n);
  return out;
}

/** A new total: `a` plus `b`. */
export function mergeStats(a: MappingStats, b: MappingStats): MappingStats {
  return {
    snapshots: a.snapshots + b.snapshots,
    events: a.events + b.events,
    ticks: a.ticks + b.ticks,
    openTicks: a.openTicks + b.openTicks,
    suspendedTicks: a.suspendedTicks + b.suspendedTicks,
    confirmations: a.confirmations + b.confirmations,
    unknownSports: mergeCounts(a.unknownSports, b.unknownSports),
    unknownBookmakers: mergeCounts(a.unknownBookmakers, b.unknownBookmakers),
    unknownMarkets: mergeCounts(a.unknownMarkets, b.unknownMarkets),
    duplicateBookmakers: a.duplicateBookmakers + b.duplicateBookmakers,
    duplicateOutcomes: a.duplicateOutcomes + b.duplicateOutcomes,
    malformed: {
      snapshots: a.malformed.snapshots + b.malformed.snapshots,
      events: a.malformed.events + b.malformed.events,
      bookmakers: a.malformed.bookmakers + b.malformed.bookmakers,
      markets: a.malformed.markets + b.malformed.markets,
      outcomes: a.malformed.outcomes + b.malformed.outcomes,
    },
  };
}
