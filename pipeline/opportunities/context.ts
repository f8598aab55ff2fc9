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
import { staleClockOf, staleness } from './staleness.js';
import type { StaleClock, Staleness } from './staleness.js';
import type { CandidateInputs } from './inputs.js';
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
 * An opportunity an engine found, not yet built: its inputs (`rows`, `refRows`, `values`) name
 * everything its values depend on (the prices with their times, the event's live state and
 * start, model inputs), so that an unchanged opportunity is recognised without building it
 * again. They are compared field by field (`sameInputs`): no key text is built per candidate.
 */
export interface Candidate<O extends Opportunity = Opportunity> extends CandidateInputs {
  id: string;
  /** The line key of the group it was found in, or `middle` (see advance). */
  scope: string;
  build(): O;
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
  const stale = staleness(oldest, ctx.now, isLive, clock);
  return { ageSeconds: stale.ageSeconds, possiblyStale: stale.possiblyStale, warning: stale.warning, oldestTs: oldest, clock };
}

/**
 * An opportunity of one kind: the common fields, then the kind's own (which may also replace
 * common ones in place), in the field order of `{ ...common, ...own }`. The kind's fields are
 * added to the common object itself: V8 gives a spread copy of an object this large a map of
 * its own, and adding fields to that copy measured 50-80 µs per opportunity against under 1 µs
 * this way (and each copy's unshared map made every later access of it slow too).
 */
export function withKind<O extends Opportunity>(
  common: Omit<OpportunityCommon, 'kind'>,
  own: Omit<O, keyof OpportunityCommon> & Partial<OpportunityCommon>,
): O {
  return Object.assign(common, own) as unknown as O;
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
