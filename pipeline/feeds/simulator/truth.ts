import type { EventStatus, MarketId } from '../../../schemas/index.js';
import { type MatcherTrap, type Quote, type SimEvent, trueFair } from './board.js';

/** One book's listing of a true event, as that book presents it. */
export interface TrueListing {
  bookEventId: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  /** The book lists the true away team as home. */
  flipped: boolean;
}

/**
 * Ground truth for matcher tests: one real game and every book's id for it. A normalizer is
 * right when all of `books` map to one canonical event and no two true events share one.
 */
export interface TrueEvent {
  id: string;
  sport: string;
  league: string;
  homeTeamId: string;
  awayTeamId: string;
  startTime: number;
  endTime: number;
  status: EventStatus;
  isLive: boolean;
  neutralSite: boolean;
  traps: readonly MatcherTrap[];
  /** Sportsbook id -> that book's listing; only books that quoted the event. */
  books: Readonly<Record<string, TrueListing>>;
}

/** A book's quote next to the truth, for tests that check what downstream engines should find. */
export interface QuoteView {
  eventId: string;
  book: string;
  isSharp: boolean;
  bookEventId: string;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  outcomes: readonly string[];
  lines: readonly (number | null)[];
  prices: readonly number[];
  /** Fair probabilities of the outcomes at this quote's line, from the true state. */
  fair: readonly number[];
  open: boolean;
  /** Suspended with its rows kept at their last prices (not taken down). */
  locked: boolean;
  /** The book is sitting on this quote (not updating it) right now. */
  stale: boolean;
  lastTs: number;
}

export function toTrueEvent(ev: SimEvent): TrueEvent {
  const books: Record<string, TrueListing> = {};
  for (const l of ev.listings) {
    books[l.book.id] = {
      bookEventId: l.bookEventId,
      homeTeam: l.homeTeam,
      awayTeam: l.awayTeam,
      startTime: l.startTime,
      flipped: l.flipped,
    };
  }
  return {
    id: ev.id,
    sport: ev.league.sport,
    league: ev.league.id,
    homeTeamId: ev.home.id,
    awayTeamId: ev.away.id,
    startTime: ev.startTime,
    endTime: ev.endTime,
    status: ev.status,
    isLive: ev.status === 'live',
    neutralSite: ev.neutralSite,
    traps: [...ev.traps],
    books,
  };
}

export function toQuoteView(q: Quote, stale: boolean): QuoteView {
  const l = q.listing;
  return {
    eventId: l.event.id,
    book: l.book.id,
    isSharp: l.book.isSharp,
    bookEventId: l.bookEventId,
    market: q.market,
    participant: q.participant,
    statCategory: q.statCategory,
    outcomes: q.outcomes.map((o) => o.label),
    lines: q.outcomes.map((o) => o.line),
    prices: q.outcomes.map((o) => o.price),
    fair: trueFair(q),
    open: q.open,
    locked: !q.open && q.locked,
    stale,
    lastTs: q.lastTs,
  };
}
