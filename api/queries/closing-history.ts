import type { OlapStore } from '../../pipeline/store/index.js';
import type { ClosingLineRecord, ClvGroupRecord, EvHistoryRecord } from '../contract/index.js';

/**
 * Closing lines, closing-line value and opportunity history: typed queries over ClickHouse
 * (`closing_odds`, `clv_grades`, `opportunities`), the one place the routes (and any other
 * interface) read them from. Every user value is a bound parameter; multi-selects travel as one
 * comma-joined string split server-side.
 */

const CLOSING_COLUMNS = `event_id, sport, league, home_team_id, away_team_id, event_start_time, sportsbook, market, participant,
  stat_category, selection, line, odds_american, odds_decimal, implied_probability, book_no_vig_probability, no_vig_power,
  no_vig_multiplicative, no_vig_additive, no_vig_shin, reference_books, odds_time, captured_at`;
const CLOSING_ORDER = 'ORDER BY event_start_time, event_id, sportsbook, market, participant, stat_category, line, selection';

/** An event's closing lines, optionally for some books only. */
export async function closingLinesOfEvent(
  store: OlapStore,
  eventId: string,
  books: readonly string[] | null,
): Promise<ClosingLineRecord[]> {
  return store.query<ClosingLineRecord>(
    `SELECT ${CLOSING_COLUMNS} FROM closing_odds FINAL
     WHERE event_id = {event:String} AND ({books:String} = '' OR has(splitByChar(',', {books:String}), sportsbook))
     ${CLOSING_ORDER}`,
    { event: eventId, books: (books ?? []).join(',') },
  );
}

/** Closing lines of every event of a league that started on a UTC date (YYYY-MM-DD). */
export async function closingLinesOfDay(store: OlapStore, date: string, sport: string, league: string): Promise<ClosingLineRecord[]> {
  return store.query<ClosingLineRecord>(
    `SELECT ${CLOSING_COLUMNS} FROM closing_odds FINAL
     WHERE sport = {sport:String} AND league = {league:String} AND toDate(event_start_time) = toDate({date:String})
     ${CLOSING_ORDER}`,
    { sport, league, date },
  );
}

export const CLV_GROUPS = ['sportsbook', 'sport', 'league', 'market', 'day', 'devig_book'] as const;
export type ClvGroupBy = (typeof CLV_GROUPS)[number];

const GROUP_EXPRESSION: ReadonlyMap<ClvGroupBy, string> = new Map<ClvGroupBy, string>([
  ['sportsbook', 'toString(sportsbook)'],
  ['sport', 'toString(sport)'],
  ['league', 'toString(league)'],
  ['market', 'toString(market)'],
  ['day', 'toString(toDate(event_start_time))'],
  ['devig_book', "ifNull(toString(closing_devig_book), 'none')"],
]);

export interface ClvGroupsQuery {
  /** Epoch ms, inclusive, and exclusive upper bound, on the event start. */
  from: number;
  to: number;
  groupBy: ClvGroupBy;
  sport: string | null;
  league: string | null;
  sportsbook: string | null;
  devigBook: string | null;
}

const filterClause = `event_start_time >= fromUnixTimestamp64Milli({from:Int64}) AND event_start_time < fromUnixTimestamp64Milli({to:Int64})
  AND ({sport:String} = '' OR has(splitByChar(',', {sport:String}), toString(sport)))
  AND ({league:String} = '' OR has(splitByChar(',', {league:String}), toString(league)))
  AND ({sportsbook:String} = '' OR has(splitByChar(',', {sportsbook:String}), toString(sportsbook)))
  AND ({devig:String} = '' OR has(splitByChar(',', {devig:String}), ifNull(toString(closing_devig_book), '')))`;

/** CLV aggregated by one dimension over graded +EV opportunities. */
export async function clvGroups(store: OlapStore, q: ClvGroupsQuery): Promise<ClvGroupRecord[]> {
  const key = GROUP_EXPRESSION.get(q.groupBy) ?? 'toString(sportsbook)';
  const rows = await store.query<ClvGroupRecord>(
    `SELECT ${key} AS group_key,
            count() AS total_predictions,
            countIf(result IS NOT NULL) AS total_graded,
            countIf(result = 'win') AS wins,
            countIf(result = 'loss') AS losses,
            countIf(result = 'push') AS pushes,
            countIf(clv_percent IS NOT NULL) AS clv_count,
            avgIf(clv_percent, clv_percent IS NOT NULL) AS avg_clv_percent,
            avg(ev_percent) AS avg_ev_percent,
            countIf(clv_percent > 0) AS beat_close
     FROM clv_grades FINAL
     WHERE ${filterClause}
     GROUP BY group_key ORDER BY group_key`,
    { from: q.from, to: q.to, sport: q.sport ?? '', league: q.league ?? '', sportsbook: q.sportsbook ?? '', devig: q.devigBook ?? '' },
  );
  return rows.map((r) => ({
    ...r,
    total_predictions: Number(r.total_predictions),
    total_graded: Number(r.total_graded),
    wins: Number(r.wins),
    losses: Number(r.losses),
    pushes: Number(r.pushes),
    clv_count: Number(r.clv_count),
    beat_close: Number(r.beat_close),
    avg_clv_percent: Number(r.clv_count) > 0 && r.avg_clv_percent !== null ? Number(r.avg_clv_percent) : null,
    avg_ev_percent: r.avg_ev_percent === null || Number.isNaN(Number(r.avg_ev_percent)) ? null : Number(r.avg_ev_percent),
  }));
}

export interface EvHistoryQuery {
  from: number;
  to: number;
  event: string | null;
  sport: string | null;
  league: string | null;
  sportsbook: string | null;
  /** true: only opportunities graded against a close; false: only those not graded. */
  graded: boolean | null;
  limit: number;
  offset: number;
}

/** +EV opportunities (every occurrence, last version) with their CLV grade where they have one. */
export async function evHistory(store: OlapStore, q: EvHistoryQuery): Promise<{ rows: EvHistoryRecord[]; total: number }> {
  const params = {
    from: q.from,
    to: q.to,
    event: q.event ?? '',
    sport: q.sport ?? '',
    league: q.league ?? '',
    sportsbook: q.sportsbook ?? '',
    graded: q.graded === null ? -1 : q.graded ? 1 : 0,
    limit: q.limit,
    offset: q.offset,
  };
  const base = `FROM (SELECT * FROM opportunities FINAL WHERE kind = 'ev'
                  AND detected_at >= fromUnixTimestamp64Milli({from:Int64}) AND detected_at < fromUnixTimestamp64Milli({to:Int64})
                  AND ({event:String} = '' OR has(splitByChar(',', {event:String}), event_id))
                  AND ({sport:String} = '' OR has(splitByChar(',', {sport:String}), toString(sport)))
                  AND ({league:String} = '' OR has(splitByChar(',', {league:String}), toString(league)))
                  AND ({sportsbook:String} = '' OR hasAny(sportsbooks, splitByChar(',', {sportsbook:String})))) AS o
     LEFT JOIN (SELECT opportunity_id, detected_at, closing_devig_book, closing_no_vig_probability, closing_odds_american, clv_percent, result, graded_at
                FROM clv_grades FINAL) AS g
       ON g.opportunity_id = o.id AND g.detected_at = o.detected_at
     WHERE {graded:Int8} = -1 OR (g.opportunity_id != '') = ({graded:Int8} = 1)`;
  const total = await store.query<{ n: number }>(`SELECT count() AS n ${base}`, params);
  const rows = await store.query<EvHistoryRecord>(
    `SELECT o.id AS id, o.event_id AS event_id, toString(o.sport) AS sport, toString(o.league) AS league, toString(o.market) AS market,
            o.detected_at AS detected_at, o.last_seen_at AS last_seen_at, o.expired_at AS expired_at, o.expire_reason AS expire_reason,
            o.start_time AS start_time, o.is_live AS is_live, o.value AS value, o.peak_value AS peak_value, o.record AS record,
            g.opportunity_id != '' AS graded, g.closing_devig_book AS closing_devig_book, g.closing_no_vig_probability AS closing_no_vig_probability,
            g.closing_odds_american AS closing_odds_american, g.clv_percent AS clv_percent, g.result AS result,
            if(g.opportunity_id != '', toString(g.graded_at), NULL) AS graded_at
     ${base}
     ORDER BY o.detected_at DESC, o.id LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    params,
  );
  return { rows, total: Number(total[0]?.n ?? 0) };
}
