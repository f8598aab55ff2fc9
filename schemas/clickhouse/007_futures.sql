-- Futures (outrights): every outcome of every board a book published, in order. One market per
-- future_id (e.g. nba-2026-27-championship); a book prices all its outcomes at once (odds_time).
-- Replayed game-odds recordings carry no futures: these tables fill from the simulator.
CREATE TABLE IF NOT EXISTS futures_odds_ticks
(
    future_id            String,
    future_name          String,
    sport                LowCardinality(String),
    league               LowCardinality(String),
    future_type          LowCardinality(String),
    sportsbook           LowCardinality(String),
    selection            String,
    selection_id         String,
    line                 Nullable(Float64),
    odds_american        Int32,
    odds_decimal         Float64,
    implied_probability  Float64,
    settles_at           DateTime64(3, 'UTC'),
    odds_time            DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(odds_time)
ORDER BY (league, future_id, sportsbook, selection_id, ifNull(line, nan), odds_time);

-- Latest futures prices: one row per market, book and outcome, replaced by the book's newer
-- boards (version = the board's time). removed = 1: the book no longer lists the outcome.
-- Read with FINAL and WHERE removed = 0.
CREATE TABLE IF NOT EXISTS futures_odds_latest
(
    future_id            String,
    future_name          String,
    sport                LowCardinality(String),
    league               LowCardinality(String),
    future_type          LowCardinality(String),
    sportsbook           LowCardinality(String),
    selection            String,
    selection_id         String,
    line                 Nullable(Float64),
    odds_american        Int32,
    odds_decimal         Float64,
    implied_probability  Float64,
    settles_at           DateTime64(3, 'UTC'),
    odds_time            DateTime64(3, 'UTC'),
    removed              UInt8,
    version              UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (league, future_id, sportsbook, selection_id, ifNull(line, nan));

-- Futures +EV: every price above the references' de-vigged fair probability, one row per
-- occurrence (opportunity_id + detected_at), replaced by later versions; expired_at set at its
-- end. fair_*: the references' fair probability by de-vig method; ev_percent is under power.
CREATE TABLE IF NOT EXISTS futures_ev
(
    opportunity_id          String,
    future_id               String,
    future_name             String,
    sport                   LowCardinality(String),
    league                  LowCardinality(String),
    future_type             LowCardinality(String),
    sportsbook              LowCardinality(String),
    selection               String,
    selection_id            String,
    line                    Nullable(Float64),
    odds_american           Int32,
    odds_decimal            Float64,
    ev_percent              Float64,
    fair_power              Float64,
    fair_multiplicative     Float64,
    fair_additive           Float64,
    fair_shin               Float64,
    fair_odds_ratio         Float64,
    fair_logit              Float64,
    ev_worst_case           Float64,
    sharp_books             Array(LowCardinality(String)),
    reference_hold_percent  Float64,
    detected_at             DateTime64(3, 'UTC'),
    last_seen_at            DateTime64(3, 'UTC'),
    expired_at              Nullable(DateTime64(3, 'UTC')),
    version                 UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(detected_at)
ORDER BY (league, future_id, opportunity_id, detected_at);
