import type { CanonicalEvent, ExchangeQuote, OddsChange, OddsTick, Opportunity } from '../../schemas/index.js';
import { americanToDecimal } from '../odds-math/index.js';
import type { StoreRow } from '../store/index.js';

/** The one place where pipeline records become ClickHouse column names (snake_case). */

/**
 * ClickHouse DateTime64(3) text, UTC: `toISOString()` without its T and Z. Built from the day's
 * date (cached: a batch's times share a day) and arithmetic, because formatting a Date was the
 * pipeline bench's largest self time (~10 %); 5-10x faster per call, equal to `toISOString()`
 * on 2M random times (bench/pipeline.ts, issue 16). Other times take the Date path.
 */
export function clickHouseTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < YEAR_0 || ms > YEAR_9999_END) return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
    cachedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  return `${cachedDayText} ${pad2(h)}:${pad2(m)}:${pad2(s)}.${pad3(rest - s * 1000)}`;
}

const DAY_MS = 86_400_000;
/** Four-digit years only: `toISOString()` writes others as ±YYYYYY. */
const YEAR_0 = -62_167_219_200_000;
const YEAR_9999_END = 253_402_300_799_999;
let cachedDay = Number.NaN;
let cachedDayText = '';
const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

export function tickRow(t: OddsTick, ingestedAt: number): StoreRow {
  return {
    event_id: t.eventId,
    sportsbook: t.book,
    market: t.market,
    selection: t.selection,
    line: t.line,
    participant: t.participant,
    stat_category: t.statCategory,
    odds_american: t.priceAmerican,
    odds_decimal: t.priceAmerican === null ? null : americanToDecimal(t.priceAmerican),
    status: t.status,
    is_live: t.isLive,
    book_event_id: t.bookEventId,
    tick_time: clickHouseTime(t.ts),
    odds_changed_at: t.oddsChangedAt == null ? null : clickHouseTime(t.oddsChangedAt),
    observed_at: t.observedAt == null ? null : clickHouseTime(t.observedAt),
    ...exchangeColumns(t.exchange),
    ingested_at: clickHouseTime(ingestedAt),
  };
}

/** The exchange columns of a tick or row: null for a sportsbook's price. */
function exchangeColumns(q: ExchangeQuote | null | undefined): StoreRow {
  return {
    back: q?.back ?? null,
    lay: q?.lay ?? null,
    max_bet: q?.backSize ?? null,
    max_lay: q?.laySize ?? null,
    volume: q?.volume ?? null,
    commission: q?.commission ?? null,
  };
}

/** `version` must grow per key: the changelog offset does, since a key stays in one partition. */
export function latestRow(c: OddsChange, version: number): StoreRow {
  const r = c.row;
  if (r === null) {
    return {
      row_key: c.key,
      id: '',
      event_id: c.eventId,
      sportsbook: '',
      market: '',
      selection: '',
      line: null,
      participant: null,
      stat_category: null,
      odds_american: 0,
      odds_decimal: 0,
      probability: 0,
      is_live: false,
      is_active: false,
      suspended_since: null,
      odds_time: clickHouseTime(c.changedAt),
      odds_changed_at: null,
      observed_at: null,
      ...exchangeColumns(null),
      changed_at: clickHouseTime(c.changedAt),
      version,
      is_deleted: 1,
    };
  }
  return {
    row_key: c.key,
    id: r.id,
    event_id: r.eventId,
    sportsbook: r.book,
    market: r.market,
    selection: r.selection,
    line: r.line,
    participant: r.participant,
    stat_category: r.statCategory,
    odds_american: r.priceAmerican,
    odds_decimal: r.priceDecimal,
    probability: r.probability,
    is_live: r.isLive,
    is_active: r.isActive,
    suspended_since: r.suspendedSince === null ? null : clickHouseTime(r.suspendedSince),
    odds_time: clickHouseTime(r.ts),
    odds_changed_at: clickHouseTime(r.oddsChangedAt),
    observed_at: clickHouseTime(r.observedAt),
    ...exchangeColumns(r.exchange),
    changed_at: clickHouseTime(c.changedAt),
    version,
    is_deleted: 0,
  };
}

export function eventRow(e: CanonicalEvent): StoreRow {
  return {
    id: e.id,
    sport: e.sport,
    league: e.league,
    home_team_id: e.homeTeamId,
    away_team_id: e.awayTeamId,
    start_time: clickHouseTime(e.startTime),
    status: e.status,
    is_live: e.isLive,
    external_ids: e.externalIds,
    updated_at: clickHouseTime(e.updatedAt),
  };
}

/** One version of an opportunity as a row of `opportunities`; `version` must grow per id. */
export function opportunityRow(o: Opportunity, version: number): StoreRow {
  return {
    id: o.id,
    kind: o.kind,
    event_id: o.eventId,
    sport: o.event.sport,
    league: o.event.league,
    market: o.market,
    participant: o.participant,
    stat_category: o.statCategory,
    sportsbooks: o.legs.map((l) => l.book),
    selections: o.legs.map((l) => l.selection),
    lines: o.legs.map((l) => l.line),
    odds_american: o.legs.map((l) => l.priceAmerican),
    is_live: o.event.isLive,
    start_time: clickHouseTime(o.event.startTime),
    detected_at: clickHouseTime(o.detectedAt),
    last_seen_at: clickHouseTime(o.lastSeenAt),
    expired_at: o.expiredAt === null ? null : clickHouseTime(o.expiredAt),
    expire_reason: o.expireReason,
    value: o.value,
    peak_value: o.peakValue,
    oldest_odds_time: clickHouseTime(o.oldestOddsTs),
    possibly_stale: o.possiblyStale,
    // The object itself, not its text: the store writes it into the String column as JSON
    // (`input_format_json_read_objects_as_strings`, which keeps the text exactly), so a version
    // is serialized once, where a string of 3 KB would be serialized and then escaped again.
    record: o,
    version,
  };
}
