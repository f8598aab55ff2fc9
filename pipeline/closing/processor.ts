import { CLOSING_DEVIG_METHODS, bettableRow, isClosedStatus, selectionFamily } from '../../schemas/index.js';
import type {
  CanonicalEvent,
  ClosingLine,
  ClvGrade,
  ClosingDevigMethod,
  EvOpportunity,
  GameState,
  GradeResult,
  OddsChange,
  OddsRow,
  Opportunity,
  SelectionType,
} from '../../schemas/index.js';
import { americanToDecimal, clvPercent, deVig, roundedDecimalOdds, roundedImpliedProbability } from '../odds-math/index.js';
import { canonicalLine, familyKey, lineKey, outcomesOf, resolveOptions, round } from '../opportunities/index.js';
import type { OpportunityOptions, ResolvedOptions } from '../opportunities/index.js';

export type ClosingInput =
  | { type: 'odds'; change: OddsChange }
  | { type: 'event'; event: CanonicalEvent }
  | { type: 'opportunity'; opportunity: Opportunity }
  | { type: 'gamestate'; state: GameState };

export interface ClosingOutput {
  closing: ClosingLine[];
  grades: ClvGrade[];
  /** +EV opportunities seen for the first time (as detected): kept in the store, restored at start. */
  entries: EvOpportunity[];
}

/**
 * What grading and settling read of a +EV opportunity, as first seen (the price at detection).
 * The whole record (every de-vig method, the event, the legs: about 1.4 KB) was kept until its
 * event was evicted, hours after the start; this is a fraction of it.
 */
type EvSighting = Pick<
  ClvGrade,
  | 'eventId'
  | 'sport'
  | 'league'
  | 'market'
  | 'participant'
  | 'statCategory'
  | 'book'
  | 'selection'
  | 'line'
  | 'detectedAt'
  | 'priceAmerican'
  | 'priceDecimal'
  | 'evPercent'
  | 'fairProbability'
  | 'sharpBook'
> & {
  id: string;
  /** The event's start as the opportunity saw it: the grade's until the event record is here. */
  startTime: number;
};

interface Entry extends EvSighting {
  grade: ClvGrade | null;
}

function entryOf(o: EvOpportunity): Entry {
  return {
    id: o.id,
    eventId: o.eventId,
    sport: o.event.sport,
    league: o.event.league,
    startTime: o.event.startTime,
    market: o.market,
    participant: o.participant,
    statCategory: o.statCategory,
    book: o.book,
    selection: o.selection,
    line: o.line,
    detectedAt: o.detectedAt,
    priceAmerican: o.priceAmerican,
    priceDecimal: o.priceDecimal,
    evPercent: o.methods.power.evPercent,
    fairProbability: o.methods.power.fairProbability,
    sharpBook: o.sharpBook,
    grade: null,
  };
}

/**
 * What a close is made of: a pre-match row, or (once the book pulled the line) only these fields
 * of it. A line pulled before the start is kept until the capture, which may be hours or days
 * away, because only then is it known whether it was pulled before the start as corrected by then
 * (it did not close) or at kickoff (it did); the whole row (its id, links, exchange quote) was held
 * all that time for nine fields (docs/soak.md, round nine).
 */
type PreMatchPrice = Pick<
  OddsRow,
  'eventId' | 'book' | 'market' | 'participant' | 'statCategory' | 'selection' | 'line' | 'priceAmerican' | 'ts'
>;

function preMatchPrice(r: PreMatchPrice): PreMatchPrice {
  return {
    eventId: r.eventId,
    book: r.book,
    market: r.market,
    participant: r.participant,
    statCategory: r.statCategory,
    selection: r.selection,
    line: r.line,
    priceAmerican: r.priceAmerican,
    ts: r.ts,
  };
}

interface EventState {
  event: CanonicalEvent | null;
  /** Row key -> the latest pre-match price (kept through the kickoff suspensions). */
  pre: Map<string, PreMatchPrice>;
  /** Row key -> when the row was pulled, before the capture: lines pulled before the start did not close. */
  removed: Map<string, number>;
  /** Set once captured: row key -> closing line. */
  closing: Map<string, ClosingLine> | null;
  capturedAt: number | null;
  /** `${id}@${detectedAt}` -> +EV opportunity detected before the start. */
  evs: Map<string, Entry>;
  final: { home: number; away: number } | null;
  firstSeen: number;
}

const METHODS: readonly ClosingDevigMethod[] = CLOSING_DEVIG_METHODS;
const EVICT_EVERY_INPUTS = 10_000;
/**
 * +EV occurrences kept per event for grading: a bound on memory whatever the feed sends (the
 * two Odds API recordings reach at most 51 per game). Occurrences past it are neither stored nor graded,
 * and counted (`counters.entriesOverCap`).
 */
export const MAX_ENTRIES_PER_EVENT = 5_000;

/**
 * Closing lines and CLV, as a pure state machine over the snapshot changelog, the events, the
 * opportunities and the game states (all partitioned by event id). An event is captured the
 * first time it is seen live (its event record, or any book's live price): every book's last
 * pre-match price per market and line becomes its close, with the sharp references' de-vigged
 * closing probability by every method. Every +EV opportunity detected before the start is then
 * graded: CLV % = (closing no-vig probability x entry decimal - 1) x 100 (power de-vig of the
 * best-ranked reference that closed the line, several averaged like the +EV engine does); once a
 * final score arrives, full-game moneylines, spreads and totals are settled win, loss or push.
 * Pre-match prices that reach it after the capture (a stage that lagged) amend the close.
 */
export class ClosingProcessor {
  private readonly options: ResolvedOptions;
  private readonly events = new Map<string, EventState>();
  private sinceEviction = 0;
  readonly counters = { captured: 0, closingLines: 0, graded: 0, settled: 0, entriesOverCap: 0 };

  constructor(options: OpportunityOptions = {}) {
    this.options = resolveOptions(options);
  }

  get eventCount(): number {
    return this.events.size;
  }

  /** +EV sightings kept for grading, over every event (tests). */
  get sightingCount(): number {
    let n = 0;
    for (const s of this.events.values()) n += s.evs.size;
    return n;
  }

  handleBatch(inputs: readonly ClosingInput[], now: number): ClosingOutput {
    const out: ClosingOutput = { closing: [], grades: [], entries: [] };
    this.sinceEviction += inputs.length;
    if (this.sinceEviction >= EVICT_EVERY_INPUTS) {
      this.sinceEviction = 0;
      this.evict(now);
    }
    for (const input of inputs) {
      switch (input.type) {
        case 'odds':
          this.onChange(input.change, now, out);
          break;
        case 'event':
          this.onEvent(input.event, now, out);
          break;
        case 'opportunity':
          if (input.opportunity.kind === 'ev') this.onEv(input.opportunity, now, out);
          break;
        case 'gamestate':
          this.onGameState(input.state, now, out);
          break;
      }
    }
    return out;
  }

  /**
   * Restores captured closes (from `closing_odds`) before the changelogs are replayed: an event
   * restored this way is not captured again (the live prices replayed after it would otherwise
   * become its close), and pre-match prices replayed later amend it only if newer than its close.
   */
  restore(lines: readonly ClosingLine[], now: number): void {
    for (const line of lines) {
      const s = this.state(line.eventId, now);
      if (s.closing === null) {
        s.closing = new Map();
        s.capturedAt = line.capturedAt;
      }
      s.closing.set(line.rowKey, line);
      s.pre.set(line.rowKey, preMatchPrice({ ...line, ts: line.oddsTs }));
    }
  }

  /** The pre-match prices an event's close will be made of, by row key (tests). */
  preMatchOf(eventId: string): Map<string, PreMatchPrice> {
    return new Map(this.events.get(eventId)?.pre);
  }

  /** The captured close of an event (tests). */
  closingOf(eventId: string): ClosingLine[] {
    return [...(this.events.get(eventId)?.closing?.values() ?? [])];
  }

  private state(eventId: string, now: number): EventState {
    let s = this.events.get(eventId);
    if (!s) {
      s = { event: null, pre: new Map(), removed: new Map(), closing: null, capturedAt: null, evs: new Map(), final: null, firstSeen: now };
      this.events.set(eventId, s);
    }
    return s;
  }

  private onChange(change: OddsChange, now: number, out: ClosingOutput): void {
    const s = this.state(change.eventId, now);
    // A suspended (locked) price cannot be bet: it closes like a pulled one (see capture).
    const row = bettableRow(change);
    if (row === null) {
      // Whether the line was pulled before the start (it did not close) or at kickoff (it did) is
      // decided at the capture, against the start time as corrected by then.
      // The first removal counts: a locked line that is pulled later stopped being bettable at its lock.
      if (s.closing !== null || s.removed.has(change.key)) return;
      const last = s.pre.get(change.key);
      if (last === undefined) return;
      s.removed.set(change.key, change.changedAt);
      s.pre.set(change.key, preMatchPrice(last));
      return;
    }
    if (row.isLive) {
      if (s.closing === null) this.capture(s, now, out);
      return;
    }
    if (row.market === 'future') return;
    if (s.closing === null) {
      s.pre.set(change.key, row);
      s.removed.delete(change.key);
      return;
    }
    // A pre-match price that arrives after the capture (another stage ran ahead): amend the close.
    const before = s.pre.get(change.key);
    if (before && before.ts >= row.ts) return;
    s.pre.set(change.key, row);
    this.recloseGroup(s, row, now, out);
  }

  private onEvent(event: CanonicalEvent, now: number, out: ClosingOutput): void {
    const s = this.state(event.id, now);
    s.event = event;
    if (s.closing === null && (event.isLive || event.status === 'live' || event.status === 'final')) this.capture(s, now, out);
    if (s.closing === null && isClosedStatus(event.status)) {
      // Postponed or cancelled: no close, so nothing to grade either. The sightings went only
      // with the event, a day after its start, which a postponement may have moved far ahead.
      s.pre.clear();
      s.removed.clear();
      s.evs.clear();
    }
  }

  private onEv(o: EvOpportunity, now: number, out: ClosingOutput): void {
    // Only bets a user could have placed before the start are graded against the close.
    if (o.event.isLive || o.detectedAt >= o.event.startTime) return;
    const s = this.state(o.eventId, now);
    // Postponed or cancelled before any close (a version replayed after the event's record).
    if (s.closing === null && s.event !== null && isClosedStatus(s.event.status)) return;
    const key = `${o.id}@${o.detectedAt}`;
    if (s.evs.has(key)) return;
    if (s.evs.size >= MAX_ENTRIES_PER_EVENT) {
      this.counters.entriesOverCap++;
      return;
    }
    const entry = entryOf(o);
    s.evs.set(key, entry);
    out.entries.push(o);
    if (s.closing !== null) this.grade(s, entry, now, out);
  }

  private onGameState(state: GameState, now: number, out: ClosingOutput): void {
    if (state.status !== 'final') return;
    const s = this.state(state.eventId, now);
    s.final = { home: state.homeScore, away: state.awayScore };
    for (const entry of s.evs.values()) if (entry.grade) this.settle(entry, s.final, now, out);
  }

  private capture(s: EventState, now: number, out: ClosingOutput): void {
    const event = s.event;
    if (!event) return; // the event record always precedes its rows' consumers by design; wait for it
    for (const [key, at] of s.removed) if (at < event.startTime) s.pre.delete(key);
    s.removed.clear();
    s.closing = new Map();
    s.capturedAt = now;
    this.counters.captured++;
    const groups = new Set<string>();
    for (const row of s.pre.values()) groups.add(groupKey(row));
    for (const g of [...groups].sort()) this.closeGroup(s, event, g, now, out);
    for (const entry of s.evs.values()) this.grade(s, entry, now, out);
  }

  private recloseGroup(s: EventState, row: OddsRow, now: number, out: ClosingOutput): void {
    const event = s.event;
    if (!event || s.closing === null) return;
    const group = groupKey(row);
    this.closeGroup(s, event, group, now, out);
    for (const entry of s.evs.values()) if (groupKey(entry) === group) this.grade(s, entry, now, out);
  }

  /** Closes one market group (family and canonical line): every book's row, with the references' no-vig. */
  private closeGroup(s: EventState, event: CanonicalEvent, group: string, now: number, out: ClosingOutput): void {
    const rows = [...s.pre.entries()].filter(([, r]) => groupKey(r) === group);
    const first = rows[0]?.[1];
    if (!first || s.closing === null) return;
    const outcomes = outcomesOf({ market: first.market, family: selectionFamily(first.selection) }, this.options.leagues.get(event.league));
    const byBook = new Map<string, Map<SelectionType, PreMatchPrice>>();
    for (const [, r] of rows) {
      let m = byBook.get(r.book);
      if (!m) byBook.set(r.book, (m = new Map()));
      m.set(r.selection, r);
    }
    const complete = (book: string): PreMatchPrice[] | null => {
      const m = byBook.get(book);
      if (!m) return null;
      const list: PreMatchPrice[] = [];
      for (const sel of outcomes) {
        const r = m.get(sel);
        if (!r) return null;
        list.push(r);
      }
      return list;
    };
    const fairOf = (list: PreMatchPrice[]): Record<ClosingDevigMethod, number[]> | null => {
      try {
        const decimals = list.map((r) => americanToDecimal(r.priceAmerican));
        const f = {} as Record<ClosingDevigMethod, number[]>;
        for (const m of METHODS) f[m] = deVig(m, decimals);
        return f;
      } catch {
        return null;
      }
    };
    const refsFrom = (books: readonly string[]): { book: string; fair: Record<ClosingDevigMethod, number[]> }[] =>
      books.flatMap((b) => {
        const list = complete(b);
        const fair = list ? fairOf(list) : null;
        return fair ? [{ book: b, fair }] : [];
      });
    let refs = refsFrom(this.options.referenceBooks);
    if (refs.length === 0) refs = refsFrom(this.options.fallbackReferenceBooks);
    for (const [key, r] of rows.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const i = outcomes.indexOf(r.selection);
      const noVig = {} as Record<ClosingDevigMethod, number | null>;
      for (const m of METHODS)
        noVig[m] = refs.length > 0 && i >= 0 ? round(refs.reduce((sum, ref) => sum + (ref.fair[m][i] ?? 0), 0) / refs.length, 6) : null;
      const own = complete(r.book);
      const ownFair = own ? fairOf(own) : null;
      const line: ClosingLine = {
        rowKey: key,
        eventId: r.eventId,
        sport: event.sport,
        league: event.league,
        homeTeamId: event.homeTeamId,
        awayTeamId: event.awayTeamId,
        eventStartTime: event.startTime,
        book: r.book,
        market: r.market,
        participant: r.participant,
        statCategory: r.statCategory,
        selection: r.selection,
        line: r.line,
        priceAmerican: r.priceAmerican,
        priceDecimal: roundedDecimalOdds(r.priceAmerican),
        impliedProbability: roundedImpliedProbability(r.priceAmerican),
        bookNoVigProbability: ownFair && i >= 0 ? round(ownFair.power[i] ?? 0, 6) : null,
        noVig,
        referenceBooks: refs.map((x) => x.book),
        oddsTs: r.ts,
        capturedAt: s.capturedAt ?? now,
      };
      const previous = s.closing.get(key);
      if (previous && previous.priceAmerican === line.priceAmerican && previous.oddsTs === line.oddsTs && sameNoVig(previous, line))
        continue;
      s.closing.set(key, line);
      out.closing.push(line);
      this.counters.closingLines++;
    }
  }

  private grade(s: EventState, o: Entry, now: number, out: ClosingOutput): void {
    const group = groupKey(o);
    let ref: ClosingLine | null = null;
    let own: ClosingLine | null = null;
    for (const c of s.closing?.values() ?? []) {
      if (c.selection !== o.selection || groupKey(c) !== group) continue;
      if (c.noVig.power !== null) ref ??= c;
      if (c.book === o.book) own = c;
    }
    const p = ref?.noVig.power ?? null;
    const grade: ClvGrade = {
      opportunityId: o.id,
      eventId: o.eventId,
      sport: o.sport,
      league: o.league,
      market: o.market,
      participant: o.participant,
      statCategory: o.statCategory,
      book: o.book,
      selection: o.selection,
      line: o.line,
      eventStartTime: s.event?.startTime ?? o.startTime,
      detectedAt: o.detectedAt,
      priceAmerican: o.priceAmerican,
      priceDecimal: o.priceDecimal,
      evPercent: o.evPercent,
      fairProbability: o.fairProbability,
      sharpBook: o.sharpBook,
      closingDevigBook: ref?.referenceBooks[0] ?? null,
      closingNoVigProbability: p,
      closingPriceAmerican: own?.priceAmerican ?? null,
      clvPercent: p === null ? null : round(clvPercent(p, americanToDecimal(o.priceAmerican)), 4),
      result: o.grade?.result ?? null,
      gradedAt: now,
    };
    if (o.grade && sameGrade(o.grade, grade)) return;
    o.grade = grade;
    out.grades.push(grade);
    this.counters.graded++;
    if (s.final) this.settle(o, s.final, now, out);
  }

  private settle(entry: Entry, final: { home: number; away: number }, now: number, out: ClosingOutput): void {
    const g = entry.grade;
    if (!g || g.result !== null) return;
    const result = settle(g, final);
    if (result === null) return;
    entry.grade = { ...g, result, gradedAt: now };
    out.grades.push(entry.grade);
    this.counters.settled++;
  }

  private evict(now: number): void {
    const retain = this.options.retainAfterStartMs;
    for (const [id, s] of this.events) {
      const since = s.event ? s.event.startTime : s.firstSeen;
      if (since + retain < now) this.events.delete(id);
    }
  }
}

/** Family and canonical line: the rows priced against each other. */
function groupKey(r: {
  market: OddsRow['market'];
  participant: string | null;
  statCategory: string | null;
  selection: SelectionType;
  line: number | null;
}): string {
  return `${familyKey(r)}|${lineKey(canonicalLine(r))}`;
}

/**
 * Settles a full-game bet on the final score; null for markets the score cannot settle here
 * (periods, team totals, props, outrights).
 */
export function settle(
  g: { market: string; selection: SelectionType; line: number | null },
  final: { home: number; away: number },
): GradeResult | null {
  const margin = final.home - final.away;
  const decide = (x: number): GradeResult => (x > 0 ? 'win' : x < 0 ? 'loss' : 'push');
  switch (g.market) {
    case 'moneyline':
      if (g.selection === 'home') return margin > 0 ? 'win' : 'loss';
      if (g.selection === 'away') return margin < 0 ? 'win' : 'loss';
      if (g.selection === 'draw') return margin === 0 ? 'win' : 'loss';
      return null;
    case 'point_spread':
      if (g.line === null) return null;
      if (g.selection === 'home') return decide(margin + g.line);
      if (g.selection === 'away') return decide(-margin + g.line);
      return null;
    case 'total_points':
      if (g.line === null) return null;
      if (g.selection === 'over') return decide(final.home + final.away - g.line);
      if (g.selection === 'under') return decide(g.line - (final.home + final.away));
      return null;
    default:
      return null;
  }
}

function sameNoVig(a: ClosingLine, b: ClosingLine): boolean {
  return METHODS.every((m) => a.noVig[m] === b.noVig[m]) && a.bookNoVigProbability === b.bookNoVigProbability;
}

function sameGrade(a: ClvGrade, b: ClvGrade): boolean {
  return (
    a.clvPercent === b.clvPercent &&
    a.closingNoVigProbability === b.closingNoVigProbability &&
    a.closingPriceAmerican === b.closingPriceAmerican &&
    a.closingDevigBook === b.closingDevigBook
  );
}
