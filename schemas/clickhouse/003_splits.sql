-- Betting splits: one row per side of each book's snapshot (about every 5 minutes), with the
-- book's line and price on that side at the moment of the snapshot. Shares are 0 to 1.
-- Kept 48 hours (TTL); join with odds_ticks on (event_id, sportsbook) and time for analysis.
-- Delivery is at least once: ReplacingMergeTree folds a replayed batch into one row per key;
-- read with FINAL (or GROUP BY the key) for exact counts.
CREATE TABLE IF NOT EXISTS splits_history
(
    snapshot_time   DateTime64(3, 'UTC'),
    event_id        String,
    sport           LowCardinality(String),
    league          LowCardinality(String),
    start_time      DateTime64(3, 'UTC'),
    is_live         Bool,
    sportsbook      LowCardinality(String),
    market          LowCardinality(String),
    side            LowCardinality(String),
    line            Nullable(Float64),
    odds_american   Nullable(Int32),
    bet_pct         Float64,
    handle_pct      Float64,
    ingested_at     DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(snapshot_time)
ORDER BY (event_id, sportsbook, snapshot_time, market, side)
TTL toDateTime(snapshot_time) + INTERVAL 48 HOUR DELETE;

-- The latest snapshot per event, book, market and side (the newest snapshot_time wins on merge),
-- with the columns of splits_history.
CREATE TABLE IF NOT EXISTS splits_latest AS splits_history
ENGINE = ReplacingMergeTree(snapshot_time)
ORDER BY (event_id, sportsbook, market, side)
TTL toDateTime(snapshot_time) + INTERVAL 48 HOUR DELETE;
