-- History files brought in by `make import-history` (pipeline/history): finished matches with
-- their final score, and every book's opening and closing price per outcome. Keys are made from
-- the file's own facts (source, match id, book, market, selection, phase), so importing a file
-- again replaces its rows instead of adding copies: read with FINAL.
CREATE TABLE IF NOT EXISTS history_matches
(
    source          LowCardinality(String),
    match_id        String,
    league          LowCardinality(String),
    kickoff         DateTime64(3, 'UTC'),
    home_team       String,
    away_team       String,
    home_goals      UInt16,
    away_goals      UInt16,
    imported_at     DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (source, match_id);

CREATE TABLE IF NOT EXISTS history_prices
(
    source          LowCardinality(String),
    match_id        String,
    sportsbook      LowCardinality(String),
    market          LowCardinality(String),
    selection       LowCardinality(String),
    phase           LowCardinality(String),
    line            Nullable(Float64),
    odds_decimal    Float64,
    imported_at     DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (source, match_id, sportsbook, market, selection, phase);
