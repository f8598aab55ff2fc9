import type { TierName } from '../../schemas/index.js';
import { StoreError } from '../../pipeline/store/index.js';
import { presentClosingSnapshot, presentClvGroup } from '../contract/closing.js';
import { csv } from '../contract/common.js';
import { teamName } from '../contract/refs.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { closingLinesOfEvent, clvGroups } from '../history/queries.js';
import type { ClvGroupBy } from '../history/queries.js';
import { allowedBooks } from '../../schemas/index.js';
import { requireTierOf } from './access.js';

/**
 * Closing lines of an event (Pro+) and closing-line value of +EV opportunities (Sharp+) as every
 * interface answers them, read from the history store: a store that cannot answer is
 * `unavailable` (503 on REST), never a 500.
 */
type ClosingDeps = Pick<AppDeps, 'store' | 'catalog' | 'clock' | 'board'>;

export const DAY_MS = 86_400_000;
/** How far back each tier may look at CLV (COMPAT §8); null = unlimited. */
const CLV_WINDOW_DAYS: Readonly<Record<TierName, number | null>> = { free: 7, hobby: 30, pro: 90, sharp: 365, enterprise: null };

export const badQuery = (field: string, message: string): ApiError =>
  new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);

/** A store that cannot answer is a 503 the client may retry, never a 500. */
export async function fromStore<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof StoreError || e instanceof Error)
      throw new ApiError('unavailable', `The history store cannot answer right now: ${e.message.slice(0, 200)}`);
    throw e;
  }
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/** `YYYY-MM-DD` or an ISO date-time -> epoch ms; the field is named when it is neither. */
export function parseDay(field: string, value: string): number {
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = dayOnly ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
  // A calendar day that does not exist (2025-02-30) must not roll over into the next month.
  if (!Number.isFinite(ms) || (dayOnly && new Date(ms).toISOString().slice(0, 10) !== value))
    throw badQuery(field, 'expected YYYY-MM-DD or an ISO 8601 date-time');
  if (ms < EARLIEST || ms >= LATEST) throw badQuery(field, 'must be between 2000-01-01 and 2099-12-31');
  return ms;
}

export interface ClosingLinesQuery {
  event_id?: string;
  event?: string;
  sportsbook?: string;
  books?: string;
}

export async function closingLines(deps: ClosingDeps, tier: TierName, q: ClosingLinesQuery): Promise<Record<string, unknown>> {
  const { store, catalog, clock, board } = deps;
  requireTierOf(tier, 'pro', 'Closing lines');
  const eventId = q.event_id ?? q.event;
  if (eventId === undefined) throw new ApiError('invalid_request', "Missing required query parameter 'event_id'");
  const requested = csv(q.sportsbook ?? q.books);
  const visible = allowedBooks(tier, [...catalog.books.values()]);
  for (const b of requested ?? []) {
    if (!catalog.books.has(b)) throw badQuery('sportsbook', `unknown sportsbook '${b}'`);
    if (!visible.has(b)) throw new ApiError('feature_required', `Sportsbook '${b}' is not served to the ${tier} tier`);
  }
  const books = [...(requested ?? visible)];
  const rows = await fromStore(() => closingLinesOfEvent(store, eventId, books));
  const e = board.event(eventId);
  const fallback = e
    ? { sport: e.sport, league: e.league, home: teamName(catalog, e.homeTeamId), away: teamName(catalog, e.awayTeamId), start: e.startTime }
    : null;
  return {
    success: true,
    data: presentClosingSnapshot(catalog, eventId, rows, fallback),
    meta: { source: 'closing_odds', updated_at: new Date(clock.now()).toISOString() },
  };
}

export interface ClvQuery {
  from?: string;
  to?: string;
  group_by: ClvGroupBy;
  sport?: string;
  league?: string;
  sportsbook?: string;
  devig_book?: string;
}

export async function clvHistory(deps: ClosingDeps, tier: TierName, q: ClvQuery): Promise<Record<string, unknown>> {
  const { store, clock } = deps;
  requireTierOf(tier, 'sharp', 'Closing-line value history');
  const now = clock.now();
  const window = CLV_WINDOW_DAYS[tier];
  const dayOnly = (v: string | undefined): boolean => v !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(v);
  let from = q.from === undefined ? Math.floor(now / DAY_MS) * DAY_MS - 7 * DAY_MS : parseDay('from', q.from);
  const to = q.to === undefined ? Math.floor(now / DAY_MS) * DAY_MS + DAY_MS : parseDay('to', q.to) + (dayOnly(q.to) ? DAY_MS : 0);
  if (from >= to) throw badQuery('from', 'must be before to');
  if (window !== null) from = Math.max(from, Math.floor(now / DAY_MS) * DAY_MS - window * DAY_MS);
  const filters = { sport: q.sport ?? null, league: q.league ?? null, sportsbook: q.sportsbook ?? null, devig_book: q.devig_book ?? null };
  const groups = await fromStore(() =>
    clvGroups(store, {
      from,
      to: Math.max(from, to),
      groupBy: q.group_by,
      sport: filters.sport,
      league: filters.league,
      sportsbook: filters.sportsbook,
      devigBook: filters.devig_book,
    }),
  );
  return {
    success: true,
    data: {
      date_range: { from: new Date(from).toISOString(), to: new Date(Math.max(from, to)).toISOString() },
      group_by: q.group_by,
      groups: groups.map(presentClvGroup),
    },
    meta: { filters, source: 'clv_grades', tier_window_days: window ?? 'unlimited', updated_at: new Date(now).toISOString() },
  };
}
