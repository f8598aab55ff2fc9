import type { BetRecord } from '../../schemas/index.js';
import { clickHouseTime } from '../../pipeline/sinks/index.js';
import type { StoreRow } from '../../pipeline/store/index.js';

/** The `bets` table (011_bets.sql) to and from records. */

export function betRow(b: BetRecord): StoreRow {
  return {
    id: b.id,
    account_id: b.accountId,
    event_id: b.eventId,
    sport: b.sport,
    league: b.league,
    event_start_time: clickHouseTime(b.eventStartTime),
    market: b.market,
    participant: b.participant,
    stat_category: b.statCategory,
    selection: b.selection,
    line: b.line,
    sportsbook: b.book,
    odds_american: b.priceAmerican,
    odds_decimal: b.priceDecimal,
    stake: b.stake,
    placed_at: clickHouseTime(b.placedAt),
    source_id: b.sourceId,
    devig_method: b.devigMethod,
    sharp_book: b.sharpBook,
    created_at: clickHouseTime(b.createdAt),
    deleted_at: b.deletedAt === null ? null : clickHouseTime(b.deletedAt),
    version: b.version,
  };
}

/** Times come back as epoch ms so both adapters agree. */
export const BET_SELECT =
  'SELECT id, account_id, event_id, sport, league, toUnixTimestamp64Milli(event_start_time) AS event_start_time, market, ' +
  'participant, stat_category, selection, line, sportsbook, odds_american, odds_decimal, stake, ' +
  'toUnixTimestamp64Milli(placed_at) AS placed_at, source_id, devig_method, sharp_book, ' +
  'toUnixTimestamp64Milli(created_at) AS created_at, toUnixTimestamp64Milli(deleted_at) AS deleted_at, version FROM bets FINAL';

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function betFromRow(r: StoreRow): BetRecord {
  return {
    id: String(r['id']),
    accountId: String(r['account_id']),
    eventId: String(r['event_id']),
    sport: String(r['sport']),
    league: String(r['league']),
    eventStartTime: num(r['event_start_time']),
    market: String(r['market']) as BetRecord['market'],
    participant: strOrNull(r['participant']),
    statCategory: strOrNull(r['stat_category']),
    selection: String(r['selection']) as BetRecord['selection'],
    line: numOrNull(r['line']),
    book: String(r['sportsbook']),
    priceAmerican: num(r['odds_american']),
    priceDecimal: num(r['odds_decimal']),
    stake: num(r['stake']),
    placedAt: num(r['placed_at']),
    sourceId: strOrNull(r['source_id']),
    devigMethod: String(r['devig_method']) as BetRecord['devigMethod'],
    sharpBook: strOrNull(r['sharp_book']),
    createdAt: num(r['created_at']),
    deletedAt: numOrNull(r['deleted_at']),
    version: num(r['version']),
  };
}
