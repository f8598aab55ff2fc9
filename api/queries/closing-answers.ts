import type { CanonicalEvent, TierName } from '../../schemas/index.js';
import { TIERS, allowedBooks, tierNeededFor } from '../../schemas/index.js';
import type { Clock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { presentClosingSnapshot, presentClvGroup, presentEvHistory, presentHistoricalDay } from '../contract/index.js';
import { csv, pagination } from '../contract/index.js';
import { teamName } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import { requireFeatureOf, requireTierFor, tierRefusal } from './access.js';
import { closingLinesOfDay, closingLinesOfEvent, clvGroups, evHistory } from './closing-history.js';
import { badQuery } from './invalid-query.js';
import { unknownId } from './parse-filters.js';
import { fromStore } from './store-failure.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

/**
 * Closing lines of an event (Pro+), closing lines of a day (Sharp+, a window back), closing-line
 * value of +EV opportunities (Sharp+) and the +EV history with its grades (the ev feature) as
 * every interface answers them, read from the history store: a store that cannot answer is
 * `unavailable` (503 on REST), never a 500.
 */
export interface ClosingSource {
  store: OlapStore;
  catalog: Catalog;
  clock: Clock;
  /** The live board, for the teams and start of an event nothing was captured of yet. */
  board: { event(id: string): CanonicalEvent | undefined };
}

export const DAY_MS = 86_400_000;
const startOfDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value);

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/** `YYYY-MM-DD` or an ISO date-time -> epoch ms; the field is named when it is neither. */
export function parseDay(field: string, value: string): number {
  const dayOnly = isDay(value);
  const ms = dayOnly ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
  // A calendar day that does not exist (2025-02-30) must not roll over into the next month.
  if (!Number.isFinite(ms) || (dayOnly && new Date(ms).toISOString().slice(0, 10) !== value))
    throw badQuery(field, 'expected YYYY-MM-DD or an ISO 8601 date-time');
  if (ms < EARLIEST || ms >= LATEST) throw badQuery(field, 'must be between 2000-01-01 and 2099-12-31');
  return ms;
}

/** The end of a range, exclusive: a day counts whole (up to the next midnight), a date-time is the end itself. */
function parseEnd(field: string, value: string): number {
  return parseDay(field, value) + (isDay(value) ? DAY_MS : 0);
}

export type ClosingLinesQuery = QueryOf<'/api/v1/odds/closing'>;

export async function closingLines(src: ClosingSource, tier: TierName, q: ClosingLinesQuery): Promise<ReplyOf<'/api/v1/odds/closing'>> {
  const { store, catalog, clock, board } = src;
  requireTierFor(tier, 'closingLines');
  const eventId = q.event_id ?? q.event;
  if (eventId === undefined) throw new ApiError('invalid_request', "Missing required query parameter 'event_id'");
  const requested = csv(q.sportsbook ?? q.books);
  const visible = allowedBooks(tier, [...catalog.books.values()]);
  for (const b of requested ?? []) {
    if (!catalog.books.has(b)) throw badQuery('sportsbook', unknownId(b, catalog.books, 'sportsbook'));
    if (!visible.has(b))
      throw tierRefusal(tier, tierNeededFor(catalog.books.get(b)), `Sportsbook '${b}' is not served to the ${tier} tier`);
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

export type ClvQuery = QueryOf<'/api/v1/historical/clv'>;

export async function clvHistory(
  src: Pick<ClosingSource, 'store' | 'clock'>,
  tier: TierName,
  q: ClvQuery,
): Promise<ReplyOf<'/api/v1/historical/clv'>> {
  const { store, clock } = src;
  requireTierFor(tier, 'clvHistory');
  const now = clock.now();
  const window = TIERS[tier].clvWindowDays;
  let from = q.from === undefined ? startOfDay(now) - 7 * DAY_MS : parseDay('from', q.from);
  const to = q.to === undefined ? startOfDay(now) + DAY_MS : parseEnd('to', q.to);
  if (from >= to) throw badQuery('from', 'must be before to');
  if (window !== null) from = Math.max(from, startOfDay(now) - window * DAY_MS);
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

export type HistoricalClosingQuery = QueryOf<'/api/v1/historical/odds/closing'>;

/** Closing lines of every event of a league that started on a day (UTC), within the tier's window back. */
export async function historicalClosingLines(
  src: Pick<ClosingSource, 'store' | 'catalog' | 'clock'>,
  tier: TierName,
  q: HistoricalClosingQuery,
): Promise<ReplyOf<'/api/v1/historical/odds/closing'>> {
  const { store, catalog, clock } = src;
  requireTierFor(tier, 'closingHistory');
  const { date, sport, league } = q;
  const day = parseDay('date', date);
  const windowDays = TIERS[tier].closingHistoryDays;
  if (day < startOfDay(clock.now()) - windowDays * DAY_MS)
    throw new ApiError('feature_required', `Historical closing lines reach ${windowDays} days back; ${date} is outside the window`);
  const rows = await fromStore(() => closingLinesOfDay(store, date, sport.toLowerCase(), league.toLowerCase()));
  const { events, totalLines } = presentHistoricalDay(catalog, rows);
  return {
    success: true,
    data: { date, sport, league, events, total_events: events.length, total_lines: totalLines },
    meta: {
      source: 'closing_odds',
      tier_window_days: windowDays,
      filters: { date, sport, league },
      updated_at: new Date(clock.now()).toISOString(),
    },
  };
}

export type EvHistoryListQuery = QueryOf<'/api/v1/opportunities/ev/history'>;

/** Every +EV occurrence newest first, each with its CLV grade once its event started: the ev feature. */
export async function evHistoryList(
  src: Pick<ClosingSource, 'store' | 'clock'>,
  tier: TierName,
  q: EvHistoryListQuery,
): Promise<ReplyOf<'/api/v1/opportunities/ev/history'>> {
  const { store, clock } = src;
  requireFeatureOf(tier, 'ev');
  const now = clock.now();
  const from = q.from === undefined ? now - 7 * DAY_MS : parseDay('from', q.from);
  const to = q.to === undefined ? now + 1 : parseEnd('to', q.to);
  const { rows, total } = await fromStore(() =>
    evHistory(store, {
      from,
      to,
      event: q.event ?? null,
      sport: q.sport ?? null,
      league: q.league ?? null,
      sportsbook: q.sportsbook ?? null,
      graded: q.graded ?? null,
      limit: q.limit,
      offset: q.offset,
    }),
  );
  const data = rows.map(presentEvHistory);
  return {
    success: true,
    data,
    pagination: pagination(q.limit, q.offset, total),
    meta: { total, count: data.length, source: 'opportunities', updated_at: new Date(now).toISOString() },
  };
}
