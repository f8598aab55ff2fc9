import type { RawTick } from '../../../schemas/index.js';
import { mapBookmakerKey, mapMarketKey, mapOutcome, mapSportKey, toAmerican } from './mapping.js';
import type { BookRef, PriceFormat } from './mapping.js';
import { countKey, emptyStats } from './stats.js';
import type { MappingStats } from './stats.js';
import { parseBookmaker, parseEvent, parseMarket, parseOutcome } from './wire.js';
import type { WireBookmaker } from './wire.js';

/**
 * Successive full responses of `/v4/sports/{sport}/odds` diffed into ticks. The API has no
 * deltas: every poll returns the whole board, so a row's price becomes a tick only when it is
 * new, moved, or confirmed by a newer `last_update`; a row that is gone becomes a suspension
 * with a null price (a pull: the API cannot tell a market suspended for a moment from one pulled).
 */

export interface DiffRow {
  /** The row as last seen (open). Suspensions are built from it. */
  tick: RawTick;
  /** `${eventId}|${book}|${marketKey}`: the market instance that carried the row. */
  marketRef: string;
}

/** Open rows of the previous snapshot, by row identity. Never mutated once returned. */
export interface DiffState {
  readonly rows: ReadonlyMap<string, DiffRow>;
}

export const EMPTY_STATE: DiffState = { rows: new Map() };

export interface MapSnapshotOptions {
  /** How to read `price`; `auto` (default) reads American and converts what can only be decimal. */
  priceFormat?: PriceFormat;
}

export interface SnapshotResult {
  /** Suspensions first, then new, moved and confirmed prices. */
  ticks: RawTick[];
  state: DiffState;
  stats: MappingStats;
  /** Ids of the events mapped from this snapshot. */
  eventIds: string[];
}

/** Row identity, the same fields that identify an odds row downstream (with the book's event id). */
export function rowKey(t: Pick<RawTick, 'bookEventId' | 'book' | 'market' | 'statCategory' | 'participant' | 'outcome' | 'line'>): string {
  return `${t.bookEventId}|${t.book}|${t.market}|${t.statCategory ?? ''}|${t.participant ?? ''}|${t.outcome}|${t.line ?? ''}`;
}

interface ChosenBookmaker {
  ref: BookRef;
  wire: WireBookmaker;
}

/**
 * Maps one response body (the array of events) seen at `snapshotTimeMs`, against the open rows
 * of the previous snapshot. Pure: `previous` is not touched. A body that is not an array is
 * counted as a malformed snapshot and leaves the state as it was (no mass suspension).
 */
export function mapSnapshot(body: unknown, snapshotTimeMs: number, previous: DiffState, options: MapSnapshotOptions = {}): SnapshotResult {
  const stats = emptyStats();
  if (!Array.isArray(body)) {
    stats.malformed.snapshots = 1;
    return { ticks: [], state: previous, stats, eventIds: [] };
  }
  stats.snapshots = 1;
  const priceFormat = options.priceFormat ?? 'auto';
  const rows = new Map<string, DiffRow>();
  /** Market instances present in this snapshot, with their last_update. */
  const presentMarkets = new Map<string, number>();
  const seenEvents = new Set<string>();
  const commenceOf = new Map<string, number>();
  const opens: RawTick[] = [];
  const eventIds: string[] = [];

  for (const rawEvent of body) {
    const event = parseEvent(rawEvent);
    if (event === null || seenEvents.has(event.id)) {
      stats.malformed.events += 1;
      continue;
    }
    seenEvents.add(event.id);
    const leagueRef = mapSportKey(event.sportKey);
    if (leagueRef === null) {
      countKey(stats.unknownSports, event.sportKey);
      continue;
    }
    stats.events += 1;
    eventIds.push(event.id);
    const isLive = snapshotTimeMs >= event.commenceTime;
    commenceOf.set(event.id, event.commenceTime);

    // One bookmaker key per book: the preferred one when regional copies are both present.
    const chosen = new Map<string, ChosenBookmaker>();
    for (const rawBookmaker of event.bookmakers) {
      const wire = parseBookmaker(rawBookmaker);
      if (wire === null) {
        stats.malformed.bookmakers += 1;
        continue;
      }
      const ref = mapBookmakerKey(wire.key);
      if (ref === null) {
        countKey(stats.unknownBookmakers, wire.key);
        continue;
      }
      const taken = chosen.get(ref.book);
      if (taken !== undefined) stats.duplicateBookmakers += 1;
      if (taken === undefined || ref.rank < taken.ref.rank) chosen.set(ref.book, { ref, wire });
    }

    for (const { ref, wire: bookmaker } of chosen.values()) {
      for (const rawMarket of bookmaker.markets) {
        const market = parseMarket(rawMarket);
        if (market === null) {
          stats.malformed.markets += 1;
          continue;
        }
        const spec = mapMarketKey(market.key);
        if (spec === null) {
          countKey(stats.unknownMarkets, market.key);
          continue;
        }
        const lastUpdate = market.lastUpdate ?? bookmaker.lastUpdate ?? snapshotTimeMs;
        const marketRef = `${event.id}|${ref.book}|${market.key}`;
        presentMarkets.set(marketRef, lastUpdate);

        for (const rawOutcome of market.outcomes) {
          const wireOutcome = parseOutcome(rawOutcome);
          const mapped = wireOutcome === null ? null : mapOutcome(spec.shape, wireOutcome);
          const price = wireOutcome === null ? null : toAmerican(wireOutcome.price, priceFormat);
          if (mapped === null || price === null) {
            stats.malformed.outcomes += 1;
            continue;
          }
          const tick: RawTick = {
            book: ref.book,
            bookEventId: event.id,
            sport: leagueRef.sport,
            league: leagueRef.league,
            homeTeam: event.homeTeam,
            awayTeam: event.awayTeam,
            startTime: event.commenceTime,
            isLive,
            market: spec.market,
            outcome: mapped.outcome,
            line: mapped.line,
            participant: mapped.participant,
            statCategory: spec.statCategory,
            priceAmerican: price,
            status: 'open',
            ts: lastUpdate,
            selectionId: null,
            // The market's last_update is when the book last touched it: for a moved price, when it moved.
            oddsChangedAt: lastUpdate,
            observedAt: snapshotTimeMs,
          };
          const key = rowKey(tick);
          if (rows.has(key)) {
            stats.duplicateOutcomes += 1;
            continue;
          }
          const prev = previous.rows.get(key);
          if (prev !== undefined) {
            // A row's time never runs back, whatever a book reports.
            tick.ts = Math.max(lastUpdate, prev.tick.ts);
            // The same price again is a confirmation: it was changed when it was first seen at this price.
            if (prev.tick.priceAmerican === price) tick.oddsChangedAt = prev.tick.oddsChangedAt ?? prev.tick.ts;
            else tick.oddsChangedAt = tick.ts;
          }
          rows.set(key, { tick, marketRef });
          if (prev === undefined || prev.tick.priceAmerican !== price) {
            opens.push(tick);
          } else if (lastUpdate > prev.tick.ts) {
            opens.push(tick);
            stats.confirmations += 1;
          }
        }
      }
    }
  }

  const suspensions: RawTick[] = [];
  for (const [key, row] of previous.rows) {
    if (rows.has(key)) continue;
    const seenAt = presentMarkets.get(row.marketRef) ?? snapshotTimeMs;
    // A line pulled from an event still listed follows the event's start as this snapshot
    // corrects it: a kickoff pushed back five minutes does not make a pre-match pull live.
    const startTime = commenceOf.get(row.tick.bookEventId) ?? row.tick.startTime;
    suspensions.push({
      ...row.tick,
      startTime,
      isLive: snapshotTimeMs >= startTime,
      priceAmerican: null,
      status: 'suspended',
      ts: Math.max(seenAt, row.tick.ts),
      observedAt: snapshotTimeMs,
    });
  }

  stats.openTicks = opens.length;
  stats.suspendedTicks = suspensions.length;
  stats.ticks = opens.length + suspensions.length;
  return { ticks: [...suspensions, ...opens], state: { rows }, stats, eventIds };
}
