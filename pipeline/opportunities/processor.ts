import { bettableRow, isClosedStatus, selectionFamily } from '../../schemas/index.js';
import type { CanonicalEvent, OddsChange, OddsRow, Opportunity, OpportunityChange } from '../../schemas/index.js';
import { FreshnessLedger } from '../freshness/index.js';
import type { BookFreshness } from '../freshness/index.js';
import { arbitrageCandidates } from './arbitrage.js';
import { resolveOptions } from './config.js';
import type { OpportunityOptions, ResolvedOptions } from './config.js';
import type { Candidate, EngineContext } from './context.js';
import { evCandidates } from './ev.js';
import { IdCache, ageIds, forgetRow } from './ids.js';
import { advance, expire } from './lifecycle.js';
import { lowHoldCandidates } from './lowhold.js';
import { middleCandidates } from './middles.js';
import { StaleVerdicts, clockNow, retimed } from './retime.js';
import { staleClockOfRecord } from './staleness.js';
import type { HeldRecord } from './retime.js';
import { familyAtSearchRate, pricedBelowItsRate } from './search-rate.js';
import { SKIPPED_MARKETS, addToLine, canonicalLine, familyKey, lineKey, outcomesOf, removeFromLine } from './state.js';
import type { EventState, FamilyState } from './state.js';

export type OpportunityInput = { type: 'odds'; change: OddsChange } | { type: 'event'; event: CanonicalEvent };

export interface OpportunityCounters {
  created: number;
  updated: number;
  expired: number;
  /** Inputs handled (odds changes and event records). */
  inputs: number;
}

/** `all` recomputes every line of a family; otherwise only the listed line keys (and middles). */
type Scope = 'all' | ReadonlySet<string>;
/** Event id -> family key -> what to recompute at the end of a batch. */
type Dirty = Map<string, Map<string, Set<string> | 'all'>>;
/** Where a row key's rows go, found once per key instead of rebuilding its family and line keys per change. */
interface RowSlot {
  family: FamilyState;
  lineKey: string;
  /** The row on the board (also in its line group). */
  row: OddsRow;
}
/**
 * `unpriced`: the rows of the event the engines do not price (locked rows, skipped markets), by
 * row key, so that the freshness ledger sees the row before each change of theirs too: a row's
 * reopening is then a confirmation of a known row, not a new row (which counted the book's rows
 * and suspensions one up per suspension).
 */
type ProcessorEventState = EventState & { slots: Map<string, RowSlot>; unpriced: Map<string, OddsRow>; firstSeen: number };

function hasExchangeRow(family: FamilyState): boolean {
  for (const group of family.lines.values()) for (const row of group.rows) if (row != null && row.exchange != null) return true;
  return false;
}

/**
 * Opportunity state machine: the snapshot changelog and the events in, create / update / expire
 * out. One state per event; a change recomputes only its family's line group (+EV, arbitrage,
 * low-hold) and the family's middles. Deterministic: no clock but the `now` it is handed, and
 * every output list in a stable order.
 */
export class OpportunityProcessor {
  readonly counters: OpportunityCounters = { created: 0, updated: 0, expired: 0, inputs: 0 };
  private readonly options: ResolvedOptions;
  private readonly events = new Map<string, ProcessorEventState>();
  private activeCount = 0;
  /**
   * Each book's confirmation cadence, learnt from the changes this processor sees (so from its
   * partitions only, which hold thousands of rows per book): where its stale thresholds come from.
   */
  private readonly freshness: FreshnessLedger;
  private readonly staleAfter: (book: string, isLive: boolean) => number;
  /** Re-times records whose stale verdict the thresholds moved since they were built (retime.ts). */
  private readonly verdicts: StaleVerdicts;

  /** The lowest exchange commission rate in use below the exchanges' own (search-rate.ts), or null: the board's rates only. */
  private searchCommission: number | null;

  constructor(options: OpportunityOptions = {}) {
    this.options = resolveOptions(options);
    this.searchCommission = options.searchCommission ?? null;
    this.freshness = new FreshnessLedger(this.options.freshness);
    this.staleAfter = (book, isLive) => this.freshness.staleAfterSeconds(book, isLive);
    this.verdicts = new StaleVerdicts(this.freshness, this.options.veryStaleFactor);
  }

  /** Opportunities currently active. */
  get size(): number {
    return this.activeCount;
  }

  get eventCount(): number {
    return this.events.size;
  }

  /** Nodes held by the families' opportunity id caches (tests: they follow the rows on the board). */
  get idCacheNodes(): number {
    let n = 0;
    for (const s of this.events.values()) for (const f of s.families.values()) n += f.ids.size;
    return n;
  }

  handle(input: OpportunityInput, now: number): OpportunityChange[] {
    return this.handleBatch([input], now);
  }

  /**
   * A batch at one time: every input is applied, then each family it touched is recomputed once
   * (a book sends both sides of a market as two ticks; under load a batch holds many ticks of
   * one market). The final state is the same as one input at a time; intermediate versions that
   * nobody could have seen are skipped. Where a change enters a new step of the freshness
   * ledger's thresholds, what came before is built first, on the old thresholds, as one input at
   * a time would have (`enterStep`): so the batches' boundaries, and a restore that replays the
   * changelog in one batch, change no record.
   */
  handleBatch(inputs: readonly OpportunityInput[], now: number): OpportunityChange[] {
    const out: OpportunityChange[] = [];
    this.counters.inputs += inputs.length;
    const dirty: Dirty = new Map();
    for (const input of inputs) {
      if (input.type === 'event') {
        this.onEvent(input.event, now, out, dirty);
        continue;
      }
      const start = this.freshness.stepStartOf(input.change.row);
      if (start !== null) this.enterStep(start, now, out, dirty);
      this.onChange(input.change, now, dirty);
    }
    this.build(dirty, now, out);
    this.verdicts.bound(this.activeCount, () => this.held());
    this.count(out);
    return out;
  }

  /**
   * The observed time enters a new step of `start` (`FreshnessLedger.stepStartOf`): the changes so
   * far are built on the thresholds of the step before; then the ledger recomputes them, records
   * whose stale verdict they change are re-timed, and events long past their start are dropped,
   * both judged at `start`, the partition's observed time, not the wall clock, so that they
   * happen at the same inputs in every run of the same changelog. `now` only stamps.
   */
  private enterStep(start: number, now: number, out: OpportunityChange[], dirty: Dirty): void {
    this.build(dirty, now, out);
    dirty.clear();
    this.freshness.enterStep(start);
    this.evict(start, now, out);
    this.verdicts.settle(start, now, out, this.activeCount, () => this.held());
  }

  /** Recomputes each family `dirty` lists, in event and family order. */
  private build(dirty: Dirty, now: number, out: OpportunityChange[]): void {
    for (const eventId of [...dirty.keys()].sort()) {
      const s = this.events.get(eventId);
      if (!s || s.event === null || isClosedStatus(s.event.status)) continue;
      const families = dirty.get(eventId) ?? new Map<string, Set<string> | 'all'>();
      for (const key of [...families.keys()].sort()) {
        const family = s.families.get(key);
        if (!family) continue;
        this.recompute(s, family, families.get(key) ?? 'all', now, out);
        if (family.rowCount === 0 && family.active.size === 0) s.families.delete(key);
      }
    }
  }

  /** What this processor's freshness ledger measured of a book: its row counts and thresholds (tests). */
  freshnessOf(book: string): BookFreshness {
    return this.freshness.bookReport(book);
  }

  /** Records held for a later look at their stale verdict (tests: they follow the active records). */
  get verdictsHeld(): number {
    return this.verdicts.held;
  }

  /** Every active record with its family, in event and family order. */
  private *held(): Generator<HeldRecord> {
    for (const id of [...this.events.keys()].sort()) {
      const s = this.events.get(id);
      if (!s) continue;
      for (const key of [...s.families.keys()].sort()) {
        const family = s.families.get(key);
        if (family) for (const o of family.active.values()) yield { o, family };
      }
    }
  }

  private count(out: readonly OpportunityChange[]): void {
    for (const c of out) {
      if (c.type === 'create') this.counters.created++;
      else if (c.type === 'update') this.counters.updated++;
      else this.counters.expired++;
    }
  }

  /**
   * A new search rate (null: none), applied at once: every family with an exchange row is
   * recomputed, in event and family order, so combinations that held only at the old rate expire
   * and those the new one finds are created. The same rate again changes nothing.
   */
  setSearchCommission(rate: number | null, now: number): OpportunityChange[] {
    if (rate === this.searchCommission) return [];
    this.searchCommission = rate;
    const out: OpportunityChange[] = [];
    for (const eventId of [...this.events.keys()].sort()) {
      const s = this.events.get(eventId);
      if (!s || s.event === null || isClosedStatus(s.event.status)) continue;
      for (const key of [...s.families.keys()].sort()) {
        const family = s.families.get(key);
        if (family && hasExchangeRow(family)) this.recompute(s, family, 'all', now, out);
      }
    }
    this.count(out);
    return out;
  }

  /** Every active opportunity, by event then id (tests, snapshots). */
  active(): Opportunity[] {
    const all: Opportunity[] = [];
    for (const id of [...this.events.keys()].sort()) {
      for (const f of this.events.get(id)?.families.values() ?? []) all.push(...f.active.values());
    }
    return all.sort((a, b) => (a.eventId === b.eventId ? a.id.localeCompare(b.id) : a.eventId.localeCompare(b.eventId)));
  }

  /** The event's state, created with `firstSeen` (what eviction counts from while no event record came) if new. */
  private state(eventId: string, firstSeen: number): ProcessorEventState {
    let s = this.events.get(eventId);
    if (!s) {
      s = { eventId, event: null, families: new Map(), slots: new Map(), unpriced: new Map(), firstSeen };
      this.events.set(eventId, s);
    }
    return s;
  }

  private onEvent(event: CanonicalEvent, now: number, out: OpportunityChange[], dirty: Dirty): void {
    const s = this.state(event.id, now);
    const previous = s.event;
    s.event = event;
    if (isClosedStatus(event.status)) {
      this.expireAll(s, now, out);
      return;
    }
    const relevant =
      !previous || previous.isLive !== event.isLive || previous.startTime !== event.startTime || previous.status !== event.status;
    if (!relevant) return;
    const families = new Map<string, Set<string> | 'all'>();
    for (const key of s.families.keys()) families.set(key, 'all');
    dirty.set(event.id, families);
  }

  private onChange(change: OddsChange, now: number, dirty: Dirty): void {
    // Observed time, as eviction judges it (`evict`); the wall clock only before any row was observed.
    const s = this.state(change.eventId, change.row?.observedAt ?? this.freshness.newest ?? now);
    let slot = s.slots.get(change.key);
    this.freshness.observe(slot?.row ?? s.unpriced.get(change.key), change.row);
    let family: FamilyState;
    // A suspended (locked) row prices nothing: to the engines it is gone until it reopens.
    const row = bettableRow(change);
    if (row === null) {
      if (change.row === null) s.unpriced.delete(change.key);
      else s.unpriced.set(change.key, change.row);
      if (!slot) return;
      family = slot.family;
      removeFromLine(family, slot.row, slot.lineKey);
      forgetRow(family.ids, slot.row.id);
      family.rowCount--;
      s.slots.delete(change.key);
    } else {
      if (!slot) {
        if (SKIPPED_MARKETS.has(row.market)) {
          s.unpriced.set(change.key, row);
          return;
        }
        s.unpriced.delete(change.key);
        const key = familyKey(row);
        let f = s.families.get(key);
        if (!f) {
          f = {
            key,
            market: row.market,
            participant: row.participant,
            statCategory: row.statCategory,
            family: selectionFamily(row.selection),
            rowCount: 0,
            lines: new Map(),
            active: new Map(),
            inputs: new Map(),
            ids: new IdCache(),
          };
          s.families.set(key, f);
        }
        slot = { family: f, lineKey: lineKey(canonicalLine(row)), row };
        s.slots.set(change.key, slot);
        f.rowCount++;
      }
      family = slot.family;
      slot.row = row;
      addToLine(family, row, slot.lineKey);
    }
    const touchedLine = slot.lineKey;
    let families = dirty.get(s.eventId);
    if (!families) {
      families = new Map();
      dirty.set(s.eventId, families);
    }
    const scope = families.get(family.key);
    if (scope === 'all') return;
    if (scope) scope.add(touchedLine);
    else families.set(family.key, new Set<string>().add(touchedLine));
  }

  private recompute(s: EventState, family: FamilyState, scope: Scope, now: number, out: OpportunityChange[]): void {
    const event = s.event;
    if (!event) return;
    ageIds(family.ids, now);
    const league = this.options.leagues.get(event.league);
    const ctx: EngineContext = {
      eventId: s.eventId,
      event,
      league,
      family,
      outcomes: outcomesOf(family, league),
      options: this.options,
      now,
      staleAfterSeconds: this.staleAfter,
    };
    const fresh: Candidate[] = [];
    const keys = scope === 'all' ? [...family.lines.keys()] : [...scope];
    keys.sort();
    for (const key of keys) {
      const group = family.lines.get(key);
      if (!group) continue;
      evCandidates(ctx, group, fresh);
      arbitrageCandidates(ctx, group, fresh);
      lowHoldCandidates(ctx, group, fresh);
    }
    middleCandidates(ctx, fresh);
    if (this.searchCommission !== null) this.searchBelowBoardRates(ctx, keys, this.searchCommission, fresh);
    const before = family.active.size;
    const emitted = out.length;
    const generation = this.freshness.thresholdRises + this.freshness.thresholdFalls;
    advance(family, fresh, scope, now, out, { generation, restamp: (o) => this.restamp(o, now) });
    this.activeCount += family.active.size - before;
    for (let i = emitted; i < out.length; i++) {
      const c = out[i] as OpportunityChange;
      if (c.type !== 'expire') this.verdicts.track(c.opportunity, family);
    }
  }

  /** The record on today's thresholds, stamped `now`; itself when its clock is today's already. */
  private restamp(o: Opportunity, now: number): Opportunity {
    const today = clockNow(o, this.staleAfter);
    const own = staleClockOfRecord(o);
    return today.freshUntil === own.freshUntil && today.limitSeconds === own.limitSeconds ? o : retimed(o, today, now);
  }

  /**
   * The combinations the same lines hold with exchange rows priced at the search rate, beside the
   * board's (`fresh`): one found at the board's rates too stays as the board found it (a default
   * caller's answers are exactly what they were), and only those with an exchange leg the search
   * priced below its own rate are kept, each marked with the rate (`foundAtCommission`).
   */
  private searchBelowBoardRates(ctx: EngineContext, keys: readonly string[], rate: number, fresh: Candidate[]): void {
    const family = familyAtSearchRate(ctx.family, rate);
    if (family === null) return;
    const searched: EngineContext = { ...ctx, family };
    const found: Candidate[] = [];
    for (const key of keys) {
      const group = family.lines.get(key);
      if (!group) continue;
      arbitrageCandidates(searched, group, found);
      lowHoldCandidates(searched, group, found);
    }
    middleCandidates(searched, found);
    const boards = new Set<string>();
    for (const c of fresh) boards.add(c.id);
    for (const c of found) {
      if (boards.has(c.id) || !c.rows.some(pricedBelowItsRate)) continue;
      boards.add(c.id);
      fresh.push({
        ...c,
        build: () => {
          const o = c.build();
          if (o.kind !== 'ev') o.foundAtCommission = rate;
          return o;
        },
      });
    }
  }

  private expireAll(s: EventState, now: number, out: OpportunityChange[]): void {
    for (const key of [...s.families.keys()].sort()) {
      const f = s.families.get(key);
      if (!f) continue;
      const ids = [...f.active.keys()].sort();
      for (const id of ids) {
        const o = f.active.get(id);
        if (o) out.push({ type: 'expire', opportunity: expire(o, now, 'event_closed') });
      }
      this.activeCount -= ids.length;
      f.active.clear();
      f.inputs.clear();
    }
  }

  /**
   * Drops events long past their start at `at` (and states that never got an event), their rows
   * leaving the freshness ledger as removed rows: their counts and waits for a confirmation do
   * not stay behind. `now` stamps the expiries.
   */
  private evict(at: number, now: number, out: OpportunityChange[]): void {
    const retain = this.options.retainAfterStartMs;
    for (const [id, s] of [...this.events.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      const since = s.event ? s.event.startTime : s.firstSeen;
      if (since + retain >= at) continue;
      this.expireAll(s, now, out);
      for (const slot of s.slots.values()) this.freshness.observe(slot.row, null);
      for (const row of s.unpriced.values()) this.freshness.observe(row, null);
      this.events.delete(id);
    }
  }
}
