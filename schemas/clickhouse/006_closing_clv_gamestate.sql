-- Closing lines: every book's last pre-match price per market, selection and line, captured the
-- first time the event is seen live. Re-inserted (higher version) when a late pre-match price
-- amends it: read with FINAL. no_vig_*: the sharp references' closes de-vigged by each method and
-- averaged (null when no reference closed that line); book_no_vig_probability: power de-vig of the
-- book's own closing market.
CREATE TABLE IF NOT EXISTS closing_odds
(
    row_key                   String,
    event_id                  String,
    sport                     LowCardinality(String),
    league                    LowCardinality(String),
    home_team_id              String,
    away_team_id              String,
    event_start_time          DateTime64(3, 'UTC'),
    sportsbook                LowCardinality(String),
    market                    LowCardinality(String),
    participant               Nullable(String),
    stat_category             LowCardinality(Nullable(String)),
    selection                 LowCardinality(String),
    line                      Nullable(Float64),
    odds_american             Int32,
    odds_decimal              Float64,
    implied_probability       Float64,
    book_no_vig_probability   Nullable(Float64),
    no_vig_power              Nullable(Float64),
    no_vig_multiplicative     Nullable(Float64),
    no_vig_additive           Nullable(Float64),
    no_vig_shin               Nullable(Float64),
    reference_books           Array(LowCardinality(String)),
    odds_time                 DateTime64(3, 'UTC'),
    captured_at               DateTime64(3, 'UTC'),
    version                   UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(event_start_time)
ORDER BY (league, event_id, row_key);

-- Closing-line value of every +EV opportunity detected before its event started: the price at
-- detection against the close. result is filled once a final score settles the bet (simulator;
-- recordings carry no scores). One row per occurrence (opportunity id + detected_at); read FINAL.
CREATE TABLE IF NOT EXISTS clv_grades
(
    opportunity_id              String,
    event_id                    String,
    sport                       LowCardinality(String),
    league                      LowCardinality(String),
    market                      LowCardinality(String),
    participant                 Nullable(String),
    stat_category               LowCardinality(Nullable(String)),
    sportsbook                  LowCardinality(String),
    selection                   LowCardinality(String),
    line                        Nullable(Float64),
    event_start_time            DateTime64(3, 'UTC'),
    detected_at                 DateTime64(3, 'UTC'),
    odds_american               Int32,
    odds_decimal                Float64,
    ev_percent                  Float64,
    fair_probability            Float64,
    sharp_book                  LowCardinality(String),
    closing_devig_book          LowCardinality(Nullable(String)),
    closing_no_vig_probability  Nullable(Float64),
    closing_odds_american       Nullable(Int32),
    clv_percent                 Nullable(Float64),
    result                      LowCardinality(Nullable(String)),
    graded_at                   DateTime64(3, 'UTC'),
    version                     UInt64
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(event_start_time)
ORDER BY (event_id, opportunity_id, detected_at);

-- Game-state history: every reported state (score, period, clock) of every game, in order.
CREATE TABLE IF NOT EXISTS game_state
(
    event_id        String,
    sport           LowCardinality(String),
    league          LowCardinality(String),
    status          LowCardinality(String),
    home_score      Int32,
    away_score      Int32,
    period          LowCardinality(Nullable(String)),
    clock           Nullable(String),
    possession      LowCardinality(Nullable(String)),
    server          LowCardinality(Nullable(String)),
    last_play       Nullable(String),
    extras          String,
    primary_book    LowCardinality(String),
    book_count      UInt16,
    updated_at      DateTime64(3, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(updated_at)
ORDER BY (event_id, updated_at);
