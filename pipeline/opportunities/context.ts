import type {
  CanonicalEvent,
  LeagueDef,
  OpportunityEventInfo,
  Opportunity,
  OpportunityCommon,
  OpportunityLeg,
  OpportunityPrice,
  SelectionType,
} from '../../schemas/index.js';
import type { ResolvedOptions } from './config.js';
import { staleClockOf, staleness } from './confidence.js';
import type { StaleClock, Staleness } from './confidence.js';
import type { FamilyState } from './state.js';

/** What every engine gets for one family of one event. */
export interface EngineContext {
  eventId: string;
  event: CanonicalEvent;
  league: LeagueDef | undefined;
  family: FamilyState;
  outcomes: readonly SelectionType[];
  options: ResolvedOptions;
  now: number;
  /** Seconds a price of `book` may go unconfirmed, in the event's phase (the freshness ledger's threshold). */
  staleAfterSeconds(book: string, isLive: boolean): number;
}

/**
 * An opportunity an engine found, not yet built: `key` names every input its values depend on
 * (the prices with their times, the event's live state and start, model inputs), so that an
 * unchanged opportunity is recognised without building it again.
 */
export interface Candidate<O extends Opportunity = Opportunity> {
  id: string;
  key: string;
  /** The line key of the group it was found in, or `middle` (see advance). */
  scope: string;
  build(): O;
}

/** The part of a candidate key that every kind shares. */
export function eventKey(ctx: EngineContext): string {
  return `${ctx.event.isLive ? 'L' : 'P'}${ctx.event.startTime}`;
}

export function rowKey(r: { id: string; priceAmerican: number; ts: number; isLive: boolean }): string {
  return `${r.id}:${r.priceAmerican}:${r.ts}${r.isLive ? 'L' : ''}`;
}

export function eventInfo(event: CanonicalEvent, anyLive: boolean): OpportunityEventInfo {
  return {
    sport: event.sport,
    league: event.league,
    homeTeamId: event.homeTeamId,
    awayTeamId: event.awayTeamId,
    startTime: event.startTime,
    isLive: event.isLive || anyLive,
  };
}

export function oldestTs(prices: readonly { ts: number }[]): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const p of prices) if (p.ts < oldest) oldest = p.ts;
  return oldest;
}

export function stalenessOf(
  ctx: EngineContext,
  prices: readonly { ts: number; book: string }[],
  isLive: boolean,
): Staleness & { oldestTs: number; clock: StaleClock } {
  const oldest = oldestTs(prices);
  const clock = staleClockOf(prices, (book) => ctx.staleAfterSeconds(book, isLive));
  return { ...staleness(oldest, ctx.now, isLive, clock), oldestTs: oldest, clock };
}

/** The fields every kind shares; lifecycle fields start as a first detection at `now`. */
export function commonFields(
  ctx: EngineContext,
  id: string,
  situation: string,
  legs: OpportunityLeg[],
  used: readonly OpportunityPrice[],
  anyLive: boolean,
  value: number,
): Omit<OpportunityCommon, 'kind'> {
  const info = eventInfo(ctx.event, anyLive);
  const stale = stalenessOf(ctx, used, info.isLive);
  return {
    id,
    eventId: ctx.eventId,
    situation,
    market: ctx.family.market,
    family: ctx.family.family,
    participant: ctx.family.participant,
    statCategory: ctx.family.statCategory,
    event: info,
    legs,
    oldestOddsTs: stale.oldestTs,
    oldestOddsAgeSeconds: stale.ageSeconds,
    freshUntil: stale.clock.freshUntil,
    staleAfterSeconds: stale.clock.limitSeconds,
    possiblyStale: stale.possiblyStale,
    warnings: stale.warning ? [stale.warning] : [],
    detectedAt: ctx.now,
    lastSeenAt: ctx.now,
    expiredAt: null,
    expireReason: null,
    value,
    peakValue: value,
  };
}
