import type { TierName } from '../../schemas/index.js';
import { isoTime, pagination } from '../contract/index.js';
import { presentHistoryEntry, presentSplits } from '../contract/index.js';
import { parseSplitsFilters, splitsBooks } from './splits-filters.js';
import { ApiError } from '../errors.js';
import { TIERS, openBooks } from '../../schemas/index.js';
import { fromStore } from './store-failure.js';
import type { SplitsBoard } from '../views/index.js';
import { querySplits, querySplitsHistory } from './splits-query.js';
import type { ReadSide } from './read-side.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

/**
 * Current splits and an event's splits history as every interface answers them (REST routes and
 * MCP tools): the tier's delay, and lines and prices only for books whose odds the tier reads.
 */
export interface SplitsSource {
  deps: Pick<ReadSide, 'catalog' | 'views' | 'store' | 'clock'>;
  /** The board the `splits` changelog keeps (an empty one when the process has none). */
  splits: SplitsBoard;
}

// An unencoded `+` in a query string arrives as a space: `...:00 05:00` is read as `+05:00`.
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)([Zz]|[+ -]\d{2}:\d{2})$/;
const UNIX_SECONDS = /^\d{1,11}(\.\d{1,9})?$/;

/** RFC 3339 date-time or Unix seconds (fractions allowed), as epoch ms; 400 naming the parameter otherwise. */
export function parseTimeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let ms = Number.NaN;
  if (UNIX_SECONDS.test(v)) ms = Number(v) * 1000;
  else {
    const m = RFC3339.exec(v);
    if (m) ms = Date.parse(`${m[1]}T${m[2]}${(m[3] as string).replace(' ', '+')}`);
  }
  if (!Number.isFinite(ms)) {
    throw new ApiError(
      'invalid_request',
      `Invalid query parameter '${name}': must be an RFC 3339 date-time (2026-11-22T18:30:00Z) or Unix seconds`,
    );
  }
  return ms;
}

/** Books whose odds (and so the lines and prices on their splits) a tier may read. */
const pricesOpen = (s: SplitsSource, tier: TierName): ReadonlySet<string> => openBooks(tier, [...s.deps.catalog.books.values()]);

export type SplitsListQuery = QueryOf<'/api/v1/splits'>;

export function splitsList(s: SplitsSource, tier: TierName, qs: SplitsListQuery): ReplyOf<'/api/v1/splits'> {
  const { catalog, views, clock } = s.deps;
  const events = [qs.event, qs.event_id].filter((x): x is string => x !== undefined).join(',');
  const filters = parseSplitsFilters({ ...qs, event: events === '' ? undefined : events }, catalog);
  const delayMs = TIERS[tier].dataDelaySeconds * 1000;
  const result = querySplits(s.splits, views.boardFor(tier), catalog, { ...filters, delayMs });
  const open = pricesOpen(s, tier);
  const { limit, offset } = qs;
  const data = result.matches
    .slice(offset, offset + limit)
    .map((m) => presentSplits(catalog, m.snapshot, m.event, open.has(m.snapshot.book)));
  return {
    success: true,
    data,
    pagination: pagination(limit, offset, result.matches.length),
    meta: { count: data.length, total: result.matches.length, last_update: isoTime(result.newestAt ?? clock.now()) },
  };
}

export type SplitsHistoryListQuery = QueryOf<'/api/v1/splits/history'>;

export async function splitsHistoryList(
  s: SplitsSource,
  tier: TierName,
  qs: SplitsHistoryListQuery,
): Promise<ReplyOf<'/api/v1/splits/history'>> {
  const { store, clock } = s.deps;
  const books = splitsBooks(qs.sportsbook);
  const from = parseTimeParam('start_time', qs.start_time);
  const to = parseTimeParam('end_time', qs.end_time);
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError('invalid_request', "Invalid query parameter 'start_time': must not be after end_time");
  }
  const now = clock.now();
  // A history store that cannot answer is `unavailable` (503, retry), as for closing lines, never a 500.
  const result = await fromStore(() =>
    querySplitsHistory(store, s.splits, now, {
      eventId: qs.event_id,
      ...(books ? { books } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      limit: qs.limit,
      delayMs: TIERS[tier].dataDelaySeconds * 1000,
    }),
  );
  const open = pricesOpen(s, tier);
  const data = result.entries.map((e) => presentHistoryEntry(e.book, e.ts, e.sides, open.has(e.book)));
  const first = result.entries[0];
  const last = result.entries[result.entries.length - 1];
  const updatedAt = isoTime(result.newestAt ?? now);
  return {
    success: true,
    data,
    meta: {
      event_id: qs.event_id,
      total: data.length,
      matched: result.matched,
      books: [...new Set(result.entries.map((e) => e.book))].sort(),
      oldest: first ? isoTime(first.ts) : null,
      newest: last ? isoTime(last.ts) : null,
      updated_at: updatedAt,
    },
  };
}
