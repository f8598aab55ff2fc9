import type { MarketId, SelectionType } from '../../schemas/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { OlapStore, StoreRow } from '../store/index.js';
import type { HistoricalMatch, HistoricalPrice, ParsedHistory, PricePhase } from './history.js';

/** History as rows of `history_matches` / `history_prices` (015_history.sql), and back. */

export function matchRow(m: HistoricalMatch, importedAt: number): StoreRow {
  return {
    source: m.source,
    match_id: m.matchId,
    league: m.league,
    kickoff: clickHouseTime(m.kickoff),
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    home_goals: m.homeGoals,
    away_goals: m.awayGoals,
    imported_at: clickHouseTime(importedAt),
  };
}

export function priceRow(p: HistoricalPrice, importedAt: number): StoreRow {
  return {
    source: p.source,
    match_id: p.matchId,
    sportsbook: p.book,
    market: p.market,
    selection: p.selection,
    phase: p.phase,
    line: p.line,
    odds_decimal: p.decimal,
    imported_at: clickHouseTime(importedAt),
  };
}

/** Writes a parsed file; its rows replace those of an earlier import of the same facts. */
export async function storeHistory(store: OlapStore, history: ParsedHistory, importedAt: number): Promise<void> {
  await store.insert(
    'history_matches',
    history.matches.map((m) => matchRow(m, importedAt)),
  );
  await store.insert(
    'history_prices',
    history.prices.map((p) => priceRow(p, importedAt)),
  );
}

/** What a source's import left in the store, in the parser's shape (no problems: they were reported at import). */
export async function storedHistory(store: OlapStore, source: string): Promise<ParsedHistory> {
  const matches = await store.query<StoreRow>(
    `SELECT source, match_id, league, toUnixTimestamp64Milli(kickoff) AS kickoff_ms, home_team, away_team, home_goals, away_goals
     FROM history_matches FINAL WHERE source = {source:String} ORDER BY kickoff, match_id`,
    { source },
  );
  const prices = await store.query<StoreRow>(
    `SELECT source, match_id, sportsbook, market, selection, phase, line, odds_decimal
     FROM history_prices FINAL WHERE source = {source:String} ORDER BY match_id, sportsbook, market, selection, phase`,
    { source },
  );
  return {
    matches: matches.map((r) => ({
      source: String(r['source']),
      matchId: String(r['match_id']),
      league: String(r['league']),
      kickoff: Number(r['kickoff_ms']),
      homeTeam: String(r['home_team']),
      awayTeam: String(r['away_team']),
      homeGoals: Number(r['home_goals']),
      awayGoals: Number(r['away_goals']),
    })),
    prices: prices.map((r) => ({
      source: String(r['source']),
      matchId: String(r['match_id']),
      book: String(r['sportsbook']),
      market: r['market'] as MarketId,
      selection: r['selection'] as SelectionType,
      phase: r['phase'] as PricePhase,
      line: r['line'] === null || r['line'] === undefined ? null : Number(r['line']),
      decimal: Number(r['odds_decimal']),
    })),
    problems: [],
  };
}
