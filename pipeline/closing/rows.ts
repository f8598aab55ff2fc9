import type { ClosingLine, ClvGrade, EvOpportunity, GameState } from '../../schemas/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { OlapStore, StoreRow } from '../store/index.js';

/** Closing lines, CLV grades and game states as rows of their ClickHouse tables (006_*.sql). */

export function closingRow(c: ClosingLine, version: number): StoreRow {
  return {
    row_key: c.rowKey,
    event_id: c.eventId,
    sport: c.sport,
    league: c.league,
    home_team_id: c.homeTeamId,
    away_team_id: c.awayTeamId,
    event_start_time: clickHouseTime(c.eventStartTime),
    sportsbook: c.book,
    market: c.market,
    participant: c.participant,
    stat_category: c.statCategory,
    selection: c.selection,
    line: c.line,
    odds_american: c.priceAmerican,
    odds_decimal: c.priceDecimal,
    implied_probability: c.impliedProbability,
    book_no_vig_probability: c.bookNoVigProbability,
    no_vig_power: c.noVig.power,
    no_vig_multiplicative: c.noVig.multiplicative,
    no_vig_additive: c.noVig.additive,
    no_vig_shin: c.noVig.shin,
    reference_books: c.referenceBooks,
    odds_time: clickHouseTime(c.oddsTs),
    captured_at: clickHouseTime(c.capturedAt),
    version,
  };
}

const CLOSING_SELECT = `SELECT row_key, event_id, sport, league, home_team_id, away_team_id, toUnixTimestamp64Milli(event_start_time) AS start_ms,
            sportsbook, market, participant, stat_category, selection, line, odds_american, odds_decimal, implied_probability,
            book_no_vig_probability, no_vig_power, no_vig_multiplicative, no_vig_additive, no_vig_shin, reference_books,
            toUnixTimestamp64Milli(odds_time) AS odds_ms, toUnixTimestamp64Milli(captured_at) AS captured_ms
     FROM closing_odds FINAL`;

/**
 * The captured closes of `closing_odds` (latest version per row), for restoring the processor
 * at start or when this process is assigned an event's partition. Times come back as epoch ms.
 */
export async function storedClosingLines(store: OlapStore, startedAfter: number): Promise<ClosingLine[]> {
  const rows = await store.query<Record<string, unknown>>(
    `${CLOSING_SELECT} WHERE event_start_time >= fromUnixTimestamp64Milli({after:Int64})`,
    { after: startedAfter },
  );
  return rows.map(closingFromRow);
}

/** The captured closes of some events (the bet ledger grades its bets with them). */
export async function closingLinesOfEvents(store: OlapStore, eventIds: readonly string[]): Promise<ClosingLine[]> {
  if (eventIds.length === 0) return [];
  const rows = await store.query<Record<string, unknown>>(`${CLOSING_SELECT} WHERE has(splitByChar(',', {events:String}), event_id)`, {
    events: eventIds.join(','),
  });
  return rows.map(closingFromRow);
}

/** How a game ended, by its last reported state (`game_state`), for an event that has ended. */
export interface EndedGame {
  eventId: string;
  status: 'final' | 'postponed' | 'cancelled';
  homeScore: number;
  awayScore: number;
}

/** The last reported state of each of some events, where it is final, postponed or cancelled. */
export async function endedGamesOf(store: OlapStore, eventIds: readonly string[]): Promise<EndedGame[]> {
  if (eventIds.length === 0) return [];
  const rows = await store.query<Record<string, unknown>>(
    `SELECT event_id, argMax(status, updated_at) AS last_status, argMax(home_score, updated_at) AS home,
            argMax(away_score, updated_at) AS away
     FROM game_state WHERE has(splitByChar(',', {events:String}), event_id)
     GROUP BY event_id HAVING last_status IN ('final', 'postponed', 'cancelled')`,
    { events: eventIds.join(',') },
  );
  return rows.map((r) => ({
    eventId: String(r['event_id']),
    status: String(r['last_status']) as EndedGame['status'],
    homeScore: num(r['home']),
    awayScore: num(r['away']),
  }));
}

const num = (v: unknown): number => Number(v);
const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function closingFromRow(r: Record<string, unknown>): ClosingLine {
  return {
    rowKey: String(r['row_key']),
    eventId: String(r['event_id']),
    sport: String(r['sport']),
    league: String(r['league']),
    homeTeamId: String(r['home_team_id']),
    awayTeamId: String(r['away_team_id']),
    eventStartTime: num(r['start_ms']),
    book: String(r['sportsbook']),
    market: r['market'] as ClosingLine['market'],
    participant: (r['participant'] as string | null) ?? null,
    statCategory: (r['stat_category'] as string | null) ?? null,
    selection: r['selection'] as ClosingLine['selection'],
    line: orNull(r['line']),
    priceAmerican: num(r['odds_american']),
    priceDecimal: num(r['odds_decimal']),
    impliedProbability: num(r['implied_probability']),
    bookNoVigProbability: orNull(r['book_no_vig_probability']),
    noVig: {
      power: orNull(r['no_vig_power']),
      multiplicative: orNull(r['no_vig_multiplicative']),
      additive: orNull(r['no_vig_additive']),
      shin: orNull(r['no_vig_shin']),
    },
    referenceBooks: (r['reference_books'] as string[] | null) ?? [],
    oddsTs: num(r['odds_ms']),
    capturedAt: num(r['captured_ms']),
  };
}

/** A +EV opportunity as the closing processor first saw it (`clv_entries`, 009). */
export function entryRow(o: EvOpportunity): StoreRow {
  return {
    opportunity_id: o.id,
    event_id: o.eventId,
    league: o.event.league,
    event_start_time: clickHouseTime(o.event.startTime),
    detected_at: clickHouseTime(o.detectedAt),
    // Written into the String column as JSON text, like `opportunityRow`'s record.
    record: o,
  };
}

/** The +EV opportunities of `clv_entries` whose events started after `startedAfter`: the closing processor's restore. */
export async function storedEntries(store: OlapStore, startedAfter: number): Promise<EvOpportunity[]> {
  const rows = await store.query<{ record: string }>(
    'SELECT record FROM clv_entries FINAL WHERE event_start_time >= fromUnixTimestamp64Milli({after:Int64}) ORDER BY detected_at, opportunity_id',
    { after: startedAfter },
  );
  return rows.map((r) => JSON.parse(r.record) as EvOpportunity);
}

export function gradeRow(g: ClvGrade, version: number): StoreRow {
  return {
    opportunity_id: g.opportunityId,
    event_id: g.eventId,
    sport: g.sport,
    league: g.league,
    market: g.market,
    participant: g.participant,
    stat_category: g.statCategory,
    sportsbook: g.book,
    selection: g.selection,
    line: g.line,
    event_start_time: clickHouseTime(g.eventStartTime),
    detected_at: clickHouseTime(g.detectedAt),
    odds_american: g.priceAmerican,
    odds_decimal: g.priceDecimal,
    ev_percent: g.evPercent,
    fair_probability: g.fairProbability,
    sharp_book: g.sharpBook,
    closing_devig_book: g.closingDevigBook,
    closing_no_vig_probability: g.closingNoVigProbability,
    closing_odds_american: g.closingPriceAmerican,
    clv_percent: g.clvPercent,
    result: g.result,
    graded_at: clickHouseTime(g.gradedAt),
    version,
  };
}

export function gameStateRow(s: GameState): StoreRow {
  return {
    event_id: s.eventId,
    sport: s.sport,
    league: s.league,
    status: s.status,
    home_score: s.homeScore,
    away_score: s.awayScore,
    period: s.period,
    clock: s.clock,
    possession: s.possession,
    server: s.server,
    last_play: s.lastPlay,
    extras: JSON.stringify(s.extras),
    primary_book: s.primaryBook,
    book_count: s.bookCount,
    updated_at: clickHouseTime(s.updatedAt),
  };
}
