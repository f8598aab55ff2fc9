import type {
  CanonicalEvent,
  LeagueDef,
  OddsTick,
  RawTick,
  SelectionType,
  TeamDef,
} from '../../schemas/index.js';
import { TeamDirectory } from './team-directory.js';

export type UnmatchedReason = 'unknown_league' | 'unknown_team' | 'unknown_outcome' | 'same_team_both_sides';

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
}

interface EventState {
  event: CanonicalEvent;
  /** The book whose listing created the event: its start time updates are followed. */
  anchorBook: string;
  pairKey: string;
}

const DEFAULT_TOLERANCE_MS = 3 * 60 * 60 * 1000;
const DEFAULT_RETAIN_MS = 24 * 60 * 60 * 1000;
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
  private sinceEviction = 0;
  readonly counts = { matched: 0, unmatched: new Map<UnmatchedReason, number>() };

  constructor(
    catalog: { teams: readonly TeamDef[]; leagues: readonly LeagueDef[] },
    options: NormalizerOptions = {},
  ) {
    this.teams = new TeamDirectory(catalog.teams);
    this.leagues = new Map(catalog.leagues.map((l) => [l.id, l]));
    this.tolerance = options.matchToleranceMs ?? DEFAULT_TOLERANCE_MS;
    this.retain = options.retainAfterStartMs ?? DEFAULT_RETAIN_MS;
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
    this.events.set(event.id, { event, anchorBook: known?.anchorBook ?? books[0] ?? '', pairKey: key });
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
      if (state.event.externalIds[raw.book] !== raw.bookEventId) {
        state.event = {
          ...state.event,
          externalIds: { ...state.event.externalIds, [raw.book]: raw.bookEventId },
          updatedAt: now,
        };
        changed.push(state.event);
      }
    }

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
        priceAmerican: raw.status === 'open' ? raw.priceAmerican : null,
        status: raw.priceAmerican === null ? 'suspended' : raw.status,
        ts: raw.ts,
        isLive: raw.isLive,
        bookEventId: raw.bookEventId,
        selectionId: raw.selectionId,
      },
      events: changed,
      unmatched: null,
    };
  }

  /** Nearest event of the same pair within tolerance that this book does not list yet. */
  private match(raw: RawTick, homeId: string, awayId: string): EventState | undefined {
    const candidates = this.byPair.get(pairKey(raw.league, homeId, awayId)) ?? [];
    let best: EventState | undefined;
    let bestDiff = Number.POSITIVE_INFINITY;
    for (const id of candidates) {
      const s = this.events.get(id);
      if (!s || s.event.externalIds[raw.book] !== undefined) continue;
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
    const goesLive = raw.isLive && !e.isLive;
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

  private evict(now: number): void {
    for (const [id, s] of this.events) {
      if (s.event.startTime + this.retain >= now) continue;
      this.events.delete(id);
      const list = this.byPair.get(s.pairKey)?.filter((x) => x !== id) ?? [];
      if (list.length > 0) this.byPair.set(s.pairKey, list);
      else this.byPair.delete(s.pairKey);
      for (const [book, bookEventId] of Object.entries(s.event.externalIds)) {
        this.listings.delete(`${book}|${bookEventId}`);
      }
    }
  }
}

function pairKey(league: string, a: string, b: string): string {
  return a < b ? `${league}|${a}|${b}` : `${league}|${b}|${a}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}
