import type { ClosingLine, ClvGrade, GameState } from '../../schemas/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { StoreRow } from '../store/index.js';

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
