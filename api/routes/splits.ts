import type { FastifyPluginAsync } from 'fastify';
import { authErrorResponses, csvParam, dataEnvelope, isoTime, pagination, paginatedEnvelope, pagingParams } from '../contract/common.js';
import { sharedFilterParams } from '../contract/filters.js';
import { parseSplitsFilters, presentHistoryEntry, presentSplits, splitsBooks, splitsHistoryEntrySchema, splitsRecordSchema } from '../contract/splits.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { tierOf } from '../plugins/auth.js';
import { TIERS, openBooks } from '../tiers.js';
import { SplitsBoard } from '../views/splits-board.js';
import { querySplits, querySplitsHistory } from '../views/splits-query.js';

const { sport, league, live, team, date, q } = sharedFilterParams;

interface SplitsQueryString {
  sport?: string;
  league?: string;
  sportsbook?: string;
  event?: string;
  event_id?: string;
  market?: string;
  signal?: string;
  live?: boolean;
  team?: string;
  date?: string;
  q?: string;
  limit: number;
  offset: number;
}

interface HistoryQueryString {
  event_id: string;
  sportsbook?: string;
  start_time?: string;
  end_time?: string;
  limit: number;
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
    throw new ApiError('invalid_request', `Invalid query parameter '${name}': must be an RFC 3339 date-time (2026-11-22T18:30:00Z) or Unix seconds`);
  }
  return ms;
}

export const splitsRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, views, store, clock } = deps;
  const splits = deps.splits ?? new SplitsBoard(clock, { syncEveryMs: 0 });
  /** Books whose odds (and so the lines and prices on their splits) a tier may read. */
  const pricesOpen = (tier: Parameters<typeof openBooks>[0]): ReadonlySet<string> => openBooks(tier, [...catalog.books.values()]);

  app.get<{ Querystring: SplitsQueryString }>('/splits', {
    schema: {
      tags: ['splits'],
      summary: 'Current betting splits, one record per event and sportsbook',
      description:
        'Bet % and handle % per side of the spread, total and moneyline, from draftkings (recreational) and circa (sharp-friendly), refreshed about every 5 minutes, ' +
        'with the line and price each book had at the snapshot and sharp-money signals. All tiers; the free tier reads splits 60 s late like its odds, and a ' +
        "book's lines and prices are null for a tier that cannot read that book's odds.",
      querystring: {
        type: 'object',
        properties: {
          sport, league, live, team, date, q,
          sportsbook: csvParam('draftkings, circa; comma-separated.'),
          event: csvParam('Event ids, comma-separated.'),
          event_id: csvParam('Alias of `event`.'),
          market: csvParam('spread, total, moneyline; comma-separated: only events with splits for one of them.'),
          signal: csvParam('rlm, divergence; comma-separated: only records where one of these is flagged (on the `market`s asked for).'),
          ...pagingParams(100, 200),
        },
      },
      response: {
        200: paginatedEnvelope(splitsRecordSchema, {
          type: 'object',
          properties: {
            count: { type: 'integer' },
            total: { type: 'integer' },
            last_update: { type: 'string', format: 'date-time', description: 'Time of the newest snapshot the key can see (the current time when none).' },
          },
        }),
        ...authErrorResponses,
      },
    },
  }, async (request) => {
    const tier = tierOf(request);
    const qs = request.query;
    const events = [qs.event, qs.event_id].filter((x): x is string => x !== undefined).join(',');
    const filters = parseSplitsFilters({ ...qs, event: events === '' ? undefined : events }, catalog);
    const delayMs = TIERS[tier].dataDelaySeconds * 1000;
    const result = querySplits(splits, views.boardFor(tier), catalog, { ...filters, delayMs });
    const open = pricesOpen(tier);
    const { limit, offset } = qs;
    const data = result.matches.slice(offset, offset + limit).map((m) => presentSplits(catalog, m.snapshot, m.event, open.has(m.snapshot.book)));
    return {
      success: true,
      data,
      pagination: pagination(limit, offset, result.matches.length),
      meta: { count: data.length, total: result.matches.length, last_update: isoTime(result.newestAt ?? clock.now()) },
    };
  });

  app.get<{ Querystring: HistoryQueryString }>('/splits/history', {
    schema: {
      tags: ['splits'],
      summary: "An event's splits history, oldest first",
      description:
        'Snapshots about every 5 minutes, kept 48 hours. `start_time`/`end_time` take RFC 3339 or Unix seconds. Without `sportsbook` the newest `limit` entries ' +
        'of the window; with it, every entry of that book in the window (`limit` does not apply). The free tier sees entries 60 s late.',
      querystring: {
        type: 'object',
        required: ['event_id'],
        properties: {
          event_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Canonical event id.' },
          sportsbook: csvParam('draftkings, circa; comma-separated.'),
          start_time: { type: 'string', maxLength: 64, description: 'Lower bound, inclusive: RFC 3339 or Unix seconds.' },
          end_time: { type: 'string', maxLength: 64, description: 'Upper bound, inclusive: RFC 3339 or Unix seconds.' },
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 100, description: 'Entries, 1 to 200; ignored when `sportsbook` is set.' },
        },
      },
      response: {
        200: dataEnvelope({ type: 'array', items: splitsHistoryEntrySchema }, {
          type: 'object',
          required: ['event_id', 'total', 'books', 'oldest', 'newest', 'updated_at'],
          properties: {
            event_id: { type: 'string' },
            total: { type: 'integer', description: 'Entries in `data`.' },
            matched: { type: 'integer', description: 'Entries in the window before `limit` applied.' },
            books: { type: 'array', items: { type: 'string' }, description: 'Distinct sportsbooks in `data`.' },
            oldest: { type: ['string', 'null'], format: 'date-time' },
            newest: { type: ['string', 'null'], format: 'date-time' },
            updated_at: { type: 'string', format: 'date-time', description: "Time of the event's newest snapshot the key can see (the current time when none)." },
          },
        }),
        ...authErrorResponses,
      },
    },
  }, async (request) => {
    const tier = tierOf(request);
    const qs = request.query;
    const books = splitsBooks(qs.sportsbook);
    const from = parseTimeParam('start_time', qs.start_time);
    const to = parseTimeParam('end_time', qs.end_time);
    if (from !== undefined && to !== undefined && from > to) {
      throw new ApiError('invalid_request', "Invalid query parameter 'start_time': must not be after end_time");
    }
    const now = clock.now();
    const result = await querySplitsHistory(store, splits, now, {
      eventId: qs.event_id,
      ...(books ? { books } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      limit: qs.limit,
      delayMs: TIERS[tier].dataDelaySeconds * 1000,
    });
    const open = pricesOpen(tier);
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
  });
};
