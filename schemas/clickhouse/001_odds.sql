-- Every price a book set or confirmed, as normalized: the analyst's history table.
CREATE TABLE IF NOT EXISTS odds_ticks
(
    event_id        LowCardinality(String),
    sportsbook      LowCardinality(String),
    market          LowCardinality(String),
    selection       LowCardinality(String),
    line            Nullable(Float64),
    participant     Nullable(String),
    stat_category   LowCardinality(Nullable(String)),
    odds_american   Nullable(Int32),
    odds_decimal    Nullable(Float64),
    status          LowCardinality(String),
    is_live         Bool,
    book_event_id   String,
    tick_time       DateTime64(3, 'UTC'),
    ingested_at     DateTime64(3, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(tick_time)
ORDER BY (event_id, market, sportsbook, tick_time);

-- Latest price per row key. A removed (suspended) row is a version with is_deleted = 1;
-- read with FINAL to see the current board.
CREATE TABLE IF NOT EXISTS odds_latest
(
    row_key         String,
    id              String,
    event_id        LowCardinality(String),
    sportsbook      LowCardinality(String),
    market          LowCardinality(String),
    selection       LowCardinality(String),
    line            Nullable(Float64),
    participant     Nullable(String),
    stat_category   LowCardinality(Nullable(String)),
    odds_american   Int32,
    odds_decimal    Float64,
    probability     Float64,
    is_live         Bool,
    odds_time       DateTime64(3, 'UTC'),
    changed_at      DateTime64(3, 'UTC'),
    version         UInt64,
    is_deleted      UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY row_key;

-- Canonical events, one version per change.
CREATE TABLE IF NOT EXISTS events
(
    id              String,
    sport           LowCardinality(String),
    league          LowCardinality(String),
    home_team_id    String,
    away_team_id    String,
    start_time      DateTime64(3, 'UTC'),
    status          LowCardinality(String),
    is_live         Bool,
    external_ids    Map(String, String),
    updated_at      DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY id;
