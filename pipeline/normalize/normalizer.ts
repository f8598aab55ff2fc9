import { MARKET_IDS, isClosedStatus, isSplitsBook } from '../../schemas/index.js';
import type {
  CanonicalEvent,
  GameState,
  LeagueDef,
  RawGameState,
  OddsTick,
  RawSplits,
  RawTick,
  SelectionType,
  SplitsObservation,
  SplitSide,
  TeamDef,
} from '../../schemas/index.js';
import { TeamDirectory } from './team-directory.js';

/** A book's own event id, own keys only: a book named `constructor` is a book, not a method. */
function bookEventIdOf(event: CanonicalEvent, book: string): string | undefined {
  return Object.hasOwn(event.externalIds, book) ? event.externalIds[book] : undefined;
}

const KNOWN_MARKETS: ReadonlySet<string> = new Set(MARKET_IDS);

export type UnmatchedReason =
  | 'unknown_league'
  | 'unknown_market'
  | 'unknown_team'
  | 'unknown_outcome'
  | 'same_team_both_sides'
  | 'splits_without_event'
  | 'splits_unknown_book'
  | 'event_closed';

export interface NormalizeResult {
  tick: OddsTick | null;
  /** Canonical events created or changed by this tick. */
  events: CanonicalEvent[];
  unmatched: UnmatchedReason | null;
}

export interface NormalizerOptions {
  /**
   * How far apart two books' start times for one game may be. Books disagree by minutes to
   * hours; doubleheaders are usually three or more hours apart, and a book never lists one game
   * twice, which is what separates the two games of a doubleheader when times are close.
   */
  matchToleranceMs?: number;
  /** Events whose start is this long past are forgotten (bounded memory over days of running). */
  retainAfterStartMs?: number;
  /**
   * A live event whose source reports no game state (odds recordings, odds-only APIs) is
   * declared `final` this long after its start.
   */
  finalAfterStartMs?: number;
}

export interface GameStateResult {
  state: GameState | null;
  /** The event, when the game state changed its status. */
  events: CanonicalEvent[];
  unmatched: 'unknown_listing' | null;
}

export interface NormalizeSplitsResult {
  splits: SplitsObservation | null;
  /** Canonical events changed by this record (a book's listing found by teams and time). */
  events: CanonicalEvent[];
  /** The canonical event the splits belong to, as it stands. */
  event: CanonicalEvent | null;
  unmatched: UnmatchedReason | null;
}

interface EventState {
  event: CanonicalEvent;
  /** The book whose listing created the event: its start time updates are followed. */
  anchorBook: string;
  pairKey: string;
  /** Whether a game-state source reports on this event (its status then follows that source). */
  reported: boolean;
}

const DEFAULT_TOLERANCE_MS = 3 * 60 * 60 * 1000;
const DEFAULT_RETAIN_MS = 24 * 60 * 60 * 1000;
const DEFAULT_FINAL_AFTER_MS = 6 * 60 * 60 * 1000;
const EVICT_EVERY_TICKS = 10_000;

/**
 * Raw ticks in a book's vocabulary -> ticks on canonical events. Deterministic: the same raw
 * sequence gives the same event ids and ticks. State: the listing map (book event id -> event)
 * and the events by league and team pair.
 */
export class Normalizer {
  private readonly teams: TeamDirectory;
  private readonly leagues: Map<string, LeagueDef>;
  private readonly listings = new Map<string, string>();
  private readonly events = new Map<string, EventState>();
  private readonly byPair = new Map<string, string[]>();
  private readonly tolerance: number;
  private readonly retain: number;
  private readonly finalAfter: number;
  private sinceEviction = 0;
  /** Ids evicted since the last `takeForgotten`: the stage publishes their tombstones on `events`. */
  private forgotten: string[] = [];
  readonly counts = { matched: 0, unmatched: new Map<UnmatchedReason, number>() };

  constructor(catalog: { teams: readonly TeamDef[]; leagues: readonly LeagueDef[] }, options: NormalizerOptions = {}) {
    this.teams = new TeamDirectory(catalog.teams);
    this.leagues = new Map(catalog.leagues.map((l) => [l.id, l]));
    this.tolerance = options.matchToleranceMs ?? DEFAULT_TOLERANCE_MS;
    this.retain = options.retainAfterStartMs ?? DEFAULT_RETAIN_MS;
    this.finalAfter = options.finalAfterStartMs ?? DEFAULT_FINAL_AFTER_MS;
  }

  /**
   * A game-state report in a book's vocabulary -> the state on the canonical event. The
   * listing must be known (the book's odds name it first); the status it reports becomes the
   * event's status, and the scores are turned to the canonical home and away.
   */
  handleGameState(raw: RawGameState, now: number): GameStateResult {
    const id = this.listings.get(`${raw.book}|${raw.bookEventId}`);
    const s = id === undefined ? undefined : this.events.get(id);
    if (!s) return { state: null, events: [], unmatched: 'unknown_listing' };
    s.reported = true;
    const e = s.event;
    const events: CanonicalEvent[] = [];
    if (!isClosedStatus(e.status) && e.status !== raw.status) {
      s.event = { ...e, status: raw.status, isLive: raw.status === 'live', updatedAt: now };
      events.push(s.event);
    }
    const swapped = this.teams.resolve(e.league, raw.homeTeam) === e.awayTeamId;
    const flip = <T>(pair: [T, T] | undefined): [T, T] | undefined => (pair && swapped ? [pair[1], pair[0]] : pair);
    const side = (x: 'home' | 'away' | null): 'home' | 'away' | null => (x === null || !swapped ? x : x === 'home' ? 'away' : 'home');
    const extras = { ...raw.extras };
    for (const k of ['corners', 'yellowCards', 'redCards', 'fouls', 'sets', 'wickets'] as const) {
      const v = flip(raw.extras[k]);
      if (v) extras[k] = v;
    }
    const overs = flip(raw.extras.overs);
    if (overs) extras.overs = overs;
    if (raw.extras.powerPlay !== undefined) extras.powerPlay = side(raw.extras.powerPlay);
    return {
      state: {
        eventId: e.id,
        sport: e.sport,
        league: e.league,
        homeTeamId: e.homeTeamId,
        awayTeamId: e.awayTeamId,
        status: s.event.status,
        homeScore: swapped ? raw.awayScore : raw.homeScore,
        awayScore: swapped ? raw.homeScore : raw.awayScore,
        period: raw.period,
        clock: raw.clock,
        possession: side(raw.possession),
        server: side(raw.server),
        lastPlay: raw.lastPlay,
        extras,
        primaryBook: raw.book,
        bookCount: Object.keys(e.externalIds).length,
        updatedAt: raw.ts,
      },
      events,
      unmatched: null,
    };
  }

  /**
   * Live events no game-state source reports on become `final` once `finalAfterStartMs` has
   * passed since their start (odds recordings say when a game starts, never when it ends).
   */
  closeFinishedEvents(now: number): CanonicalEvent[] {
    const out: CanonicalEvent[] = [];
    for (const s of this.events.values()) {
      const e = s.event;
      if (s.reported || e.status !== 'live' || e.startTime + this.finalAfter > now) continue;
      s.event = { ...e, status: 'final', isLive: false, updatedAt: now };
      out.push(s.event);
    }
    return out;
  }

  get eventCount(): number {
    return this.events.size;
  }

  /**
   * Rebuilds matching state from the `events` changelog (latest version per event): listings
   * from `externalIds`, and the creating book (whose start-time corrections are followed) as the
   * first book listed, which is the order the events were built in.
   */
  restore(event: CanonicalEvent): void {
    const key = pairKey(event.league, event.homeTeamId, event.awayTeamId);
    const known = this.events.get(event.id);
    const books = Object.keys(event.externalIds);
    // Whether a game-state source reports on it comes back with its next game state.
    this.events.set(event.id, { event, anchorBook: known?.anchorBook ?? books[0] ?? '', pairKey: key, reported: known?.reported ?? false });
    if (!known) {
      const list = this.byPair.get(key);
      if (list) list.push(event.id);
      else this.byPair.set(key, [event.id]);
    }
    for (const book of books) this.listings.set(`${book}|${event.externalIds[book] ?? ''}`, event.id);
  }

  handle(raw: RawTick, now: number): NormalizeResult {
    if (++this.sinceEviction >= EVICT_EVERY_TICKS) {
      this.sinceEviction = 0;
      this.evict(now);
    }
    const league = this.leagues.get(raw.league);
    if (!league || league.sport !== raw.sport) return this.miss('unknown_league');
    // The typed feeds cannot send another market, but a recording, a pushed tick or a JSON topic
    // can: past this point it would become rows and opportunities no answer schema can present.
    if (!KNOWN_MARKETS.has(raw.market)) return this.miss('unknown_market');

    const listingKey = `${raw.book}|${raw.bookEventId}`;
    const changed: CanonicalEvent[] = [];
    let state: EventState | undefined;
    const known = this.listings.get(listingKey);
    if (known !== undefined) state = this.events.get(known);

    if (!state) {
      const homeId = this.teams.resolve(raw.league, raw.homeTeam);
      const awayId = this.teams.resolve(raw.league, raw.awayTeam);
      if (homeId === undefined || awayId === undefined) return this.miss('unknown_team');
      if (homeId === awayId) return this.miss('same_team_both_sides');
      state = this.match(raw, homeId, awayId) ?? this.create(raw, homeId, awayId, now);
      this.listings.set(listingKey, state.event.id);
      if (bookEventIdOf(state.event, raw.book) !== raw.bookEventId) {
        state.event = {
          ...state.event,
          externalIds: { ...state.event.externalIds, [raw.book]: raw.bookEventId },
          updatedAt: now,
        };
        changed.push(state.event);
      }
    }

    // Prices on a finished, postponed or cancelled event are late: its odds stay suspended.
    if (isClosedStatus(state.event.status) && raw.status === 'open')
      return { tick: null, events: changed, unmatched: this.count('event_closed') };
    const updated = this.applyListingUpdates(state, raw, now);
    if (updated && !changed.includes(state.event)) changed.push(state.event);

    const selection = this.selection(state.event, raw);
    if (selection === undefined) return { tick: null, events: changed, unmatched: this.count('unknown_outcome') };
    let participant: string | null = null;
    if (raw.market === 'team_total') {
      const side = raw.participant === null ? undefined : this.side(state.event, raw.participant);
      if (side === undefined) return { tick: null, events: changed, unmatched: this.count('unknown_outcome') };
      participant = side;
    } else if (raw.participant !== null) {
      participant = raw.participant.trim();
    }

    this.counts.matched++;
    return {
      tick: {
        eventId: state.event.id,
        book: raw.book,
        market: raw.market,
        selection,
        line: raw.line,
        participant,
        statCategory: raw.statCategory,
        // A suspension keeps its price when the book froze one (a lock); null is a pull.
        priceAmerican: raw.priceAmerican,
        status: raw.priceAmerican === null ? 'suspended' : raw.status,
        ts: raw.ts,
        isLive: raw.isLive,
        bookEventId: raw.bookEventId,
        selectionId: raw.selectionId,
        oddsChangedAt: raw.oddsChangedAt,
        observedAt: raw.observedAt,
        ...(raw.exchange != null ? { exchange: raw.exchange } : {}),
      },
      events: changed,
      unmatched: null,
    };
  }

  /**
   * A book's splits onto the canonical event and sides. Splits never create an event: a book
   * publishes them for games it prices, so the event is known from its ticks, which the feed
   * emitted earlier on the same partition. A listing not seen yet is matched by teams and
   * start time like a tick's; nothing found is counted as `splits_without_event`. Only the
   * splits books' splits are kept: the splits contract names them.
   */
  handleSplits(raw: RawSplits, now: number): NormalizeSplitsResult {
    const book = raw.book;
    if (!isSplitsBook(book)) return { splits: null, events: [], event: null, unmatched: this.count('splits_unknown_book') };
    const league = this.leagues.get(raw.league);
    if (!league || league.sport !== raw.sport) return { splits: null, events: [], event: null, unmatched: this.count('unknown_league') };
    const listingKey = `${raw.book}|${raw.bookEventId}`;
    const changed: CanonicalEvent[] = [];
    const known = this.listings.get(listingKey);
    let state = known === undefined ? undefined : this.events.get(known);
    if (!state) {
      const homeId = this.teams.resolve(raw.league, raw.homeTeam);
      const awayId = this.teams.resolve(raw.league, raw.awayTeam);
      if (homeId === undefined || awayId === undefined)
        return { splits: null, events: [], event: null, unmatched: this.count('unknown_team') };
      state = this.match({ league: raw.league, book: raw.book, startTime: raw.startTime }, homeId, awayId);
      if (!state) return { splits: null, events: [], event: null, unmatched: this.count('splits_without_event') };
      this.listings.set(listingKey, state.event.id);
      state.event = { ...state.event, externalIds: { ...state.event.externalIds, [raw.book]: raw.bookEventId }, updatedAt: now };
      changed.push(state.event);
    }
    const event = state.event;
    const sides: SplitsObservation['sides'] = [];
    for (const s of raw.sides) {
      const side = this.splitSide(event, s.market, s.outcome);
      if (side === undefined || !validShare(s.betPct) || !validShare(s.handlePct)) continue;
      sides.push({ market: s.market, side, betPct: s.betPct, handlePct: s.handlePct });
    }
    if (sides.length === 0) return { splits: null, events: changed, event, unmatched: this.count('unknown_outcome') };
    return { splits: { eventId: event.id, book, ts: raw.ts, sides }, events: changed, event, unmatched: null };
  }

  private splitSide(event: CanonicalEvent, market: RawSplits['sides'][number]['market'], outcome: string): SplitSide | undefined {
    if (market === 'total') {
      const o = outcome.trim().toLowerCase();
      return o === 'over' ? 'over' : o === 'under' ? 'under' : undefined;
    }
    return this.side(event, outcome);
  }

  /** Nearest event of the same pair within tolerance that this book does not list yet. */
  private match(raw: Pick<RawTick, 'league' | 'book' | 'startTime'>, homeId: string, awayId: string): EventState | undefined {
    const candidates = this.byPair.get(pairKey(raw.league, homeId, awayId)) ?? [];
    let best: EventState | undefined;
    let bestDiff = Number.POSITIVE_INFINITY;
    for (const id of candidates) {
      const s = this.events.get(id);
      if (!s || bookEventIdOf(s.event, raw.book) !== undefined) continue;
      const diff = Math.abs(s.event.startTime - raw.startTime);
      if (diff <= this.tolerance && diff < bestDiff) {
        best = s;
        bestDiff = diff;
      }
    }
    return best;
  }

  private create(raw: RawTick, homeId: string, awayId: string, now: number): EventState {
    const base = `${raw.league}-${isoDate(raw.startTime)}-${this.code(awayId)}-${this.code(homeId)}`;
    let id = base;
    for (let n = 2; this.events.has(id); n++) id = `${base}-${n}`;
    const key = pairKey(raw.league, homeId, awayId);
    const state: EventState = {
      event: {
        id,
        sport: raw.sport,
        league: raw.league,
        homeTeamId: homeId,
        awayTeamId: awayId,
        startTime: raw.startTime,
        status: raw.isLive ? 'live' : 'upcoming',
        isLive: raw.isLive,
        externalIds: {},
        updatedAt: now,
      },
      anchorBook: raw.book,
      pairKey: key,
      reported: false,
    };
    this.events.set(id, state);
    const list = this.byPair.get(key);
    if (list) list.push(id);
    else this.byPair.set(key, [id]);
    return state;
  }

  /** Live status from any book; start time only from the book that created the event. */
  private applyListingUpdates(state: EventState, raw: RawTick, now: number): boolean {
    const e = state.event;
    // A finished, postponed or cancelled event stays so, whatever a late tick says.
    if (isClosedStatus(e.status)) return false;
    const goesLive = raw.isLive && !e.isLive && !state.reported;
    const moves = raw.book === state.anchorBook && raw.startTime !== e.startTime;
    if (!goesLive && !moves) return false;
    state.event = {
      ...e,
      isLive: e.isLive || raw.isLive,
      status: e.isLive || raw.isLive ? 'live' : e.status,
      startTime: moves ? raw.startTime : e.startTime,
      updatedAt: now,
    };
    return true;
  }

  private selection(event: CanonicalEvent, raw: RawTick): SelectionType | undefined {
    switch (raw.outcome.trim().toLowerCase()) {
      case 'over':
        return 'over';
      case 'under':
        return 'under';
      case 'draw':
      case 'tie':
        return 'draw';
      case 'yes':
        return 'yes';
      case 'no':
        return 'no';
      default:
        return this.side(event, raw.outcome);
    }
  }

  private side(event: CanonicalEvent, teamName: string): 'home' | 'away' | undefined {
    const id = this.teams.resolve(event.league, teamName);
    if (id === event.homeTeamId) return 'home';
    if (id === event.awayTeamId) return 'away';
    return undefined;
  }

  private code(teamId: string): string {
    return (this.teams.team(teamId)?.abbreviation ?? teamId).toLowerCase();
  }

  private miss(reason: UnmatchedReason): NormalizeResult {
    return { tick: null, events: [], unmatched: this.count(reason) };
  }

  private count(reason: UnmatchedReason): UnmatchedReason {
    this.counts.unmatched.set(reason, (this.counts.unmatched.get(reason) ?? 0) + 1);
    return reason;
  }

  /**
   * Drops the events (and their listings) of the leagues `keep` refuses: after a rebalance, the
   * leagues whose raw partitions another process now normalizes. That process rebuilt them from
   * the `events` changelog; keeping them here would only let the lifecycle sweep close them twice.
   */
  forgetLeagues(keep: (league: string) => boolean): void {
    for (const [id, s] of this.events) if (!keep(s.event.league)) this.remove(id, s);
  }

  /**
   * The events evicted (a `retainAfterStartMs` past their start) since the last call. Their
   * tombstones on `events` let every reader of the changelog forget them too: without one, each
   * API board kept every event it had ever seen (docs/soak.md, round eight). Events dropped by
   * `forgetLeagues` are not among them: another process owns them now.
   */
  takeForgotten(): string[] {
    if (this.forgotten.length === 0) return [];
    const ids = this.forgotten;
    this.forgotten = [];
    return ids;
  }

  /** An event's tombstone, read back from the `events` changelog on restore: it stays forgotten. */
  forget(id: string): void {
    const s = this.events.get(id);
    if (s) this.remove(id, s);
  }

  private evict(now: number): void {
    for (const [id, s] of this.events) {
      if (s.event.startTime + this.retain >= now) continue;
      this.remove(id, s);
      this.forgotten.push(id);
    }
  }

  private remove(id: string, s: EventState): void {
    this.events.delete(id);
    const list = this.byPair.get(s.pairKey)?.filter((x) => x !== id) ?? [];
    if (list.length > 0) this.byPair.set(s.pairKey, list);
    else this.byPair.delete(s.pairKey);
    for (const [book, bookEventId] of Object.entries(s.event.externalIds)) {
      this.listings.delete(`${book}|${bookEventId}`);
    }
  }
}

function validShare(x: number): boolean {
  return Number.isFinite(x) && x >= 0 && x <= 1;
}

function pairKey(league: string, a: string, b: string): string {
  return a < b ? `${league}|${a}|${b}` : `${league}|${b}|${a}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}
