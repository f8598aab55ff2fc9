import type { FastifyPluginAsync } from 'fastify';
import { SELECTION_TYPES, TIERS, selectBooks } from '../../schemas/index.js';
import { roundedDecimalOdds, roundedImpliedProbability } from '../../pipeline/odds-math/index.js';
import {
  authErrorResponses,
  csv,
  csvParam,
  dataEnvelope,
  errorResponse,
  isoTime,
  notFoundResponse,
  nullableNumber,
  nullableString,
} from '../contract/common.js';
import { bookSelectionError } from '../contract/filters.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { tierOf } from '../plugins/auth.js';
import { eventKnown, oddsHistory } from '../history/odds-history.js';
import { parseTimeParam } from '../queries/index.js';

const HOUR_MS = 3_600_000;
/** The widest window one request reads: a week of ticks for one event is already a lot of points. */
const MAX_RANGE_MS = 7 * 24 * HOUR_MS;
const SELECTION_SET: ReadonlySet<string> = new Set(SELECTION_TYPES);

interface HistoryQuery {
  market?: string;
  selection?: string;
  sportsbook?: string;
  from?: string;
  to?: string;
  limit: number;
}

const pointSchema = {
  type: 'object',
  required: [
    'timestamp',
    'sportsbook',
    'market',
    'selection',
    'line',
    'participant',
    'stat_category',
    'odds_american',
    'odds_decimal',
    'probability',
    'status',
    'is_live',
  ],
  properties: {
    timestamp: {
      type: 'string',
      format: 'date-time',
      description: 'When the book set or confirmed the price (or suspended or pulled the line).',
    },
    sportsbook: { type: 'string' },
    market: { type: 'string', description: 'Market id (moneyline, point_spread, total, ...).' },
    selection: { type: 'string', enum: [...SELECTION_TYPES], description: 'The canonical side (the `selection_type` of /odds rows).' },
    line: nullableNumber,
    participant: nullableString,
    stat_category: nullableString,
    odds_american: {
      type: ['integer', 'null'],
      description: 'With status suspended: the price the book froze (the line was locked), or null (the line was pulled).',
    },
    odds_decimal: nullableNumber,
    probability: { ...nullableNumber, description: 'Implied probability, vig included.' },
    status: { type: 'string', enum: ['open', 'suspended'] },
    is_live: { type: 'boolean' },
  },
} as const;

/**
 * `GET /events/{id}/history`: every price the books set for one event, oldest first, from
 * ClickHouse (`odds_ticks`), for line-movement charts. Tier rules of the odds endpoints (default
 * books, `sportsbook` within the tier) and of the other history routes (the free tier reads
 * 60 s late); a store that cannot answer is 503.
 */
export const eventHistoryRoutes: FastifyPluginAsync<{ deps: ServingDeps }> = async (app, { deps }) => {
  const { catalog, store, clock, views } = deps;

  app.get<{ Params: { eventId: string }; Querystring: HistoryQuery }>(
    '/events/:eventId/history',
    {
      schema: {
        tags: ['events'],
        summary: "An event's price history (line movement), oldest first",
        description:
          'Every price each book set or confirmed for the event, and each suspension, ordered by time (then book, market, participant, line, selection). ' +
          "`from`/`to` take RFC 3339 or Unix seconds, both inclusive; default the last 24 hours; at most 7 days apart. The books are the tier's default set or `sportsbook` within the tier (403 above it). " +
          'The free tier reads 60 s late (`to` is clamped). At most `limit` points; `meta.truncated` says more remain: ask again from the last `timestamp`.',
        params: { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', minLength: 1, maxLength: 200 } } },
        querystring: {
          type: 'object',
          properties: {
            market: csvParam('Market ids, comma-separated (moneyline, point_spread, total, ...).'),
            selection: csvParam(`Canonical sides, comma-separated: ${SELECTION_TYPES.join(', ')}.`),
            sportsbook: csvParam("Sportsbook ids, comma-separated; default: the tier's default set."),
            from: {
              type: 'string',
              maxLength: 64,
              description: 'Lower bound, inclusive: RFC 3339 or Unix seconds. Default: 24 hours before `to`.',
            },
            to: {
              type: 'string',
              maxLength: 64,
              description: 'Upper bound, inclusive: RFC 3339 or Unix seconds. Default: now (60 s ago for free).',
            },
            limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 2000, description: 'Points, 1 to 10 000.' },
          },
        },
        response: {
          200: dataEnvelope(
            { type: 'array', items: pointSchema },
            {
              type: 'object',
              required: ['event_id', 'count', 'truncated', 'from', 'to', 'sportsbooks', 'data_delay_seconds'],
              properties: {
                event_id: { type: 'string' },
                count: { type: 'integer' },
                truncated: { type: 'boolean', description: 'More points remain in the window past the last one returned.' },
                from: { type: 'string', format: 'date-time' },
                to: { type: 'string', format: 'date-time' },
                sportsbooks: { type: 'array', items: { type: 'string' } },
                data_delay_seconds: { type: 'integer' },
              },
            },
          ),
          404: notFoundResponse,
          503: errorResponse('unavailable: the history store cannot answer; retry.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const tier = tierOf(request);
      const q = request.query;
      const eventId = request.params.eventId;

      const markets = csv(q.market);
      for (const m of markets ?? []) {
        if (!catalog.markets.has(m as never))
          throw new ApiError('invalid_request', `Invalid query parameter 'market': unknown market '${m}'`);
      }
      const selections = csv(q.selection);
      for (const s of selections ?? []) {
        if (!SELECTION_SET.has(s))
          throw new ApiError('invalid_request', `Invalid query parameter 'selection': '${s}' is not one of ${SELECTION_TYPES.join(', ')}`);
      }
      const requested = csv(q.sportsbook);
      for (const b of requested ?? []) {
        if (!catalog.books.has(b)) throw new ApiError('invalid_request', `Invalid query parameter 'sportsbook': unknown sportsbook '${b}'`);
      }
      const selected = selectBooks(tier, [...catalog.books.values()], requested);
      if (!selected.ok) throw bookSelectionError(tier, selected);

      const delaySeconds = TIERS[tier].dataDelaySeconds;
      const latest = clock.now() - delaySeconds * 1000;
      const toAsked = parseTimeParam('to', q.to);
      const to = Math.min(toAsked ?? latest, latest);
      const from = parseTimeParam('from', q.from) ?? to - 24 * HOUR_MS;
      if (from > to)
        throw new ApiError(
          'invalid_request',
          `Invalid query parameter 'from': must not be after 'to' (${isoTime(to)}${toAsked !== undefined && toAsked > latest ? `, clamped to the ${delaySeconds} s data delay` : ''})`,
        );
      if (to - from > MAX_RANGE_MS)
        throw new ApiError('invalid_request', "Invalid query parameter 'from': the window may span at most 7 days; narrow 'from' and 'to'");

      let rows;
      try {
        if (!views.boardFor(tier).event(eventId) && !(await eventKnown(store, eventId)))
          throw new ApiError('not_found', `Unknown event '${eventId}'`);
        rows = await oddsHistory(store, {
          eventId,
          books: [...selected.books],
          markets: markets ? [...markets] : null,
          selections: selections ? [...selections] : null,
          from,
          to,
          limit: q.limit,
        });
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new ApiError(
          'unavailable',
          `The history store cannot answer right now: ${(e instanceof Error ? e.message : String(e)).slice(0, 200)}`,
        );
      }
      const truncated = rows.length > q.limit;
      const data = rows.slice(0, q.limit).map((r) => ({
        timestamp: isoTime(Number(r.t)),
        sportsbook: r.sportsbook,
        market: r.market,
        selection: r.selection,
        line: r.line === null ? null : Number(r.line),
        participant: r.participant,
        stat_category: r.stat_category,
        // Rounded as the board's rows are (4 and 6 places), so a chart's last point equals /odds.
        odds_american: r.odds_american === null ? null : Number(r.odds_american),
        odds_decimal: r.odds_american === null ? null : roundedDecimalOdds(Number(r.odds_american)),
        probability: r.odds_american === null ? null : roundedImpliedProbability(Number(r.odds_american)),
        status: r.status,
        is_live: r.is_live === true || r.is_live === 1,
      }));
      return {
        success: true,
        data,
        meta: {
          event_id: eventId,
          count: data.length,
          truncated,
          from: isoTime(from),
          to: isoTime(to),
          sportsbooks: [...selected.books],
          data_delay_seconds: delaySeconds,
        },
      };
    },
  );
};
