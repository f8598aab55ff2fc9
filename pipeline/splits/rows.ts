import type { SplitsSnapshot } from '../../schemas/index.js';
import { clickHouseTime } from '../sinks/index.js';
import type { StoreRow } from '../store/index.js';

/**
 * `splits_history` and `splits_latest` rows: one per side of a snapshot (see
 * schemas/clickhouse/003_splits.sql). Snake_case starts here, as for the odds tables.
 */
export function splitsRows(s: SplitsSnapshot, ingestedAt: number): StoreRow[] {
  return s.sides.map((side) => ({
    snapshot_time: clickHouseTime(s.ts),
    event_id: s.eventId,
    sport: s.sport,
    league: s.league,
    start_time: clickHouseTime(s.startTime),
    is_live: s.isLive,
    sportsbook: s.book,
    market: side.market,
    side: side.side,
    line: side.line,
    odds_american: side.priceAmerican,
    bet_pct: side.betPct,
    handle_pct: side.handlePct,
    ingested_at: clickHouseTime(ingestedAt),
  }));
}
