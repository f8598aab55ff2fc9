import type { OlapStore } from '../../pipeline/store/index.js';
import type { OddsHistoryRecord } from '../contract/index.js';

/**
 * An event's price history from `odds_ticks` (every price a book set or confirmed, and each
 * suspension), for line-movement charts. FINAL collapses ticks stored twice by a replay. Every
 * user value is a bound parameter; lists travel comma-joined and are split server-side.
 */
export interface OddsHistoryQuery {
  eventId: string;
  books: readonly string[];
  markets: readonly string[] | null;
  selections: readonly string[] | null;
  /** Epoch ms, both inclusive. */
  from: number;
  to: number;
  limit: number;
}

/** Oldest first, in a total order; `limit + 1` rows are read so the caller can tell truncation. */
export async function oddsHistory(store: OlapStore, q: OddsHistoryQuery): Promise<OddsHistoryRecord[]> {
  return store.query<OddsHistoryRecord>(
    `SELECT toUnixTimestamp64Milli(tick_time) AS t, toString(sportsbook) AS sportsbook, toString(market) AS market, toString(selection) AS selection,
            line, participant, stat_category, odds_american, odds_decimal, toString(status) AS status, is_live
     FROM odds_ticks FINAL
     WHERE event_id = {event:String}
       AND has(splitByChar(',', {books:String}), toString(sportsbook))
       AND ({markets:String} = '' OR has(splitByChar(',', {markets:String}), toString(market)))
       AND ({selections:String} = '' OR has(splitByChar(',', {selections:String}), toString(selection)))
       AND tick_time >= fromUnixTimestamp64Milli({from:Int64}) AND tick_time <= fromUnixTimestamp64Milli({to:Int64})
     ORDER BY tick_time, sportsbook, market, ifNull(participant, ''), ifNull(stat_category, ''), ifNull(line, 0), selection, odds_american
     LIMIT {limit:UInt32}`,
    {
      event: q.eventId,
      books: q.books.join(','),
      markets: (q.markets ?? []).join(','),
      selections: (q.selections ?? []).join(','),
      from: q.from,
      to: q.to,
      limit: q.limit + 1,
    },
  );
}

/** Whether the store has ever seen the event (for a 404 on an id the board no longer holds). */
export async function eventKnown(store: OlapStore, eventId: string): Promise<boolean> {
  const rows = await store.query<{ n: number | string }>('SELECT count() AS n FROM events WHERE id = {event:String}', { event: eventId });
  return Number(rows[0]?.n ?? 0) > 0;
}
