import { SELECTION_TYPES, TIERS, selectBooks } from '../../schemas/index.js';
import type { TierName } from '../../schemas/index.js';
import { csv, isoTime } from '../contract/index.js';
import { bookSelectionError } from '../contract/index.js';
import { presentHistoryPoint } from '../contract/index.js';
import { unknownValue } from '../contract/index.js';
import { ApiError } from '../errors.js';
import { known } from './parse-filters.js';
import { eventKnown, oddsHistory } from './odds-history.js';
import type { ReadSide } from './read-side.js';
import { parseTimeParam } from './splits-answers.js';
import { fromStore } from './store-failure.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';

const HOUR_MS = 3_600_000;
/** The widest window one request reads: a week of ticks for one event is already a lot of points. */
const MAX_RANGE_MS = 7 * 24 * HOUR_MS;
const SELECTION_SET: ReadonlySet<string> = new Set(SELECTION_TYPES);

export type EventHistoryQuery = QueryOf<'/api/v1/events/{eventId}/history'>;

/**
 * `GET /events/{id}/history`: every price the books set for one event, oldest first, from the
 * history store (`odds_ticks`). Tier rules of the odds endpoints (default books, `sportsbook`
 * within the tier) and of the other history answers (the free tier reads 60 s late).
 */
export async function eventHistory(
  deps: Pick<ReadSide, 'catalog' | 'store' | 'clock' | 'views'>,
  tier: TierName,
  eventId: string,
  q: EventHistoryQuery,
): Promise<ReplyOf<'/api/v1/events/{eventId}/history'>> {
  const { catalog, store, clock, views } = deps;
  const markets = csv(q.market);
  for (const m of markets ?? []) {
    if (!catalog.markets.has(m as never))
      throw new ApiError(
        'invalid_request',
        `Invalid query parameter 'market': ${unknownValue(m, { what: 'market', values: catalog.markets.keys() })}`,
      );
  }
  const selections = csv(q.selection);
  for (const s of selections ?? []) {
    if (!SELECTION_SET.has(s))
      throw new ApiError('invalid_request', `Invalid query parameter 'selection': '${s}' is not one of ${SELECTION_TYPES.join(', ')}`);
  }
  const requested = known('sportsbook', csv(q.sportsbook), catalog.books, 'sportsbook');
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

  const rows = await fromStore(async () => {
    // An id the board no longer holds may still have history: the store knows every event it saw.
    if (!views.boardFor(tier).event(eventId) && !(await eventKnown(store, eventId)))
      throw new ApiError('not_found', `Unknown event '${eventId}'`);
    return oddsHistory(store, {
      eventId,
      books: [...selected.books],
      markets: markets ? [...markets] : null,
      selections: selections ? [...selections] : null,
      from,
      to,
      limit: q.limit,
    });
  });
  const data = rows.slice(0, q.limit).map(presentHistoryPoint);
  return {
    success: true,
    data,
    meta: {
      event_id: eventId,
      count: data.length,
      truncated: rows.length > q.limit,
      from: isoTime(from),
      to: isoTime(to),
      sportsbooks: [...selected.books],
      data_delay_seconds: delaySeconds,
    },
  };
}
